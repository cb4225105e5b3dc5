#!/usr/bin/env bash
# What the report's analyses (steps, breakdown, idle, launch, sync, memory, summaries, verdict)
# add to the time of reading a trace, measured in one process: median load time and median
# analysis time over R runs, per trace. Acceptance target (issue "Analyses and diagnosis"):
# analyses add at most 25 % to the read.
#
#   bench/bench_analyses.sh [-r RUNS] [TRACE...]
# Without TRACE: the ~500 MB bench input (made by bench/make_big_trace.py if missing) and a few
# real traces from ../shared/traces when that folder exists.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5
if [ "${1:-}" = "-r" ]; then runs=$2; shift 2; fi
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-bench --target analysis_cost -j"$(nproc)" >/dev/null
traces=("$@")
if [ ${#traces[@]} -eq 0 ]; then
    scratch=${GPUSCOPE_BENCH_DIR:-/tmp/gpuscope-bench}
    big=$scratch/big_trace.json
    if [ ! -f "$big" ] && [ -d ../shared/traces ]; then
        mkdir -p "$scratch"
        python3 bench/make_big_trace.py --out "$big" >&2
    fi
    [ -f "$big" ] && traces+=("$big")
    for t in hta/df_index_resolver/df_index_resolver.json.gz param/resnet_kineto.json.gz \
             tracelens/inference/xdit_sd_3.5/profile_trace_rank_0.json.gz; do
        [ -f "../shared/traces/$t" ] && traces+=("../shared/traces/$t")
    done
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo
echo "| trace | runs | load s (median, min-max) | analyses s (median, min-max) | analyses / load |"
echo "|---|---|---|---|---|"
for t in "${traces[@]}"; do
    build-bench/analysis_cost "$t" "$runs"
done
