#!/usr/bin/env bash
# README command 2 (and CI): install what is missing, then build and run the whole suite twice:
# with gcc, and with clang under AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
# PyTorch for the tests that run a real training loop under gpuscope run, once, outside the work
# tree (scripts/torch_venv.sh); without it those tests skip with a message.
scripts/torch_venv.sh >/dev/null || echo "test.sh: no PyTorch for the tests: the torch tests will skip"
jobs=$(nproc)

echo "== gcc build, full suite"
CC=gcc cmake -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-test -j"$jobs" >/dev/null
ctest --test-dir build-test --output-on-failure -j"$jobs"

echo "== clang build with ASan + UBSan, full suite"
CC=clang cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DGS_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$jobs" >/dev/null
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure -j"$jobs"
