#!/bin/bash
# Several runs in one folder, on the real traces in ../shared/traces: tokenomics holds two 2-rank
# runs of a Llama tensor-parallel job (trace0/trace1, and the llama_trace_4layers pair), so each
# rank appears twice. `report` on the folder refuses (exit 3) with the two runs listed and how to
# report one; naming one run's traces reports it; HTA's trace_filter (one 2-rank run) still reports
# as one run. Skipped when ../shared/traces is absent.
set -u
exe=${1:?usage: test_runs_shared.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
traces=${GS_SHARED_TRACES:-../shared/traces}
dir=$traces/tokenomics
[ -d "$dir" ] || { echo "skip: $dir is absent"; exit 77; }
source tests/cli/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ran=$((ran + 1))
"$exe" report "$dir" >"$tmp/out" 2>"$tmp/err"
rc=$?
want="the 4 traces are 2 runs, not one (a rank appears in several; their times do not overlap): run 1: rank 0 trace0.json, rank 1 trace1.json; run 2: rank 0 llama_trace_4layers0_with_annotations.json.gz, rank 1 llama_trace_4layers1_with_annotations.json.gz. Name one run's traces to report it, e.g. gpuscope report DIR/trace0.json DIR/trace1.json"
if [ $rc -ne 3 ] || ! grep -qF "$want" "$tmp/err" || [ -s "$tmp/out" ]; then
    echo "FAIL: report $dir exits $rc (want 3) with: $(cat "$tmp/err")"
    failed=$((failed + 1))
fi

ran=$((ran + 1))
"$exe" report --format json "$dir/trace0.json" "$dir/trace1.json" >"$tmp/run1.json" &&
    python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["profile"]; sys.exit(0 if p["traces"] == 2 and p["ranks"] == 2 else 1)' "$tmp/run1.json" ||
    { echo "FAIL: one run's two traces do not report as 2 traces, 2 ranks"; failed=$((failed + 1)); }

filter=$traces/hta/trace_filter
if [ -d "$filter" ]; then
    ran=$((ran + 1))
    "$exe" report --format json "$filter" >"$tmp/filter.json" &&
        python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["profile"]; sys.exit(0 if p["traces"] == 2 and p["ranks"] == 2 else 1)' "$tmp/filter.json" ||
        { echo "FAIL: hta/trace_filter no longer reports as one run of 2 ranks"; failed=$((failed + 1)); }
fi
finish
