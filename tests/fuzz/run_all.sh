#!/bin/bash
# Runs every fuzz target for MINUTES each, one after the other, from its committed seed corpus,
# and prints a table (target, time, runs, findings) to paste into doc/fuzzing.md.
#
#   tests/fuzz/run_all.sh [MINUTES] [BUILD_DIR] [TARGET...]   # from the source root; defaults:
#                                                             # 10, build-fuzz, every target
#
# BUILD_DIR is configured with clang and -DGS_FUZZ=ON (UBSan and ASan halt on their first finding)
# and built when a target is missing. The corpora the fuzzers grow, their logs and any finding
# (crash-*, leak-*, timeout-*, oom-*) go to a scratch folder that the script names at the end;
# nothing is written into the repository.
set -u
minutes=${1:-10}
build=${2:-build-fuzz}
case "$minutes" in '' | *[!0-9]*) echo "usage: $0 [MINUTES] [BUILD_DIR] [TARGET...]" >&2; exit 2 ;; esac
shift $(($# < 2 ? $# : 2))
only=" $* "

# target, seed corpora (tests/fuzz/corpus/..., comma-separated), largest input in bytes
targets=(
    "fuzz_json json 65536"
    "fuzz_kineto kineto 131072"
    "fuzz_gst gst 131072"
    "fuzz_gst_merge gst 131072"
    "fuzz_gsum gsum 131072"
    "fuzz_monitor_replay monitor 65536"
    "fuzz_monitor_live monitor_live 65536"
    "fuzz_ncu ncu 65536"
    "fuzz_diff diff 131072"
    "fuzz_ondemand ondemand 16384"
    "fuzz_op_cost op_cost 4096"
    "fuzz_gunzip gunzip 65536"
    "fuzz_report kineto,gst 131072"
)

if [ "$only" != "  " ]; then
    chosen=()
    for t in "${targets[@]}"; do
        set -- $t
        case "$only" in *" $1 "*) chosen+=("$t") ;; esac
    done
    targets=("${chosen[@]}")
fi

missing=0
for t in "${targets[@]}"; do
    set -- $t
    [ -x "$build/$1" ] || missing=1
done
if [ $missing -eq 1 ]; then
    CC=clang cmake -S . -B "$build" -DGS_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null &&
        cmake --build "$build" -j2 --target $(for t in "${targets[@]}"; do set -- $t; echo "$1"; done) \
            >/dev/null || { echo "run_all.sh: the fuzz build failed" >&2; exit 1; }
fi

work=$(mktemp -d /tmp/gpuscope-fuzz-XXXXXX)
echo "| target | time | runs | findings |"
echo "|---|---|---|---|"
total_findings=0
for t in "${targets[@]}"; do
    set -- $t
    name=$1 max_len=$3
    seeds=()
    for c in ${2//,/ }; do seeds+=("tests/fuzz/corpus/$c"); done
    mkdir -p "$work/$name.corpus" "$work/$name.findings"
    start=$(date +%s)
    "$build/$name" -max_total_time=$((minutes * 60)) -max_len="$max_len" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/$name.findings/" \
        "$work/$name.corpus" "${seeds[@]}" >"$work/$name.log" 2>&1
    secs=$(($(date +%s) - start))
    # "Done N runs in S second(s)" when it ran its time out; else the last "#N" status line.
    runs=$(sed -n 's/^Done \([0-9]*\) runs in .*/\1/p' "$work/$name.log" | tail -1)
    [ -n "$runs" ] || runs=$(sed -n 's/^#\([0-9]*\).*/\1/p' "$work/$name.log" | tail -1)
    found=$(find "$work/$name.findings" -type f | wc -l)
    total_findings=$((total_findings + found))
    what=none
    if [ "$found" -gt 0 ]; then
        what="$found: $(grep -m1 -E 'runtime error|ERROR: (AddressSanitizer|libFuzzer)' \
            "$work/$name.log" | sed 's/|/\\|/g')"
    fi
    grouped=$(echo "${runs:-0}" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta')
    printf '| `%s` | %d s | %s | %s |\n' "$name" "$secs" "$grouped" "$what"
done
echo
echo "logs, grown corpora and findings: $work" >&2
[ $total_findings -eq 0 ]
