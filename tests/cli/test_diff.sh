#!/bin/bash
# gpuscope diff on traces with known differences: tests/data/diff/{base,new}.json, written by
# tests/gen/gen_diff_pair.py (NEW's GEMM kernel is slower, so NEW's median step is 19.7 % longer;
# a Triton kernel renamed with the same launch shape; one kernel and operator removed, one added;
# 500 MB more memory at the peak), checked against the generator's answers.json; a trace against
# itself; .gst against itself and against Kineto JSON (setups that differ: what is not compared,
# the gate refused); different collectors over the same GPU work (the verdict on the GPU work, the
# step-time change set against the collectors' own cost); the CI gate's exit codes; usage errors.
#
#   bash tests/cli/test_diff.sh path/to/gpuscope            # run from the source root
#   GS_UPDATE_GOLDEN=1 bash tests/cli/test_diff.sh ...       # rewrite the goldens (then review!)
set -u
exe=${1:?usage: test_diff.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
golden=tests/cli/golden
data=tests/data/diff
base=$data/base.json
new=$data/new.json
gst=tests/data/gst/sample.gst
source tests/cli/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The committed pair is what the generator writes.
ran=$((ran + 1))
python3 tests/gen/gen_diff_pair.py -o "$tmp/gen"
for f in base.json new.json answers.json; do
    if ! cmp -s "$tmp/gen/$f" "$data/$f"; then
        echo "FAIL: tests/gen/gen_diff_pair.py no longer writes $data/$f"
        failed=$((failed + 1))
    fi
done

check_golden diff-pair.table diff "$base" "$new"
check_golden diff-pair.json diff --format json "$base" "$new"
check_golden diff-pair-limit-2.csv diff --format csv --limit 2 "$base" "$new"
check_golden diff-keep-warmup-limit-1.table diff --keep-warmup --limit 1 "$base" "$new"
check_golden diff-self.table diff "$base" "$base"
check_golden diff-gst.table diff "$gst" "$gst"
check_golden diff-cross.table diff --limit 3 "$base" "$gst"

# check_exit WANT ARGS...: gpuscope ARGS exits WANT and prints the report on stdout.
check_exit() {
    local want=$1 out rc
    shift
    ran=$((ran + 1))
    out=$("$exe" "$@" 2>&1)
    rc=$?
    if [ $rc -ne "$want" ] || ! grep -q '^gate --fail-if-slower' <<<"$out"; then
        echo "FAIL '$*': exit $rc (want $want)"
        echo "$out" | head -20
        failed=$((failed + 1))
    fi
}
# The interval of the slowdown is 18.2-20.3 %: confidently more than 10 %, not more than 30 %.
check_exit 1 diff --fail-if-slower 10 "$base" "$new"
check_exit 1 diff --fail-if-slower 18 "$base" "$new"
check_exit 0 diff --fail-if-slower 19 "$base" "$new"
check_exit 0 diff --fail-if-slower 30 "$base" "$new"
# NEW faster, or the same trace twice: no gate trips, even at 0 %.
check_exit 0 diff --fail-if-slower 0 "$new" "$base"
check_exit 0 diff --fail-if-slower 1 "$base" "$base"
# A .gst capture against a torch.profiler trace: the setups differ (collector, world size, whose
# memory records), so the gate refuses to judge (exit 2) unless --force; then one step on the .gst
# side (no ProfilerStep) gives no interval, and the gate passes.
check_exit 2 diff --fail-if-slower 0 "$gst" "$base"
check_exit 0 diff --force --fail-if-slower 0 "$gst" "$base"
ran=$((ran + 1))
"$exe" diff --fail-if-slower 0 "$gst" "$base" 2>&1 >/dev/null |
    grep -q "setups differ (world size 2 vs 1; collector gpuscope run vs torch.profiler; memory records CUDA's allocations vs PyTorch's allocator)" ||
    { echo "FAIL: the refused gate does not say why"; failed=$((failed + 1)); }

# The numbers against the generator's answers, and the self-diff's interval around 0.
"$exe" diff --format json --limit 0 "$base" "$new" >"$tmp/pair.json"
"$exe" diff --format json "$base" "$base" >"$tmp/self.json"
"$exe" diff --format json "$new" "$base" >"$tmp/reverse.json"
ran=$((ran + 1))
if ! python3 - "$data/answers.json" "$tmp/pair.json" "$tmp/self.json" "$tmp/reverse.json" <<'PY'; then
import json, sys
ans, pair, self_, rev = (json.load(open(p)) for p in sys.argv[1:])
errors = []
def want(cond, what):
    if not cond:
        errors.append(what)
row = pair["step_time"][0]
want(row["base_med_ns"] == ans["base"]["median_ns"], "base median %s" % row["base_med_ns"])
want(row["new_med_ns"] == ans["new"]["median_ns"], "new median %s" % row["new_med_ns"])
want(row["change_ns"] == ans["change_ns"], "change_ns")
want(abs(row["change_pct"] - ans["change_pct"]) <= 0.005 and abs(pair["verdict"]["change_pct"] - ans["change_pct"]) <= 0.0005, "change_pct %s" % row["change_pct"])
want(row["base_steps"] == len(ans["base"]["steps"]) == 15, "kept steps")
v = pair["verdict"]
want(v["direction"] == "slower" and v["ci_low_pct"] > 10 and v["ci_high_pct"] < 30,
     "verdict %s" % v)
want(v["ci_low_pct"] <= v["change_pct"] <= v["ci_high_pct"], "point inside its interval")
want(v["p_value"] < 0.001 and row["p_exact"] == "yes", "p-value %s" % v["p_value"])
want(v["text"].startswith("NEW is 19.7 % slower (95 % CI "), v["text"])
k = pair["kernels"]
want(k[0]["name"].startswith("sm90_xmma_gemm") and k[0]["match"] == "name", "top kernel %s" % k[0]["name"])
gemm = ans["new"]["kernels"][k[0]["name"]]["total_ns"] / 15 - ans["base"]["kernels"][k[0]["name"]]["total_ns"] / 15
want(abs(k[0]["change_ns"] - gemm) <= 1, "gemm change %s vs %s" % (k[0]["change_ns"], gemm))
shape = [r for r in k if r["match"] == "shape"]
want(len(shape) == 1 and shape[0]["base_name"] == "triton_poi_fused_add_0"
     and shape[0]["name"] == "triton_poi_fused_add_1", "shape match %s" % shape)
only = {(r["change"], r["kind"], r["name"]) for r in pair["added_removed"]}
want(only == {("removed", "kernel", "void fused_dropout_kernel<float>"),
              ("added", "kernel", "void layer_norm_kernel<float>"),
              ("removed", "operator", "aten::dropout"), ("added", "operator", "aten::layer_norm")},
     "added/removed %s" % only)
m = pair["memory"][0]
want(m["base_peak_allocated"] == ans["base"]["peak_allocated"] and
     m["new_peak_allocated"] == ans["new"]["peak_allocated"] and
     m["reserved_change"] == 500 * 10**6, "memory %s" % m)
sv = self_["verdict"]
want(sv["direction"] == "none" and sv["change_pct"] == 0 and sv["ci_low_pct"] < 0 < sv["ci_high_pct"]
     and sv["p_value"] == 1, "self verdict %s" % sv)
want(all(r["change_ns"] == 0 for r in self_["kernels"] + self_["operators"]), "self deltas")
want(self_["added_removed"] == [], "self added/removed")
rv = rev["verdict"]
want(rv["direction"] == "faster" and rv["ci_high_pct"] < -10, "reverse verdict %s" % rv)
for e in errors:
    print("FAIL:", e)
sys.exit(1 if errors else 0)
PY
    failed=$((failed + 1))
fi

# Different collectors, the same GPU work (tests/gen/gen_diff_pair.py --pair collectors: NEW
# under record_shapes and with_stack, whose Python events hold each step back by what they cost):
# the verdict rests on the GPU work, the same, and the step-time change is the collectors' cost.
# Then that NEW against the changed NEW above, whose GEMM is slower: GPU work 19 % more, and a
# step-time change the collectors' cost does not explain.
python3 tests/gen/gen_diff_pair.py --pair collectors -o "$tmp/coll"
"$exe" diff --format json "$tmp/coll/base.json" "$tmp/coll/new.json" >"$tmp/coll.json"
"$exe" diff --format json "$tmp/coll/new.json" "$new" >"$tmp/coll-gemm.json"
"$exe" diff "$tmp/coll/base.json" "$tmp/coll/new.json" >"$tmp/coll.table"
ran=$((ran + 1))
if ! python3 - "$tmp/coll/answers.json" "$tmp/coll.json" "$tmp/coll-gemm.json" "$tmp/coll.table" <<'PY'; then
import json, sys
ans, same, gemm = (json.load(open(p)) for p in sys.argv[1:4])
table = open(sys.argv[4]).read()
errors = []
def want(cond, what):
    if not cond:
        errors.append(what)
b, n = ans["base"], ans["new"]
v, g, c = same["verdict"], same.get("gpu_work", {}), same.get("collectors", {})
row = same["step_time"][0]
want(row["change_ns"] == ans["change_ns"] and row["significant"] == "yes", "step row %s" % row)
want(same["setup"]["differs"] and c.get("differ"), "collectors differ %s" % c)
want(v.get("basis") == "gpu_work" and v.get("direction") == "none", "verdict %s" % v)
want(g.get("base_med_ns", 0) == b["gpu_work_median_ns"] and g.get("new_med_ns", 0) == n["gpu_work_median_ns"],
     "gpu work medians %s" % g)
want(g.get("ci_low_pct", 0) < 0 < g.get("ci_high_pct", 0) and v.get("change_pct") == g.get("change_pct", 0), "gpu interval %s" % g)
want(c.get("base") == c.get("new") == "torch.profiler", "collector names %s" % c)
want(c.get("base_own_ns", 0) == b["own_per_step_ns"] and c.get("new_own_ns", 0) == n["own_per_step_ns"],
     "own cost %s vs %s, %s" % (c, b["own_per_step_ns"], n["own_per_step_ns"]))
own = n["own_per_step_ns"] - b["own_per_step_ns"]
want(c.get("own_change_ns", 0) == own and c.get("explains_step_change") is True
     and c.get("unexplained_ns", 0) == ans["change_ns"] - own, "attribution %s" % c)
want(v["text"].startswith("GPU work per step: the same within ") and
     "the step-time change (NEW +15.4 %) is within what the collectors' own cost explains: "
     "BASE 35.25 \u00b5s vs NEW 1.335 ms per step (estimated)" in v["text"], v["text"])
want("NEW is 15.4 % slower" not in table and v["text"] in table, "table verdict")
want("  own host time          BASE 35.25 \u00b5s, NEW 1.335 ms per kept step" in table, "own host time line")
v, g, c = gemm["verdict"], gemm.get("gpu_work", {}), gemm.get("collectors", {})
step = gemm["step_time"][0]["change_ns"]
want(v.get("basis") == "gpu_work" and v.get("direction") == "slower" and 18 < g.get("change_pct", 0) < 21
     and g.get("ci_low_pct", 0) > 15, "gemm gpu work %s" % g)
want(c.get("explains_step_change") is False and c.get("unexplained_ns", 0) == step - c.get("own_change_ns", 0)
     and c.get("own_change_ns", 0) == -own, "gemm attribution %s" % c)
want(v["text"].startswith("NEW has 19.") and "is not what the collectors' own cost explains" in v["text"],
     v["text"])
for e in errors:
    print("FAIL:", e)
sys.exit(1 if errors else 0)
PY
    failed=$((failed + 1))
fi
# Same collectors: the verdict rests on the step time, as before.
ran=$((ran + 1))
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(d["verdict"].get("basis") != "step_time" or d.get("collectors", {}).get("differ", True))' "$tmp/pair.json" ||
    { echo "FAIL: same collectors judged on GPU work"; failed=$((failed + 1)); }

# The same output every run: the bootstrap's seed is fixed.
ran=$((ran + 1))
"$exe" diff --format json --limit 0 "$base" "$new" | cmp -s - "$tmp/pair.json" ||
    { echo "FAIL: two runs differ"; failed=$((failed + 1)); }

check_error 2 diff "$base"
check_error 2 diff "$base" "$new" "$new"
check_error 2 diff --fail-if-slower 2.5 "$base" "$new"
check_error 2 diff --fail-if-slower 1001 "$base" "$new"
check_error 2 diff --fail-if-slower "$base" "$new"
check_error 2 diff --sort total "$base" "$new"
check_error 2 diff --format xml "$base" "$new"
check_error 2 diff --rank 5 "$base" "$new"
check_error 3 diff "$base" "$tmp/missing.json"
printf '{"traceEvents": [' >"$tmp/cut.json"
check_error 3 diff "$tmp/cut.json" "$new"
finish
