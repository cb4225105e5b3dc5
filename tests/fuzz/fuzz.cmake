# libFuzzer targets, one per parser (clang only): cmake -DGS_FUZZ=ON -DCMAKE_C_COMPILER=clang
# See doc/fuzzing.md for how to run them and where their seed corpora live.
foreach(target fuzz_json fuzz_kineto)
  add_executable(${target} ${CMAKE_SOURCE_DIR}/tests/fuzz/${target}.c)
  target_link_libraries(${target} PRIVATE gscore)
  target_compile_options(${target} PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_options(${target} PRIVATE -fsanitize=fuzzer,address,undefined)
endforeach()
