#!/bin/bash
# gpuscope diff on real traces of one job family: HTA's own trace-diff pair in ../shared/traces
# (hta/trace_diff: the same recommendation-model training, "control" on an A100 as rank 3 of 8 and
# "test" on a V100 as rank 1 of 2, 6 ProfilerSteps each). The output must be stable (two runs
# byte-identical: the bootstrap is seeded) and sensible: the V100 run is confidently slower
# (its median step 116.7 ms against 76.7 ms: +52 %), and each trace against itself shows no change.
# The setups differ (A100 rank 3 of 8 against V100 rank 1 of 2): diff says so, --fail-if-slower 5
# refuses with exit 2 and the reason; with --force the gate trips at 40 % and not at 60 %. And a
# .gst capture against its torch.profiler twin (../shared/gpu-captures) names the collector and
# compares no CPU operators or memory instead of "CPU Exec +55117.5 %", every operator "added" and
# memory "0 B -> 7.7 GB". Skipped when ../shared/traces is absent.
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
setup = {i["item"]: i for i in pair["setup"]["items"]}
want(pair["setup"]["differs"] and setup["gpu_model"]["differs"] and setup["world_size"]["differs"],
     "setup differs: %s" % pair["setup"])
want(setup["gpu_model"]["base"] == "NVIDIA A100-PG509-200" and setup["gpu_model"]["new"] == "Tesla V100-SXM2-16GB",
     "GPU models %s" % setup["gpu_model"])
want(setup["world_size"]["base"] == "8" and setup["world_size"]["new"] == "2", "world sizes %s" % setup["world_size"])
want(not setup["collector"]["differs"] and pair["setup"]["not_compared"] == [], "same collector, all recorded")
want(not sb["setup"]["differs"] and not sn["setup"]["differs"], "a trace against itself: same setup")
for e in errors:
    print("FAIL:", e)
sys.exit(1 if errors else 0)
PY
    failed=$((failed + 1))
fi

ran=$((ran + 1))
"$exe" diff "$base" "$new" >"$tmp/setup.table"
grep -q "^  GPU model              BASE NVIDIA A100-PG509-200, NEW Tesla V100-SXM2-16GB$" "$tmp/setup.table" &&
    grep -q "^  world size             BASE 8, NEW 2$" "$tmp/setup.table" ||
    { echo "FAIL: diff does not print the setup differences"; failed=$((failed + 1)); }

ran=$((ran + 1))
"$exe" diff --fail-if-slower 5 "$base" "$new" >"$tmp/gate.table" 2>"$tmp/gate.err"
rc=$?
[ $rc -eq 2 ] && grep -q "setups differ (GPU model NVIDIA A100-PG509-200 vs Tesla V100-SXM2-16GB; world size 8 vs 2)" "$tmp/gate.err" &&
    grep -q "^gate --fail-if-slower 5: refused: the setups differ" "$tmp/gate.table" ||
    { echo "FAIL: --fail-if-slower 5 on different setups exits $rc, want 2 with the reason: $(cat "$tmp/gate.err")"; failed=$((failed + 1)); }

for gate_rc in "40 1" "60 0"; do
    set -- $gate_rc
    ran=$((ran + 1))
    "$exe" diff --force --fail-if-slower "$1" "$base" "$new" >/dev/null
    rc=$?
    [ $rc -eq "$2" ] || { echo "FAIL: --force --fail-if-slower $1 exits $rc, want $2"; failed=$((failed + 1)); }
done

captures=${GS_GPU_CAPTURES:-../shared/gpu-captures}
gst=$captures/gpt2_train.gst
twin=$captures/gpt2_train_torchprofiler.json.gz
if [ -f "$gst" ] && [ -f "$twin" ]; then
    ran=$((ran + 1))
    "$exe" diff --format json --limit 0 "$gst" "$twin" >"$tmp/twin.json"
    if ! python3 - "$tmp/twin.json" <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
errors = []
def want(cond, what):
    if not cond:
        errors.append(what)
setup = {i["item"]: i for i in d["setup"]["items"]}
want(setup["collector"]["base"] == "gpuscope run" and setup["collector"]["new"] == "torch.profiler",
     "collector %s" % setup["collector"])
want({n["category"] for n in d["setup"]["not_compared"]} == {"cpu_operators", "memory"},
     "not compared %s" % d["setup"]["not_compared"])
bd = {r["category"]: r for r in d["breakdown"]}
want(bd["CPU Exec"]["change_pct"] is None and bd["Other"]["change_ns"] is None, "CPU Exec and Other not compared: %s" % bd["CPU Exec"])
want(bd["Kernel"]["change_pct"] is not None and abs(bd["Kernel"]["change_pct"]) < 1, "kernel time compares: %s" % bd["Kernel"])
want(d["operators"] == [] and not any(r["kind"] == "operator" for r in d["added_removed"]), "no operator added or removed")
want(d["memory"] == [], "memory not compared: %s" % d["memory"][:1])
for e in errors:
    print("FAIL:", e)
sys.exit(1 if errors else 0)
PY
        failed=$((failed + 1))
    fi
    ran=$((ran + 1))
    "$exe" diff "$gst" "$twin" >"$tmp/twin.table"
    ! grep -q "55117" "$tmp/twin.table" && ! grep -q "^added   operator" "$tmp/twin.table" ||
        { echo "FAIL: gst vs torch.profiler still compares CPU Exec or operators"; failed=$((failed + 1)); }
else
    echo "skip: $captures is absent (the .gst and torch.profiler twin)"
fi
finish
