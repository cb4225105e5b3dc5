#!/usr/bin/env python3
"""`gpuscope ops` FLOPs on the torch.profiler capture recorded under autocast
(gpt2_train_torchprofiler_flops_stack.json.gz in ../shared/gpu-captures; GS_GPU_CAPTURES
overrides). Autocast records each fp32 `aten::addmm` around the casts and the bf16 `aten::addmm`
that runs; each GEMM must count once. Checked against the trace's own events, computed here:

  addmm   the row's calls and FLOPs are those of the outermost aten::addmm calls (not directly
          inside an aten::addmm) that start in a kept step, 2 x M x K x N each from their shapes;
  rate    its TFLOP/s is at most the H100's dense bf16 peak (989.4 TFLOP/s: a higher rate means
          work counted twice);
  report  the GEMM rows' FLOPs (aten::mm + aten::addmm, the only GEMMs of this model) per kept
          step equal the report's GEMM FLOPs per step.

usage: check_op_flops.py GPUSCOPE
Exit 0 all passed, 1 some failed, 77 the capture is absent."""
import gzip
import json
import os
import subprocess
import sys

from shared_checks import captures_root, check, failures

NAME = "gpt2_train_torchprofiler_flops_stack.json.gz"
H100_BF16_DENSE_TFLOPS = 989.4


def run_json(exe, *args):
    out = subprocess.run([exe, *args, "--format", "json"], capture_output=True, text=True,
                         timeout=300)
    if out.returncode != 0:
        raise RuntimeError(f"gpuscope {' '.join(args)}: exit {out.returncode}: {out.stderr}")
    return json.loads(out.stdout)


def outermost_addmm(path):
    """(calls, FLOPs, kept steps) of the aten::addmm calls not directly inside an aten::addmm,
    starting inside a ProfilerStep#N range (every step is kept: the capture has no warm-up
    inside its active window)."""
    with gzip.open(path, "rt") as f:
        events = [e for e in json.load(f)["traceEvents"] if e.get("ph") == "X"]
    steps = [(e["ts"], e["ts"] + e["dur"]) for e in events
             if e.get("cat") == "user_annotation" and e["name"].startswith("ProfilerStep#")]
    threads = {}
    for e in events:
        if e.get("cat") in ("cpu_op", "user_annotation"):
            threads.setdefault((e["pid"], e["tid"]), []).append(e)
    calls, flops = 0, 0
    for ops in threads.values():
        ops.sort(key=lambda e: (e["ts"], -e["dur"]))
        stack = []
        for e in ops:
            while stack and e["ts"] + e["dur"] > stack[-1]["ts"] + stack[-1]["dur"]:
                stack.pop()
            parent = stack[-1] if stack else None
            stack.append(e)
            if e["name"] != "aten::addmm" or (parent and parent["name"] == "aten::addmm"):
                continue
            if not any(s <= e["ts"] < end for s, end in steps):
                continue
            _, (m, k), (_, n) = e["args"]["Input Dims"][:3]
            calls += 1
            flops += 2 * m * k * n
    return calls, flops, len(steps)


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__.split("\n\n")[-2] + "\n")
        return 2
    path = os.path.join(captures_root(), NAME)
    if not os.path.exists(path):
        print(f"SKIP: {path} is absent")
        return 77
    rows = {r["name"]: r for r in run_json(argv[1], "ops", path)["rows"]}
    calls, flops, nsteps = outermost_addmm(path)
    addmm = rows.get("aten::addmm", {})
    check(addmm.get("calls") == calls, f"addmm calls {addmm.get('calls')}, trace {calls}")
    check(addmm.get("flops") == flops, f"addmm FLOPs {addmm.get('flops')}, trace {flops}")
    rate = addmm.get("tflops") or 0
    check(0 < rate <= H100_BF16_DENSE_TFLOPS,
          f"addmm {rate} TFLOP/s, at most the dense bf16 peak {H100_BF16_DENSE_TFLOPS}")
    report = run_json(argv[1], "report", path)["diagnosis"][0]["compute"]
    gemm = (rows["aten::mm"]["flops"] + addmm.get("flops", 0)) / nsteps
    check(abs(gemm - report["gemm_flops"]) <= 1e-5 * report["gemm_flops"],
          f"ops GEMM FLOPs per step {gemm:.6g}, report {report['gemm_flops']:.6g}")
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
