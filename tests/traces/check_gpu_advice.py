#!/usr/bin/env python3
"""No advice the GPU cannot run, on real traces of GPUs before Ampere (doc/diagnosis.md, "What
the GPU can run"): param/resnet_kineto (GeForce RTX 2080 Ti, compute capability 7.5) and
hta/ns_resolution_trace (Tesla V100, 7.0) from ../shared/traces (GS_SHARED_TRACES overrides).
Neither GPU has bf16 or TF32 Tensor Cores, so `report` must never say bfloat16, allow_tf32 or
TF32, nor FP8; where a rule gives mixed-precision advice it is autocast float16 with GradScaler.

usage: check_gpu_advice.py GPUSCOPE
Exit 0 all passed, 1 some failed, 77 the traces folder is absent."""
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TRACES = os.environ.get("GS_SHARED_TRACES") or os.path.join(ROOT, "..", "shared", "traces")
# trace (a file or a folder of ranks' files), the compute capability its deviceProperties give
CASES = [("param/resnet_kineto.json.gz", "7.5"), ("hta/ns_resolution_trace", "7.0")]
# words no action may hold; the whole text (kernel names and all) never says the first two
NEVER = ("bfloat16", "allow_tf32", "TF32", "tf32", "FP8", "Transformer Engine")
NEVER_TEXT = NEVER[:2]
failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


def main():
    exe = sys.argv[1]
    if not os.path.isdir(TRACES):
        print(f"skip: {TRACES} is absent")
        return 77
    for rel, capability in CASES:
        path = os.path.join(TRACES, rel)
        if os.path.isdir(path):
            files = sorted(glob.glob(os.path.join(path, "*.json*")))
            path = files[0] if files else path
        if not os.path.exists(path):
            check(False, f"{rel}: missing")
            continue
        text = subprocess.run([exe, "report", path], capture_output=True, text=True)
        check(text.returncode == 0, f"{rel}: report exits 0 ({text.returncode})")
        for word in NEVER_TEXT:
            lines = [l.strip() for l in text.stdout.splitlines() if word in l]
            check(not lines, f"{rel}: report never says {word!r} {lines[:1]}")
        out = subprocess.run([exe, "report", "--format", "json", path], capture_output=True,
                             text=True)
        check(f'"compute_capability": "{capability}"' in out.stdout,
              f"{rel}: the report reads compute capability {capability}")
        diagnosis = json.loads(out.stdout)["diagnosis"][0]
        actions = [a for v in diagnosis["verdict"] for a in v["actions"]]
        for word in NEVER:
            check(not any(word in a for a in actions), f"{rel}: no JSON action says {word!r}")
        # wherever mixed precision is advised, it is the GPU's: float16 with GradScaler
        mixed = [a for a in actions if "autocast" in a]
        check(all("float16" in a and "GradScaler" in a for a in mixed),
              f"{rel}: mixed-precision advice is float16 with GradScaler {mixed}")
        classes = [v["class"] for v in diagnosis["verdict"]]
        print(f"      {rel} (compute capability {capability}): {classes}, "
              f"{len(mixed)} mixed-precision action(s)")
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
