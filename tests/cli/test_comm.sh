#!/bin/bash
# Golden tests of `gpuscope comm` (communication per rank, collectives per kind, per step) in
# every format and with its options, compared with tests/cli/golden/<case>, on:
#   tests/data/comm/overlap_rank{0,1}.json  two hand-made ranks, two 1 ms steps each: a gemm
#       [20,520+100r) µs, an all-reduce [300,700) (100 MB bf16) and an all-gather [750,850)
#       (40 MB out) on stream 20, a small kernel [860,900); overlap and bandwidth by hand in
#       doc/comm.md
#   tests/data/comm/comm_bound.json.gz  python3 tests/gen/gen_trace.py --scenario
#       communication_bound --steps 3 --seed 5 --rank 0 --world-size 2 -o ...
#
#   bash tests/cli/test_comm.sh path/to/gpuscope          # run from the source root
#   GS_UPDATE_GOLDEN=1 bash tests/cli/test_comm.sh ...     # rewrite the goldens (review!)
set -u
exe=${1:?usage: test_comm.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
data=tests/data/comm
golden=tests/cli/golden
pair="$data/overlap_rank0.json $data/overlap_rank1.json"

# case name, then the whole argument list
cases=(
    "comm.table|comm $pair"
    "comm.csv|comm --format csv $pair"
    "comm.json|comm --format json $pair"
    "comm-per-step.table|comm --per-step $pair"
    "comm-per-step-rank-1.json|comm --per-step --rank 1 --format json $pair"
    "comm-hta.json|comm --hta --format json $pair"
    "comm-limit-1.table|comm --limit 1 $pair"
    "comm-bound.table|comm --per-step $data/comm_bound.json.gz"
    "comm-none.table|comm tests/data/idle/sync_bound.json"
)

. tests/cli/lib.sh
for c in "${cases[@]}"; do
    read -r -a args <<<"${c#*|}"
    check_golden "${c%%|*}" "${args[@]}"
done

# Usage errors: one line naming the problem, exit 2; a rank no trace has: exit 2 as well.
bad=(
    "--format xml $data/overlap_rank0.json"
    "--per-step=yes $data/overlap_rank0.json"
    "--sort total $data/overlap_rank0.json"
    "--step"
    "--hta"
)
for b in "${bad[@]}"; do
    read -r -a args <<<"$b"
    check_error 2 comm "${args[@]}"
done

# The JSON adds up: exposed = communication - overlap, per rank and per step; the steps' exposed
# time is the rank's mean per step; algbw = bytes / time; busbw follows nccl-tests' factors.
if command -v python3 >/dev/null; then
    ran=$((ran + 1))
    # shellcheck disable=SC2086
    if ! "$exe" comm --per-step --format json $pair | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert [r["rank"] for r in d["ranks"]] == [0, 1]
for r in d["ranks"] + d["steps"]:
    assert r["exposed_ns"] == r["communication_ns"] - r["overlap_ns"], r
for r in d["ranks"]:
    assert abs(r["overlap_pct"] - 100 * r["overlap_ns"] / r["communication_ns"]) < 0.005, r
    steps = [s for s in d["steps"] if s["rank"] == r["rank"]]
    assert r["exposed_per_step_ns"] == sum(s["exposed_ns"] for s in steps) // len(steps), r
factor = {"all_reduce": lambda n: 2 * (n - 1) / n, "all_gather": lambda n: (n - 1) / n}
for k in d["collectives"]:
    assert abs(k["algbw_gbps"] - k["bytes"] / k["total_ns"]) < 0.0005, k
    want = k["algbw_gbps"] * factor[k["collective"]](k["group_size"])
    assert abs(k["busbw_gbps"] - want) < 0.0005, k
'; then
        echo "FAIL comm --format json: the numbers do not add up"
        failed=$((failed + 1))
    fi
fi

finish
