#!/usr/bin/env bash
# README command 1: install what is missing, build, and report on the bundled example trace.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
exec build/gpuscope report examples/train.json.gz
