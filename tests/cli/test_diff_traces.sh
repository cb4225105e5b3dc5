#!/bin/bash
# gpuscope diff on real traces of one job family: HTA's own trace-diff pair in ../shared/traces
# (hta/trace_diff: the same recommendation-model training, "control" on an A100 as rank 3 of 8 and
# "test" on a V100 as rank 1 of 2, 6 ProfilerSteps each). The output must be stable (two runs
# byte-identical: the bootstrap is seeded) and sensible: the V100 run is confidently slower
# (its median step 116.7 ms against 76.7 ms: +52 %), the gate trips at 40 % and not at 60 %, and
# each trace against itself shows no change. Skipped when ../shared/traces is absent.
set -u
exe=${1:?usage: test_diff_traces.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
traces=${GS_SHARED_TRACES:-../shared/traces}
base=$traces/hta/trace_diff/control/control.json.gz
new=$traces/hta/trace_diff/test/test.json.gz
[ -f "$base" ] && [ -f "$new" ] || { echo "skip: $traces/hta/trace_diff is absent"; exit 77; }
source tests/cli/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ran=$((ran + 1))
"$exe" diff "$base" "$new" >"$tmp/a.table" && "$exe" diff "$base" "$new" >"$tmp/b.table" &&
    cmp -s "$tmp/a.table" "$tmp/b.table" ||
    { echo "FAIL: two runs of the same diff differ"; failed=$((failed + 1)); }

"$exe" diff --format json --limit 0 "$base" "$new" >"$tmp/pair.json"
"$exe" diff --format json "$base" "$base" >"$tmp/self_base.json"
"$exe" diff --format json "$new" "$new" >"$tmp/self_new.json"
ran=$((ran + 1))
if ! python3 - "$tmp/pair.json" "$tmp/self_base.json" "$tmp/self_new.json" <<'PY'; then
import json, sys
pair, sb, sn = (json.load(open(p)) for p in sys.argv[1:])
errors = []
def want(cond, what):
    if not cond:
        errors.append(what)
row, v = pair["step_time"][0], pair["verdict"]
want(row["base_rank"] == 3 and row["new_rank"] == 1, "one trace per side pairs across ranks")
want(row["base_steps"] == 6 and row["new_steps"] == 6, "6 kept steps each")
want(row["base_med_ns"] == 76727000 or abs(row["base_med_ns"] - 76727000) < 1000, "base med %s" % row["base_med_ns"])
want(v["direction"] == "slower" and 45 < v["change_pct"] < 60 and v["ci_low_pct"] > 40, "verdict %s" % v)
want(v["p_value"] < 0.01 and row["p_exact"] == "yes", "Mann-Whitney exact p %s" % v["p_value"])
# The V100 run spends its extra time in kernels and copies, the categories that grew most.
bd = {r["category"]: r for r in pair["breakdown"]}
want(bd["Kernel"]["change_ns"] > 40e6 and bd["Memcpy"]["change_ns"] > 10e6, "breakdown shift")
want(len(pair["kernels"]) == pair["kernels_total"] > 50, "kernels matched")
for s in (sb, sn):
    want(s["verdict"]["direction"] == "none" and s["verdict"]["ci_low_pct"] <= 0 <= s["verdict"]["ci_high_pct"],
         "self verdict %s" % s["verdict"])
    want(s["added_removed"] == [] and all(r["change_ns"] == 0 for r in s["kernels"]), "self deltas")
for e in errors:
    print("FAIL:", e)
sys.exit(1 if errors else 0)
PY
    failed=$((failed + 1))
fi

for gate_rc in "40 1" "60 0"; do
    set -- $gate_rc
    ran=$((ran + 1))
    "$exe" diff --fail-if-slower "$1" "$base" "$new" >/dev/null
    rc=$?
    [ $rc -eq "$2" ] || { echo "FAIL: --fail-if-slower $1 exits $rc, want $2"; failed=$((failed + 1)); }
done
finish
