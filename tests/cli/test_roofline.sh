#!/bin/bash
# ops --roofline on the real GPT-2 capture (../shared/gpu-captures, H100, torch.profiler with
# record_shapes; GPT-2 small: 12 layers, width 768, sequence 512, batch 8, vocabulary 50257, bf16
# autocast): every GEMM's FLOPs and bytes against a count by hand from the model's linear layers,
# and the roofs of an H100 SXM. Skipped (77) when the capture is absent.
set -u
exe=${1:?usage: test_roofline.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
root=${GS_SHARED_CAPTURES:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/gpu-captures}
trace=$root/gpt2_train_torchprofiler_flops_stack.json.gz
[ -f "$trace" ] || { echo "skip: no $trace (set GS_SHARED_CAPTURES)"; exit 77; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$exe" ops --roofline --group-by-shape --format json "$trace" >"$out" || exit 1
python3 - "$out" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
rows = doc["rows"]
assert doc["gpu_model"] == "H100 SXM", doc["gpu_model"]
T, D, V, L, STEPS = 8 * 512, 768, 50257, 12, 3
# Each linear layer (in, out) runs three GEMMs a step: the forward T x in @ in x out (with its
# bias, an addmm), the input's gradient T x out @ out x in and the weight's in x T @ T x out;
# all three are 2 T in out FLOPs and read and write T in + in out + T out bf16 elements.
linears = {(D, 3 * D): L, (D, D): L, (D, 4 * D): L, (4 * D, D): L, (D, V): 1}
calls = {layer: 0 for layer in linears}
fail = 0
for r in rows:
    if r["class"] != "gemm":
        continue
    a, b = json.loads(r["input_dims"])[-2:] if r["name"] == "aten::mm" else json.loads(r["input_dims"])[1:3]
    m, k, n = a[0], a[1], b[1]
    # the forward (an addmm) is T x in @ in x out; a gradient's shapes are a permutation of
    # (T, in, out), the same for the MLP's two layers, whose calls are counted together
    forward = r["name"] == "aten::addmm"
    layer = (k, n) if forward and m == T and (k, n) in linears else next(
        (l for l in linears if sorted((m, k, n)) == sorted((T, *l))), None)
    if layer is None:
        print("FAIL: a GEMM of no linear layer:", r["name"], r["input_dims"]); fail = 1; continue
    i, o = layer
    bias = 2 * o if forward else 0
    want_flops, want_bytes = 2 * T * i * o, 2 * (T * i + i * o + T * o) + bias
    per_flops, per_bytes = r["flops"] / r["calls"], r["bytes"] / r["calls"]
    if per_flops != want_flops or per_bytes != want_bytes or r["dtype"] != "bf16":
        print(f"FAIL: {r['name']} {r['input_dims']}: {per_flops:.0f} FLOPs {per_bytes:.0f} B per call,"
              f" hand count {want_flops} {want_bytes}"); fail = 1
    if r["peak_tflops"] != 989.4 or r["peak_tbps"] != 3.35:
        print("FAIL: roofs", r["peak_tflops"], r["peak_tbps"]); fail = 1
    want_bound = "compute" if want_flops / want_bytes >= 989.4 / 3.35 else "memory"
    if r["bound"] not in (want_bound, "latency"):
        print("FAIL: bound", r["name"], r["input_dims"], r["bound"], want_bound); fail = 1
    calls[layer] += r["calls"]
calls[(D, 4 * D)] += calls.pop((4 * D, D))
linears[(D, 4 * D)] += linears.pop((4 * D, D))
for layer, n in linears.items():
    if calls[layer] != 3 * n * STEPS:
        print(f"FAIL: linear {layer}: {calls[layer]} GEMM calls, want {3 * n * STEPS}"); fail = 1
print("GEMM calls per linear layer:", calls)
sys.exit(fail)
PY
rc=$?
# the bounds of the ten operators with the most GPU time, as doc/roofline.md states them
"$exe" ops --roofline --limit 10 --format json "$trace" >"$out" || rc=1
python3 - "$out" <<'PY' || rc=1
import json, sys
rows = {r["name"]: r for r in json.load(open(sys.argv[1]))["rows"]}
want = {"aten::mm": ("compute", 552), "aten::addmm": ("compute", 505),
        "aten::_cudnn_attention_backward": ("compute", 320), "aten::mul": ("memory", 0.12),
        "aten::add": ("memory", 0.11), "aten::add_": ("memory", 0.13),
        "aten::copy_": ("memory", 0), "aten::_log_softmax": ("memory", 0.38),
        "aten::_log_softmax_backward_data": ("memory", 0.50), "aten::_fused_adamw_": (None, None)}
assert set(rows) == set(want), sorted(rows)
for name, (bound, intensity) in want.items():
    r = rows[name]
    assert r["bound"] == bound, (name, r["bound"])
    assert intensity is None or abs(r["intensity"] - intensity) <= 0.01 * max(intensity, 1), (name, r["intensity"])
PY
# whatif's roof_target: the largest group's GPU work at half its roof, its time x share / 0.5
"$exe" ops --roofline --limit 1 --format json "$trace" >"$out.ops" || rc=1
"$exe" whatif --action roof_target --format json "$trace" >"$out" || rc=1
python3 - "$out.ops" "$out" <<'PY' || rc=1
import json, sys
top = json.load(open(sys.argv[1]))["rows"][0]
change = json.load(open(sys.argv[2]))["ranks"][0]["alone"][0]["change"]
scale = top["roof_pct"] / 100 / 0.5
assert top["name"] == "aten::mm" and 0 < scale < 1, top
assert abs(change["gpu_after_ns"] - scale * change["gpu_before_ns"]) <= 0.002 * change["gpu_before_ns"], (change, scale)
assert abs(change["gpu_before_ns"] - top["gpu_ns"] / 3) <= 0.001 * top["gpu_ns"], (change, top["gpu_ns"])
PY
rm -f "$out.ops"
# kernels --roofline: the LM head's GEMMs (each call launches one kernel) under their kernels'
# names, with their operator's count; the view does not mix with --ncu
"$exe" kernels --roofline --format json "$trace" >"$out" || rc=1
python3 - "$out" <<'PY' || rc=1
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
head = [r for r in rows if r["operator"] == "aten::mm" and r["flops"] == r["calls"] * 2 * 4096 * 768 * 50257]
assert len(head) >= 1 and sum(r["calls"] for r in head) == 9, [(r["name"], r["calls"]) for r in head]
assert all(r["class"] == "gemm" and r["bytes"] == r["calls"] * 2 * (4096 * 768 + 768 * 50257 + 4096 * 50257) for r in head), head
PY
"$exe" kernels --roofline --ncu /dev/null "$trace" >/dev/null 2>&1
[ $? = 2 ] || { echo "FAIL: kernels --roofline --ncu is not a usage error"; rc=1; }
[ $rc = 0 ] && echo "test_roofline: ok"
exit $rc
