#!/bin/bash
# Model FLOPs and MFU on the real GPT-2 capture (../shared/gpu-captures, H100, torch.profiler with
# record_shapes and with_flops; PyTorch 2.11 writes no flops values, so shapes are the source):
# the GEMM and attention FLOPs per step against the model's analytical count, the MFU printed
# with the peak it used, the ops columns. Skipped (77) when the capture is absent.
set -u
exe=${1:?usage: test_flops.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
root=${GS_SHARED_CAPTURES:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/gpu-captures}
trace=$root/gpt2_train_torchprofiler_flops_stack.json.gz
[ -f "$trace" ] || { echo "skip: no $trace (set GS_SHARED_CAPTURES)"; exit 77; }
fail=0
"$exe" report --format json "$trace" >/tmp/gs_flops_$$.json || fail=1
python3 - /tmp/gs_flops_$$.json <<'PY' || fail=1
import json, sys
c = json.load(open(sys.argv[1]))["diagnosis"][0]["compute"]
# GPT-2 small shape as the trace records it: 12 layers, width 768 (12 heads of 64), sequence
# 512, batch 8, vocabulary 50257 (the LM head a matmul of its own).
L, D, S, B, V, H = 12, 768, 512, 8, 50257, 12
tokens = B * S
# per layer: qkv 768x2304, proj 768x768, fc 768x3072, fc2 3072x768 = 12 D^2; plus the LM head
matmul_params = L * 12 * D * D + D * V
gemm = 6 * matmul_params * tokens            # forward 2 N T, backward 4 N T
# SDPA forward 4 B H S^2 (D/H), backward 2.5 x (torch/utils/flop_counter.py)
attention = L * 3.5 * 4 * B * H * S * S * (D // H)
ok = True
for key, want in (("gemm_flops", gemm), ("attention_flops", attention)):
    got = c[key]
    err = abs(got - want) / want
    print(f"{key}: {got:.6g} vs analytical {want:.6g} ({100 * err:.3f} %)")
    ok &= err < 0.02
ok &= c["dtype"] == "bf16" and c["peak_model"] == "H100 SXM" and c["peak_tflops"] == 989.4
ok &= abs(c["mfu"] - c["tflops"] / 989.4) < 1e-4 and 0 < c["mfu"] < 1
print("mfu", c["mfu"], "tflops", c["tflops"], "tc_share", c["tc_share"])
sys.exit(0 if ok else 1)
PY
rm -f /tmp/gs_flops_$$.json
# the text line names the peak it used
# (read as one line: the report wraps its sentences within 120 columns)
"$exe" report "$trace" | tr '\n' ' ' | tr -s ' ' |
    grep -q "MFU [0-9.]* % of the H100 SXM's dense bf16 peak, 989.4 TFLOP/s" ||
    { echo "FAIL: report's MFU line"; fail=1; }
# ops: aten::mm's FLOPs are the sum of its calls' 2 M N K
"$exe" ops --format json --sort flops --limit 1 "$trace" | python3 -c '
import json, sys
row = json.load(sys.stdin)["rows"][0]
assert row["name"] == "aten::mm" and row["flops"] > 0 and row["tflops"] > 0, row
' || { echo "FAIL: ops FLOPs columns"; fail=1; }
[ $fail = 0 ] && echo "test_flops: ok"
exit $fail
