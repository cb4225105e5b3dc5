#!/usr/bin/env python3
"""What the name rules (doc/name_rules.md) make of real traces, where a substring read letters
instead of words: the H100 captures in ../shared/gpu-captures (GS_GPU_CAPTURES overrides) and the
traces in ../shared/traces (GS_SHARED_TRACES overrides).

  lambda   compile_reduce_overhead.gst and shift_equivariant_vit/trace.json.gz have no backward or
           optimizer kernel: PyTorch's `{lambda()#1}` kernels are not the LAMB optimizer, so the
           report's facts say inference, with 0 optimizer events;
  conv     gpt2_train_torchprofiler.json.gz (a transformer) has no convolution: cuDNN's
           `cudnn::fusion::convert_dq_to_16bits` and its SDPA `..._flash_fprop_...` kernels are
           not convolutions, so the rank summary's conv_share is 0.

Usage: check_name_rules.py GPUSCOPE. Exit 77 when the shared folders are absent."""
import json
import os
import subprocess
import sys
import tempfile

failures = []


def shared(env, name):
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return os.environ.get(env) or os.path.normpath(os.path.join(repo, "..", "shared", name))


def run(exe, *args):
    out = subprocess.run([exe, *args], capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        raise RuntimeError(f"gpuscope {' '.join(args)}: exit {out.returncode}: {out.stderr}")
    return out.stdout


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


def check_lambda(exe, path):
    facts = json.loads(run(exe, "report", "--format", "json", path))["diagnosis"][0]["context"]
    name = os.path.basename(path)
    check(facts["workload"] == "inference" and facts["optimizer_events"] == 0
          and facts["backward_events"] == 0,
          f"lambda: {name}: workload {facts['workload']}, {facts['optimizer_events']} optimizer "
          f"and {facts['backward_events']} backward events (want inference, 0, 0)")


def check_conv(exe, path):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "rank0.gsum")
        run(exe, "summarize", path, "-o", out)
        with open(out, encoding="utf-8") as f:
            summary = json.load(f)
    share = summary["context"].get("conv_share")
    check(share == 0, f"conv: {os.path.basename(path)}: conv_share {share} (want 0)")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    exe = sys.argv[1]
    captures, traces = shared("GS_GPU_CAPTURES", "gpu-captures"), shared("GS_SHARED_TRACES", "traces")
    inputs = [os.path.join(captures, "compile_reduce_overhead.gst"),
              os.path.join(traces, "shift_equivariant_vit", "trace.json.gz"),
              os.path.join(captures, "gpt2_train_torchprofiler.json.gz")]
    missing = [p for p in inputs if not os.path.isfile(p)]
    if missing:
        print(f"skip: {', '.join(missing)} absent")
        return 77
    check_lambda(exe, inputs[0])
    check_lambda(exe, inputs[1])
    check_conv(exe, inputs[2])
    print(f"{len(failures)} failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
