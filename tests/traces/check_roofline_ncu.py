#!/usr/bin/env python3
"""gpuscope's estimated FLOPs and bytes per kernel against Nsight Compute's measurement, on the
H100 captures in ../shared/gpu-captures (GS_GPU_CAPTURES overrides): `gpuscope kernels --ncu`
joins each kernel of ncu/ncu_gpt_raw.csv and ncu/ncu_gpt_details.csv with
gpt2_train_torchprofiler_flops_stack.json.gz, and of ncu/ncu_resnet_details.csv with the two
ResNet-50 captures. What doc/roofline.md's table "Against Nsight Compute" says is checked row by
row:

  hand      the estimate is the count by hand from the GPT-2 model's shapes (M = 8 x 512 tokens,
            768 wide, MLP 3072, QKV 2304, 12 heads of 64, bf16 GEMMs and attention, fp32 layer
            norm): 2 M K N FLOPs for a GEMM, its operands and bias read once and its output
            written once; for the layer norm 5 FLOPs per element and 6 per channel (TraceLens's
            formula), its input, weight and bias read and its output, mean and rstd written;
  flops     ncu's FLOPs (SASS counts plus the tensor pipe's work) within 20 % of the estimate
            for the GEMMs; for the causal attention, the tensor pipe's FLOPs within 2 % of the
            tiles the kernel computes (20 of the 32 64x128 tiles of each head's 512 x 512 scores,
            the diagonal's tiles whole), which is why it misses a count of the useful work;
            for the layer norm, 5.5 to 7.5 x the estimate: the kernel's Welford statistics,
            reciprocal square root and affine step are about 30 FP32 operations per element;
  reads     ncu's DRAM bytes within 20 % of the bytes the kernel reads (ncu flushes the caches
            before each profiled launch, so the inputs come from DRAM) and at most the whole
            estimate: the output is still in the 50 MB L2 when the kernel ends, written back
            later; except the 25 MB output of the MLP's first GEMM (ID 3), half of which is
            evicted to DRAM during the kernel: between the reads and the estimate;
  details   the details pages have no FLOP counts (unknown, not 0), and their bytes (Memory
            Throughput x Duration) are within 20 % of the reads as above (GPT-2);
  resnet    the ResNet-50 kernels are not estimated: resnet50_unmodified.gst records no
            operators, and resnet50_emit_nvtx.gst's launching operators no shapes or types;
            the batch-norm statistics kernels' DRAM bytes are within 20 % of their input read
            once (32 x C x 56 x 56 bf16, C = grid.x).

With --markdown, prints the table for doc/roofline.md instead of checking.

usage: check_roofline_ncu.py GPUSCOPE [--markdown]
Exit 0 all passed, 1 some failed, 77 the captures are absent."""
import json
import os
import subprocess
import sys

from shared_checks import captures_root, check, failures

GPT = "gpt2_train_torchprofiler_flops_stack.json.gz"
RESNETS = ("resnet50_emit_nvtx.gst", "resnet50_unmodified.gst")
M = 8 * 512
BF16, FP32 = 2, 4


def gemm(k, n):
    """(kind, FLOPs, bytes read, bytes written) of the M x k by k x n GEMM with its bias."""
    return ("GEMM", 2 * M * k * n, (M * k + k * n + n) * BF16, M * n * BF16)


QKV = 3 * M * 768 * BF16
HAND = {
    0: ("attention", 4 * 8 * 12 * 512 * 512 * 64, QKV, M * 768 * BF16),
    1: gemm(768, 768),
    # TraceLens's Normalization.flops_func (training): 5 per element and 6 per channel
    2: ("layer norm", 5 * M * 768 + 6 * 768, M * 768 * FP32 + 2 * 768 * FP32,
        M * 768 * FP32 + 2 * M * FP32),
    3: gemm(768, 3072),
    4: gemm(3072, 768),
    6: gemm(768, 2304),
}
HAND[5] = HAND[9] = HAND[2]
HAND[7] = HAND[0]
HAND[8] = HAND[1]
ATTENTION_TILE_FLOPS = HAND[0][1] * 20 // 32
PARTIAL_WRITE_BACK = {3}
# ResNet-50's batch-norm statistics (IDs of ncu_resnet_details.csv): one block per channel
# (grid.x), over a batch of 32 bf16 maps of 56 x 56 (the first stage's), read once.
RESNET_BN_STATS = {1: 256, 4: 64, 7: 64}


def kernels(exe, export, trace):
    out = subprocess.run([exe, "kernels", "--ncu", export, trace, "--format", "json"],
                         capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        raise SystemExit(f"gpuscope kernels --ncu {export} {trace}: {out.stderr.strip()}")
    return json.loads(out.stdout)["ncu_kernels"]


def within(got, want, tol):
    return got is not None and want and abs(got / want - 1) <= tol


def check_gpt_row(page, r):
    i = r["id"]
    kind, flops, reads, writes = HAND[i]
    where = f"{page} ID {i} ({kind})"
    check(r["match"] != "unmatched", f"{where}: joined with the trace's kernels")
    if kind == "layer norm":
        check(r.get("est_flops") == flops and r.get("est_bytes") == reads + writes,
              f"{where}: estimated FLOPs {r.get('est_flops')} and bytes {r.get('est_bytes')} are "
              f"the hand count {flops}, {reads + writes}")
    else:
        check(r.get("est_flops") == flops or (kind == "attention" and r.get("est_flops") == flops // 2),
              f"{where}: estimated FLOPs {r.get('est_flops')} are the hand count {flops}")
        check(r.get("est_bytes") == reads + writes,
              f"{where}: estimated bytes {r.get('est_bytes')} are the hand count {reads + writes}")
    measured = r.get("dram_bytes")
    check(within(measured, reads, 0.20) or (i in PARTIAL_WRITE_BACK and measured is not None and reads < measured),
          f"{where}: DRAM bytes {measured} within 20 % of the reads {reads}"
          + (" or above them" if i in PARTIAL_WRITE_BACK else ""))
    check(measured is not None and measured <= 1.05 * (reads + writes),
          f"{where}: DRAM bytes {measured} at most the reads and writes {reads + writes}")
    if page == "ncu_gpt_details.csv":
        check(r.get("dram_bytes_from") == "memory throughput" and r.get("ncu_flops") is None,
              f"{where}: bytes from the memory throughput, FLOPs unknown")
        return
    check(r.get("dram_bytes_from") == "dram rate", f"{where}: bytes from the DRAM rate")
    if kind == "GEMM":
        check(within(r.get("ncu_flops"), flops, 0.20) and r.get("flops_ratio") is not None,
              f"{where}: ncu FLOPs {r.get('ncu_flops')} within 20 % of {flops}")
    elif kind == "layer norm":
        # The miss explained in doc/roofline.md: the kernel's Welford mean and variance, the
        # reciprocal square root and the affine step execute about 6 x the model's 5 FLOPs per
        # element on the FP32 units.
        check(5.5 <= (r.get("flops_ratio") or 0) <= 7.5,
              f"{where}: ncu FLOPs / estimate {r.get('flops_ratio')} is the explained 6.3")
    elif kind == "attention":
        check(within(r.get("ncu_tensor_flops"), ATTENTION_TILE_FLOPS, 0.02),
              f"{where}: tensor FLOPs {r.get('ncu_tensor_flops')} within 2 % of the tiles' "
              f"{ATTENTION_TILE_FLOPS}")


def ratio(a, b):
    return f"{a / b:.3f}" if a is not None and b else "-"


def num(v, scale):
    return f"{v / scale:,.2f}" if v is not None else "-"


def markdown(rows):
    print("| export | ID | kernel | est. GFLOP | ncu GFLOP | ratio | est. MB | reads MB | "
          "ncu DRAM MB | DRAM / est. | DRAM / reads |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for page, r in rows:
        hand = HAND.get(r["id"]) if page.startswith("ncu_gpt") else None
        reads = hand[2] if hand else None
        print(f"| {page} | {r['id']} | {hand[0] if hand else r['name'][:40]} | "
              f"{num(r.get('est_flops'), 1e9)} | {num(r.get('ncu_flops'), 1e9)} | "
              f"{ratio(r.get('ncu_flops'), r.get('est_flops'))} | {num(r.get('est_bytes'), 1e6)} | "
              f"{num(reads, 1e6)} | {num(r.get('dram_bytes'), 1e6)} | "
              f"{ratio(r.get('dram_bytes'), r.get('est_bytes'))} | {ratio(r.get('dram_bytes'), reads)} |")


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    exe, root = sys.argv[1], captures_root()
    gpt = os.path.join(root, GPT)
    if not os.path.exists(gpt) or not os.path.isdir(os.path.join(root, "ncu")):
        print(f"skipped: no {GPT} or ncu/ in {root}")
        return 77
    rows = []
    for page in ("ncu_gpt_raw.csv", "ncu_gpt_details.csv"):
        rows += [(page, r) for r in kernels(exe, os.path.join(root, "ncu", page), gpt)]
    for capture in RESNETS:
        rows += [(f"ncu_resnet_details.csv, {capture}", r) for r in
                 kernels(exe, os.path.join(root, "ncu", "ncu_resnet_details.csv"),
                         os.path.join(root, capture))]
    if "--markdown" in sys.argv:
        markdown(rows)
        return 0
    for page, r in rows:
        if page.startswith("ncu_gpt"):
            check_gpt_row(page, r)
            continue
        where = f"{page} ID {r['id']}"
        check(r["match"] != "unmatched" and r.get("est_flops") is None and
              r.get("est_bytes") is None and r.get("ncu_flops") is None and
              r.get("dram_bytes_from") == "memory throughput" and r.get("dram_bytes", 0) > 0,
              f"{where}: joined, not estimated, DRAM bytes from the memory throughput, FLOPs "
              "unknown")
        if r["id"] in RESNET_BN_STATS:
            reads = 32 * RESNET_BN_STATS[r["id"]] * 56 * 56 * BF16
            check(r["grid"] == [RESNET_BN_STATS[r["id"]], 1, 1] and
                  within(r.get("dram_bytes"), reads, 0.20),
                  f"{where}: DRAM bytes {r.get('dram_bytes')} within 20 % of the input {reads}")
    check(len(rows) == 10 + 10 + 8 + 8, f"every kernel of the exports listed ({len(rows)})")
    print(f"{len(failures)} failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
