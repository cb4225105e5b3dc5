#!/usr/bin/env python3
"""Check a window captured on demand (tests/gpu/run_gpu_tests.sh): exactly STEPS steps, kernels
in it, and no kernel outside the window's steps.

    check_window.py --gpuscope BIN --trace WINDOW.gst --steps N

The window's steps are its ProfilerStep#i ranges (`gpuscope steps --format json`); its kernels
come from the Chrome export (`gpuscope export --format chrome`). A kernel is inside when it
overlaps [first step's start, last step's end] (a kernel launched by the last step may run past
its host end: allowed up to 50 ms). Exit 0 when every check holds, 1 otherwise.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile


def run_json(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpuscope", required=True)
    ap.add_argument("--trace", required=True)
    ap.add_argument("--steps", type=int, required=True)
    a = ap.parse_args()
    bad = []
    view = run_json([a.gpuscope, "steps", a.trace, "--format", "json"])["traces"][0]
    found = view["steps"] + view["warmup_steps"]  # a first slow step may be called warm-up
    if found != a.steps:
        bad.append(f"{found} steps in the window, want {a.steps}")
    with tempfile.TemporaryDirectory() as tmp:
        chrome = os.path.join(tmp, "w.json")
        subprocess.run([a.gpuscope, "export", a.trace, "--format", "chrome", "-o", chrome],
                       check=True, capture_output=True)
        with open(chrome) as f:
            events = json.load(f)
    events = events["traceEvents"] if isinstance(events, dict) else events
    kernels = [e for e in events if e.get("cat") == "kernel" and e.get("ph") == "X"]
    step_ranges = [e for e in events if e.get("ph") == "X" and
                   str(e.get("name", "")).startswith("ProfilerStep#")]
    if not kernels:
        bad.append("no kernel in the window")
    if step_ranges:
        lo = min(e["ts"] for e in step_ranges)
        hi = max(e["ts"] + e["dur"] for e in step_ranges) + 50000  # us
        outside = [k for k in kernels if k["ts"] + k.get("dur", 0) <= lo or k["ts"] >= hi]
        if outside:
            bad.append(f"{len(outside)} of {len(kernels)} kernels lie outside the window's steps "
                       f"(first: {outside[0]['name']} at {outside[0]['ts']} us)")
    for line in bad:
        print("FAIL", line)
    print(f"window: {found} steps, {len(kernels)} kernels" + ("" if bad else ": ok"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
