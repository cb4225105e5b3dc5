# Unit tests: every tests/unit/test_*.c is one executable and one CTest case.
file(GLOB GS_UNIT_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/unit/test_*.c)
foreach(src ${GS_UNIT_TESTS})
  get_filename_component(name ${src} NAME_WE)
  # Tests of the agent (test_agent_*.c) need its objects and the CUDA headers.
  if(name MATCHES "^test_agent_" AND NOT GS_HAVE_AGENT)
    continue()
  endif()
  add_executable(${name} ${src})
  if(name MATCHES "^test_agent_")
    target_link_libraries(${name} PRIVATE gsagent_test)
  else()
    target_link_libraries(${name} PRIVATE gscore)
  endif()
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/tests/unit)
  add_test(NAME unit.${name} COMMAND ${name})
  set_tests_properties(unit.${name} PROPERTIES
                       ENVIRONMENT "GS_TEST_DATA=${CMAKE_SOURCE_DIR}/tests/data")
endforeach()

# The .gst fixture and fuzz seeds are written by the real writer (tests/gen/make_gst_seeds.c);
# this test fails when the writer no longer produces the committed fixture byte for byte.
add_executable(make_gst_seeds ${CMAKE_SOURCE_DIR}/tests/gen/make_gst_seeds.c)
target_link_libraries(make_gst_seeds PRIVATE gscore)
add_test(NAME gen.gst_fixture
         COMMAND sh -c "$<TARGET_FILE:make_gst_seeds> gst_fixture.gst && cmp gst_fixture.gst ${CMAKE_SOURCE_DIR}/tests/data/gst/sample.gst")

# End-to-end tests: every tests/cli/*.sh runs the built binary and compares with golden output.
file(GLOB GS_CLI_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/cli/test_*.sh)
foreach(script ${GS_CLI_TESTS})
  get_filename_component(name ${script} NAME_WE)
  add_test(NAME cli.${name} COMMAND bash ${script} $<TARGET_FILE:gpuscope>)
  set_tests_properties(cli.${name} PROPERTIES
                       WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                       SKIP_RETURN_CODE 77)
endforeach()

# The Python hooks on a real PyTorch loop: scripts/test.sh installs PyTorch first (about 3 GB from
# PyPI, a few minutes, scripts/torch_venv.sh, kept outside the work tree for every later run); run
# alone, the test installs it itself.
if(TEST cli.test_torch_hooks)
  set_tests_properties(cli.test_torch_hooks PROPERTIES TIMEOUT 1200)
endif()

# Synthetic traces with known answers (tests/gen): every dialect, checked exactly against the
# generator's --answers; independent of ../shared.
add_test(NAME gen.answers
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/gen/check_answers.py $<TARGET_FILE:gpuscope>)
set_tests_properties(gen.answers PROPERTIES TIMEOUT 300)

# Independent cross-check against the real traces in ../shared/traces (skipped when absent).
add_test(NAME traces.kernels_ops
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/traces/check_traces.py $<TARGET_FILE:gpuscope>)
set_tests_properties(traces.kernels_ops PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1800)

# Anchor: `gpuscope idle --hta` agrees with HTA's temporal and idle breakdowns to 0.5 pp on the
# shared traces (tests/anchors/README-hta.md; skipped when ../shared/traces is absent).
add_test(NAME traces.hta_anchor
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/anchors/check_hta_anchor.py $<TARGET_FILE:gpuscope>)
set_tests_properties(traces.hta_anchor PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)

# Agreement with the TensorBoard profiler plugin's Overview on real traces (tests/anchors/README-tb.md).
add_test(NAME anchors.tb
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/anchors/check_tb_anchor.py $<TARGET_FILE:gpuscope>)
set_tests_properties(anchors.tb PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)

# The README's examples are what the program prints.
add_test(NAME docs.readme
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/cli/check_readme.py $<TARGET_FILE:gpuscope>)
# The report's default text within 120 columns, no two rows of a table alike once cut and no two
# cut names of its Top kernels and Top operators alike, on the golden reports, the generated ranks
# and every real trace and capture when ../shared is there (tests/cli/check_report_width.py).
add_test(NAME cli.report_width
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/cli/check_report_width.py $<TARGET_FILE:gpuscope>)
set_tests_properties(cli.report_width PROPERTIES TIMEOUT 300)
# CONTRIBUTING.md's worked example, applied word for word to a copy of the tree, built (gpuscope
# and its unit test, with this build's compiler, in Debug) and run
# (tests/docs/check_contributing_example.py; about 20 s on two cores).
add_test(NAME docs.contributing_example
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/docs/check_contributing_example.py
                 --cc ${CMAKE_C_COMPILER})
set_tests_properties(docs.contributing_example PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
                     PROCESSORS 2)
# Every path README.md, CONTRIBUTING.md and doc/*.md cite exists (tests/docs/check_doc_paths.py).
add_test(NAME docs.paths COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/docs/check_doc_paths.py)

# The verdict names the planted bottleneck first on every generated scenario.
add_test(NAME diagnosis.scenarios
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/gen/check_scenarios.py $<TARGET_FILE:gpuscope>)
# Inference and decode traces made at run time (tests/gen/gen_inference.py): no training-only
# advice, and a decode loop meeting a new shape every token gets first_use_per_shape, not warm-up.
add_test(NAME diagnosis.inference
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/gen/check_inference.py $<TARGET_FILE:gpuscope>)
# The advice fits the GPU: the scenarios rewritten to Volta, Turing, Ampere, Hopper, Pascal and an
# unknown GPU give only the precisions each can run (tests/gen/check_gpu_caps.py).
add_test(NAME diagnosis.gpu_caps
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/gen/check_gpu_caps.py $<TARGET_FILE:gpuscope>)

# A program with NVTX ranges of every kind, run under `gpuscope run` by tests/cli/test_run.sh
# (no GPU needed: NVTX is injected without CUDA). Built beside gpuscope, where the test finds it.
if(GS_HAVE_AGENT)
  add_executable(nvtx_target ${CMAKE_SOURCE_DIR}/tests/run/nvtx_target.c)
  target_include_directories(nvtx_target SYSTEM PRIVATE ${GS_NVTX_INCLUDE})
  target_link_libraries(nvtx_target PRIVATE Threads::Threads ${CMAKE_DL_LIBS})
endif()

# gpuscope export on every shared trace: chrome round trip and sqlite row counts (tests/traces/check_export_traces.py).
add_test(NAME traces.export
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/traces/check_export_traces.py $<TARGET_FILE:gpuscope>)
set_tests_properties(traces.export PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1800)
# HTA reads the chrome export and agrees with gpuscope (skipped unless HTA is importable; HTA_PYTHON).
add_test(NAME anchors.export_hta
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/anchors/check_export_hta.py $<TARGET_FILE:gpuscope>)
set_tests_properties(anchors.export_hta PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)

# Anchor: `gpuscope comm --hta` agrees with HTA's comm/comp overlap and communication time per
# rank on the shared 2-rank sets (tests/anchors/README-comm.md; skipped when ../shared is absent).
add_test(NAME traces.comm_hta_anchor
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/anchors/check_comm_hta.py $<TARGET_FILE:gpuscope>)
set_tests_properties(traces.comm_hta_anchor PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)

# The wheel: built and repaired by scripts/wheel.sh, installed into a venv with no compiler on its
# PATH, and used there (tests/wheel/check_wheel.sh, doc/python.md; skipped without PyPI). Only in
# the unsanitized build: the wheel has its own toolchain, so a second run would test the same.
if(GS_HAVE_AGENT AND NOT GS_SANITIZE AND NOT GS_FUZZ)
  add_test(NAME wheel.install
           COMMAND bash ${CMAKE_SOURCE_DIR}/tests/wheel/check_wheel.sh $<TARGET_FILE:gpuscope>)
  set_tests_properties(wheel.install PROPERTIES WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                       SKIP_RETURN_CODE 77 TIMEOUT 1200 PROCESSORS 2)
endif()

# The Python package from the source tree on this build: traces named like options, and every
# failure a GpuscopeError (tests/wheel/check_python_errors.py; no install, no pandas needed).
add_test(NAME python.errors
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/wheel/check_python_errors.py $<TARGET_FILE:gpuscope>)
set_tests_properties(python.errors PROPERTIES WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})

# The layering rule: each source folder includes only the folders the table of doc/design.md §3
# lets it (tests/lint/check_layering.py reads the table from the page).
add_test(NAME lint.layering COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/lint/check_layering.py)
# Every JSON output goes through the writer of src/common/json_write.h: no JSON typed by hand.
add_test(NAME lint.json COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/lint/check_json_by_hand.py)
add_test(NAME lint.unused COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/lint/check_unused.py)

# Hostile and unlucky input (tests/hostile/): every class of bad input gets its exit status and a
# one- or two-line message within bounds on time and peak memory; the inputs are made at run time.
if(GS_SANITIZE)
  set(GS_HOSTILE_FLAGS --sanitized)
endif()
# Two stand-ins for libstdc++.so.6 that hostile cases put on LD_LIBRARY_PATH: one whose demangler
# runs out of memory (tests/hostile/fake_cxxabi.c), one that is no library at all and cannot be
# loaded, as the real one cannot when ulimit -v leaves no address space to map it.
add_library(fake_cxxabi MODULE ${CMAKE_SOURCE_DIR}/tests/hostile/fake_cxxabi.c)
set_target_properties(fake_cxxabi PROPERTIES PREFIX "" OUTPUT_NAME "libstdc++" SUFFIX ".so.6"
                      LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fake-libstdcxx/oom)
file(WRITE ${CMAKE_BINARY_DIR}/fake-libstdcxx/unloadable/libstdc++.so.6 "not a shared object\n")
# A stand-in for NVML that can be told to hang or to answer values out of range
# (tests/hostile/fake_nvml.c), built as fake-nvml/libnvidia-ml.so.1 for the cases that put it on
# LD_LIBRARY_PATH. Not in the fuzz build, whose instrumentation needs the fuzzer's runtime.
if(NOT GS_FUZZ)
  add_library(fake_nvml SHARED ${CMAKE_SOURCE_DIR}/tests/hostile/fake_nvml.c)
  target_include_directories(fake_nvml PRIVATE ${CMAKE_SOURCE_DIR}/src)
  # NVML's entry points are declared by nvml.h, which gpuscope does without.
  target_compile_options(fake_nvml PRIVATE -Wno-missing-prototypes)
  set_target_properties(fake_nvml PROPERTIES OUTPUT_NAME nvidia-ml PREFIX lib SUFFIX .so.1
                        LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fake-nvml)
endif()
add_test(NAME hostile.inputs
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/hostile/test_hostile.py $<TARGET_FILE:gpuscope>
                 ${GS_HOSTILE_FLAGS})
set_tests_properties(hostile.inputs PROPERTIES WORKING_DIRECTORY ${CMAKE_SOURCE_DIR} TIMEOUT 300)
# The benchmark drivers of bench/ on tiny inputs, with stand-ins for TraceLens and for a run
# that outgrows bench_big.sh's memory limit (tests/hostile/bench_scripts.py).
add_test(NAME hostile.bench_scripts
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/hostile/bench_scripts.py $<TARGET_FILE:gpuscope>
                 ${GS_HOSTILE_FLAGS})
set_tests_properties(hostile.bench_scripts PROPERTIES TIMEOUT 300)
# Hostile requests to monitor's Alertmanager webhook (POST /trigger) while a --trigger watches a
# replayed log: concurrent, oversized, nested, slow, wrong tokens; one cooldown on the log's clock
# (tests/hostile/monitor_trigger_webhook.py).
add_test(NAME hostile.monitor_trigger_webhook
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/hostile/monitor_trigger_webhook.py
                 $<TARGET_FILE:gpuscope> ${GS_HOSTILE_FLAGS})
set_tests_properties(hostile.monitor_trigger_webhook PROPERTIES TIMEOUT 120)
# What gpuscope leaves where it writes when a write fails half way (a file size limit), when two
# write one file at once, and kernel names in ncu's progress lines: tests/hostile/check_output_files.py.
add_test(NAME hostile.output_files
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/hostile/check_output_files.py
                 $<TARGET_FILE:gpuscope>)
set_tests_properties(hostile.output_files PROPERTIES WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                     TIMEOUT 300)
# An NVML whose calls never return (the fake above): `gpuscope run` still ends with the program's
# status and its trace, `monitor` and `monitor --serve` stop on SIGTERM and SIGINT within 2 s.
if(NOT GS_FUZZ)
  add_test(NAME hostile.hung_nvml
           COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/hostile/test_hung_nvml.py
                   $<TARGET_FILE:gpuscope> ${GS_HOSTILE_FLAGS})
  set_tests_properties(hostile.hung_nvml PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()
# Slow clients on six addresses do not starve a seventh's scrapes, nor hold up SIGTERM
# (tests/monitor/starvation_test.py).
add_test(NAME monitor.starvation
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/monitor/starvation_test.py
                 $<TARGET_FILE:gpuscope> ${CMAKE_SOURCE_DIR}/tests/data/monitor/two_gpus.jsonl
                 ${GS_HOSTILE_FLAGS})
set_tests_properties(monitor.starvation PROPERTIES TIMEOUT 120)

# monitor --trigger on a replayed log and the Alertmanager webhook, capturing two dormant ranks
# of tests/run/nvtx_target run with `gpuscope run --on-demand --job` (tests/monitor/trigger_test.py).
if(GS_HAVE_AGENT)
  add_test(NAME monitor.trigger
           COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/monitor/trigger_test.py $<TARGET_FILE:gpuscope>)
  set_tests_properties(monitor.trigger PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()

# What a user reads from `gpuscope run` traces, on the real H100 captures in ../shared/gpu-captures
# (tests/traces/check_captures.py: kernel names as torch.profiler's, one row per GPU, ...;
# skipped when the folder is absent).
add_test(NAME traces.captures
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/traces/check_captures.py $<TARGET_FILE:gpuscope>)
set_tests_properties(traces.captures PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
# diff across collectors on the captures (tests/traces/check_diff_captures.py: the .gst and
# torch.profiler twins, and with emit_nvtx against without, are judged on their GPU work, the same,
# with the step-time change set against the collectors' own cost).
add_test(NAME traces.diff_captures
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/traces/check_diff_captures.py $<TARGET_FILE:gpuscope>)
set_tests_properties(traces.diff_captures PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
# The name rules on real traces where letters were read as words (tests/traces/check_name_rules.py:
# PyTorch's lambda kernels are no LAMB optimizer, cuDNN's convert and SDPA kernels no convolution).
add_test(NAME traces.name_rules
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/traces/check_name_rules.py $<TARGET_FILE:gpuscope>)
set_tests_properties(traces.name_rules PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
# Python call sites on the torch.profiler capture with stacks (tests/traces/check_callsites.py: the top
# frame's GPU time is the sum over the kernels it launched, computed from the trace's events).
add_test(NAME traces.callsites
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/traces/check_callsites.py $<TARGET_FILE:gpuscope>)
set_tests_properties(traces.callsites PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
# Each GEMM counted once in `ops` under autocast (tests/traces/check_op_flops.py: aten::addmm inside
# aten::addmm is one call; its FLOPs as the trace's shapes give them and as `report` counts them).
add_test(NAME traces.op_flops
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/traces/check_op_flops.py $<TARGET_FILE:gpuscope>)
set_tests_properties(traces.op_flops PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
# FLOPs and bytes per operator call against TraceLens's own report of the Qwen H100 trace
# (tests/traces/check_roofline_tracelens.py: every row of its GEMM, SDPA, elementwise and reduce
# tables within 1 %, or off by exactly the listed difference of model; skipped when ../shared is absent).
add_test(NAME traces.roofline_tracelens
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/traces/check_roofline_tracelens.py $<TARGET_FILE:gpuscope>)
set_tests_properties(traces.roofline_tracelens PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
# Estimated FLOPs and bytes per kernel against Nsight Compute's measurement on the H100 captures
# (tests/traces/check_roofline_ncu.py: GEMMs within 20 %, the misses doc/roofline.md explains).
add_test(NAME traces.roofline_ncu
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/traces/check_roofline_ncu.py $<TARGET_FILE:gpuscope>)
set_tests_properties(traces.roofline_ncu PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
# The replay's accuracy on every real trace with steps (tests/traces/check_replay.py: the
# unchanged replay exact, the structural one within 3 % or explained, the profiler pairs).
add_test(NAME traces.replay
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/traces/check_replay.py $<TARGET_FILE:gpuscope>)
set_tests_properties(traces.replay PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
# Steps with no code change on the captures (tests/traces/check_detected_steps.py: the unmodified
# ResNet-50's 8 steps detected, the GPT-2 ones matching its marked ranges, start-up left out).
add_test(NAME traces.detected_steps
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/traces/check_detected_steps.py $<TARGET_FILE:gpuscope>)
set_tests_properties(traces.detected_steps PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
# No sentinel value (-1 for a step, device or ratio; _vNNNN API suffixes) in any view's output on
# the captures and the real traces (tests/traces/check_sentinels.py, about two minutes on two
# cores): the gcc build only, the sanitizer build would take many times longer for the same text.
if(NOT GS_SANITIZE)
  add_test(NAME traces.sentinels
           COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/traces/check_sentinels.py $<TARGET_FILE:gpuscope>)
  set_tests_properties(traces.sentinels PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900 PROCESSORS 2)
endif()
# The verdict's advice is conditioned on the trace, and the profiler's own cost is said and taken
# off host-side gains, on the real traces and captures (tests/traces/check_context.py; skipped
# when ../shared is absent).
add_test(NAME traces.context
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/traces/check_context.py $<TARGET_FILE:gpuscope>)
set_tests_properties(traces.context PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
# Inference traces get no training-only advice; SGLang's decode trace is decoding
# (tests/traces/check_inference_advice.py; skipped when ../shared is absent).
add_test(NAME traces.inference_advice
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/traces/check_inference_advice.py $<TARGET_FILE:gpuscope>)
set_tests_properties(traces.inference_advice PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
# Every percentage on the base printed beside it, on the real traces (tests/traces/check_bases.py:
# ops' CPU shares on every trace and capture, the profiler's host time, the rank table's steps;
# skipped when ../shared is absent).
add_test(NAME traces.bases
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/traces/check_bases.py $<TARGET_FILE:gpuscope>)
set_tests_properties(traces.bases PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
# DDP, all-to-alls run by SendRecv kernels and stragglers at them, on the real TorchRec and ResNet
# traces (tests/traces/check_parallelism.py; skipped when ../shared is absent).
add_test(NAME traces.parallelism
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/traces/check_parallelism.py $<TARGET_FILE:gpuscope>)
set_tests_properties(traces.parallelism PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
# No bf16, TF32 or FP8 advice on the real V100 and RTX 2080 Ti traces
# (tests/traces/check_gpu_advice.py; skipped when ../shared is absent).
add_test(NAME traces.gpu_advice
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/traces/check_gpu_advice.py $<TARGET_FILE:gpuscope>)
set_tests_properties(traces.gpu_advice PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
# The verdict corpus: the verdict on every real trace and capture of ../shared (skipped when absent),
# on public traces fetched under /work/.mirror (skipped when absent) and on generated traces for each
# GPU generation and stack, against one hand-written expected verdict per case, plus the advice no
# GPU, workload or parallelism allows (tests/verdicts/README.md); and the runner's own judgement on
# a fake gpuscope (tests/verdicts/test_check_verdicts.py).
add_test(NAME verdicts.corpus
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/verdicts/check_verdicts.py $<TARGET_FILE:gpuscope>)
set_tests_properties(verdicts.corpus PROPERTIES TIMEOUT 600 PROCESSORS 2)
add_test(NAME verdicts.runner
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/verdicts/test_check_verdicts.py)
set_tests_properties(verdicts.runner PROPERTIES TIMEOUT 60)
