#!/usr/bin/env python3
"""The report's default text keeps within 120 columns, and no two rows of one of its tables read
the same once their names are cut (doc/report.md, "Width"): on every golden report, on the
generated 4- and 8-rank folders, and on real traces read in place from ../shared when it is
there (skipped otherwise).

usage: check_report_width.py GPUSCOPE [GOLDEN_DIR]"""
import glob
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.path.join(ROOT, "..", "shared")
WIDTH = 120
REAL = ["traces/param/resnet_kineto.json.gz",
        "traces/tracelens/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz",
        "traces/tracelens/h100/facebook_timesformer-base-finetuned-k400__1016002.json.gz",
        "traces/hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
        "traces/tokenomics/llama_trace_4layers0_with_annotations.json.gz",
        "gpu-captures/gpt2_train_torchprofiler_flops_stack.json.gz",
        "gpu-captures/resnet50_emit_nvtx.gst"]


def problems(name, text):
    out = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if len(line) > WIDTH:
            out.append(f"{name}:{i + 1}: {len(line)} columns: {line[:60]}...")
    # A table's rows: the lines after a header up to a blank line; a cut row is one with "…".
    block = []
    for line in lines + [""]:
        if line.strip():
            block.append(line)
            continue
        cut = [l for l in block[1:] if "…" in l]
        for dup in sorted({l for l in cut if cut.count(l) > 1}):
            out.append(f"{name}: two rows read the same: {dup[:80]}")
        block = []
    return out


def main():
    exe = sys.argv[1]
    golden = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "tests/cli/golden")
    failures = []
    for path in sorted(glob.glob(os.path.join(golden, "*report*.table"))):
        failures += problems(os.path.basename(path), open(path, encoding="utf-8").read())
    inputs = [os.path.join(ROOT, "tests/data/ranks", r) for r in ("r4", "r8")]
    inputs += [p for p in (os.path.join(SHARED, r) for r in REAL) if os.path.exists(p)]
    for path in inputs:
        text = subprocess.run([exe, "report", path], capture_output=True, text=True,
                              check=True, cwd=ROOT).stdout
        failures += problems(os.path.relpath(path, ROOT), text)
    for f in failures:
        print("FAIL", f)
    print(f"{len(inputs)} reports run, {len(failures)} problem(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
