# libFuzzer targets, one per parser (clang only): cmake -DGS_FUZZ=ON -DCMAKE_C_COMPILER=clang
# See doc/fuzzing.md for how to run them and where their seed corpora live.
foreach(target fuzz_json fuzz_kineto)
  add_executable(${target} ${CMAKE_SOURCE_DIR}/tests/fuzz/${target}.c)
  target_link_libraries(${target} PRIVATE gscore)
  target_compile_options(${target} PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_options(${target} PRIVATE -fsanitize=fuzzer,address,undefined)
endforeach()

# The .gst reader (src/ingest/gst.c); seeds in tests/fuzz/corpus/gst/ come from tests/gen/make_gst_seeds.c.
add_executable(fuzz_gst ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_gst.c)
target_link_libraries(fuzz_gst PRIVATE gscore)
target_compile_options(fuzz_gst PRIVATE -fsanitize=fuzzer,address,undefined)
target_link_options(fuzz_gst PRIVATE -fsanitize=fuzzer,address,undefined)
