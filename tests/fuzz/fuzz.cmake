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

# The monitor's log reader (src/monitor/replay.c) and the renderers of what it accepts; seeds in
# tests/fuzz/corpus/monitor/ are lines of tests/data/monitor/two_gpus.jsonl.
add_executable(fuzz_monitor_replay ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_monitor_replay.c)
target_link_libraries(fuzz_monitor_replay PRIVATE gscore)
target_compile_options(fuzz_monitor_replay PRIVATE -fsanitize=fuzzer,address,undefined)
target_link_options(fuzz_monitor_replay PRIVATE -fsanitize=fuzzer,address,undefined)

# The live monitor path (src/probe/, src/monitor/live.c): a fake NVML and /proc driven by the input,
# every renderer, and the log line read back by the replay reader; seeds in
# tests/fuzz/corpus/monitor_live/ are written by tests/fuzz/make_monitor_live_seeds.py.
add_executable(fuzz_monitor_live ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_monitor_live.c)
target_link_libraries(fuzz_monitor_live PRIVATE gscore)
target_compile_options(fuzz_monitor_live PRIVATE -fsanitize=fuzzer,address,undefined)
target_link_options(fuzz_monitor_live PRIVATE -fsanitize=fuzzer,address,undefined)

# The per-process .gst merge of gpuscope run (src/collect/gst_merge.c); seeds: the .gst corpus.
add_executable(fuzz_gst_merge ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_gst_merge.c)
target_link_libraries(fuzz_gst_merge PRIVATE gscore)
target_compile_options(fuzz_gst_merge PRIVATE -fsanitize=fuzzer,address,undefined)
target_link_options(fuzz_gst_merge PRIVATE -fsanitize=fuzzer,address,undefined)

# The rank-summary reader (src/analysis/pipeline/gsum_read.c), the writer, and the report merged and
# rendered from what it accepts; seeds in tests/fuzz/corpus/gsum/ are summaries written by
# gpuscope summarize (tests/data/ranks/r4, examples/train.json.gz, tests/data/gst/sample.gst).
add_executable(fuzz_gsum ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_gsum.c)
target_link_libraries(fuzz_gsum PRIVATE gscore)
target_compile_options(fuzz_gsum PRIVATE -fsanitize=fuzzer,address,undefined)
target_link_options(fuzz_gsum PRIVATE -fsanitize=fuzzer,address,undefined)

# The Nsight Compute CSV reader (src/ingest/ncu_csv.c) and its join; seeds in tests/fuzz/corpus/ncu/
# are small exports of both pages written by tests/fuzz/make_ncu_seeds.py.
add_executable(fuzz_ncu ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_ncu.c)
target_link_libraries(fuzz_ncu PRIVATE gscore)
target_compile_options(fuzz_ncu PRIVATE -fsanitize=fuzzer,address,undefined)
target_link_options(fuzz_ncu PRIVATE -fsanitize=fuzzer,address,undefined)

# gpuscope diff (src/compare/): two traces split from the input, compared and rendered; seeds in
# tests/fuzz/corpus/diff/ are pairs of small traces written by tests/fuzz/make_diff_seeds.py.
add_executable(fuzz_diff ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_diff.c)
target_link_libraries(fuzz_diff PRIVATE gscore)
target_compile_options(fuzz_diff PRIVATE -fsanitize=fuzzer,address,undefined)
target_link_options(fuzz_diff PRIVATE -fsanitize=fuzzer,address,undefined)

# The on-demand control files (src/common/ondemand.c): requests and statuses; seeds in
# tests/fuzz/corpus/ondemand/ are a request and a status as capture and the agent write them.
add_executable(fuzz_ondemand ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_ondemand.c)
target_link_libraries(fuzz_ondemand PRIVATE gscore)
target_compile_options(fuzz_ondemand PRIVATE -fsanitize=fuzzer,address,undefined)
target_link_options(fuzz_ondemand PRIVATE -fsanitize=fuzzer,address,undefined)

# The readers of an operator's recorded arguments and the FLOP and byte models over them
# (src/analysis/base/op_args.c, flops.c, op_cost*.c); seeds in tests/fuzz/corpus/op_cost/ are
# operators of the GPT-2 and Qwen captures, one per file (name, dims, types, concrete on four lines).
add_executable(fuzz_op_cost ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_op_cost.c)
target_link_libraries(fuzz_op_cost PRIVATE gscore)
target_compile_options(fuzz_op_cost PRIVATE -fsanitize=fuzzer,address,undefined)
target_link_options(fuzz_op_cost PRIVATE -fsanitize=fuzzer,address,undefined)

# gzip sources (src/ingest/gunzip.c, source.c): read whole, at offsets and from a second reader;
# seeds in tests/fuzz/corpus/gunzip/ are written by tests/fuzz/make_gunzip_seeds.py.
add_executable(fuzz_gunzip ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_gunzip.c)
target_link_libraries(fuzz_gunzip PRIVATE gscore)
target_compile_options(fuzz_gunzip PRIVATE -fsanitize=fuzzer,address,undefined)
target_link_options(fuzz_gunzip PRIVATE -fsanitize=fuzzer,address,undefined)

# What report and whatif do with a trace once read: the context, every per-rank analysis with the
# replay and its runs, the report merged and rendered, every action replayed; seeds: the kineto
# and .gst corpora (a .gst is read as gpuscope run's: steps found from its kernels, its own cost).
add_executable(fuzz_report ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_report.c)
target_link_libraries(fuzz_report PRIVATE gscore)
target_compile_options(fuzz_report PRIVATE -fsanitize=fuzzer,address,undefined)
target_link_options(fuzz_report PRIVATE -fsanitize=fuzzer,address,undefined)
