#!/usr/bin/env python3
"""Every percentage on the base printed beside it, on real traces read in place from ../shared
(exit 77 when absent): no operator's CPU total over 100 % of the profiled CPU time, on every trace
and capture there (doc/ops.md);
the profiler's own host time given as what it can lengthen the step, not as the share of a step
the GPU keeps busy (doc/diagnosis.md); the rank table's Steps are the steps the report uses
(doc/report.md).

usage: check_bases.py GPUSCOPE"""
import concurrent.futures
import csv
import io
import json
import os
import re
import subprocess
import sys

from shared_checks import corpus_paths

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TRACES = os.path.join(ROOT, "..", "shared", "traces")

QWEN = "tracelens/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz"
RESNET = "param/resnet_kineto.json.gz"
CAPTURES = os.path.join(ROOT, "..", "shared", "gpu-captures")
# Host-side verdicts from which the profiler's host time is taken off (doc/diagnosis.md).
HEADLINE_TRACES = [os.path.join(CAPTURES, "gpt2_train_torchprofiler_flops_stack.json.gz"),
                   os.path.join(CAPTURES, "resnet50_emit_nvtx.gst"),
                   os.path.join(TRACES, RESNET)]
UNITS = {"ns": 1e-6, "µs": 1e-3, "ms": 1.0, "s": 1e3}


def run(exe, *args):
    return subprocess.run([exe, *args], capture_output=True, text=True, check=True).stdout


def ops_problems(exe, path):
    name = os.path.relpath(path, os.path.join(ROOT, ".."))
    rows = list(csv.DictReader(io.StringIO(run(exe, "ops", "--format", "csv", path))))
    if not rows:
        return []
    out = []
    worst = max(rows, key=lambda r: float(r["CPU Total (%)"]))
    if float(worst["CPU Total (%)"]) > 100.0:
        out.append(f"{name}: {worst['Name']} CPU total {worst['CPU Total (%)']} % > 100")
    if sum(float(r["Self CPU (%)"]) for r in rows) > 100.05:
        out.append(f"{name}: the Self CPU shares add up to more than 100 %")
    return out


def check_ops(exe, failures):
    """Every trace and capture: a step that holds far more than its operators' self time read
    105-150 % of it; an annotation entered twice inside itself, 115 %."""
    paths = corpus_paths([TRACES, CAPTURES])
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for problems in pool.map(lambda p: ops_problems(exe, p), paths):
            failures += problems
    print(f"ops: {len(paths)} traces")


def check_profiler_line(exe, failures):
    """Qwen's GPU is 90 % busy: its profiler estimate, capped at the step, is 100 % of it, but
    what it can lengthen the step by is the GPU-idle part, about 10 %."""
    path = os.path.join(TRACES, QWEN)
    text = re.sub(r"\n {4,}", " ", run(exe, "report", path))  # its sentences, unwrapped
    line = next((l for l in text.splitlines()
                 if "the profiler's own host time" in l and l.startswith("rank")), "")
    m = re.search(r"lengthen the (\S+ \S+) step by at most (\S+ \S+) \(([\d.]+) %\)", line)
    if not m:
        failures.append(f"qwen: no 'can lengthen the step by at most' in: {line!r}")
        return
    d = json.loads(run(exe, "report", "--format", "json", path))["diagnosis"][0]
    ctx, step = d["context"], d["steps"]["mean_ns"]
    pct = 100.0 * ctx["profiler_lengthens_ns"] / step
    if not 5.0 <= float(m.group(3)) <= 15.0 or abs(pct - float(m.group(3))) > 0.05:
        failures.append(f"qwen: lengthening {m.group(3)} % (JSON {pct:.2f} %), want about 10 %")
    if "100.0 % of the step" in line:
        failures.append("qwen: the profiler's host time still reads 100 % of the step")


def ms(number, unit):
    return float(number) * UNITS[unit]


def check_headlines(exe, failures):
    """Each verdict headline's share is of the step it names: the mean step the Steps section
    prints, or the step it prints itself (the step less the profiler's host time)."""
    for path in HEADLINE_TRACES:
        if not os.path.exists(path):
            continue
        text = run(exe, "report", path)
        mean = re.search(r"^  mean ([\d.]+) (\S+)", text, re.M)
        for m in re.finditer(r"([\d.]+) (\S+) per step at stake, ([\d.]+) % of the "
                             r"(?:([\d.]+) (\S+) )?step", text):
            step = ms(*m.group(4, 5)) if m.group(4) else ms(*mean.groups())
            want = 100.0 * ms(*m.group(1, 2)) / step
            if abs(want - float(m.group(3))) > 0.1:
                failures.append(f"{os.path.basename(path)}: '{m.group(0)}': "
                                f"{m.group(1)} {m.group(2)} is {want:.1f} % of that step")


def check_rank_steps(exe, failures):
    """ResNet has no ProfilerStep#N range: its 30 steps are detected, and the rank table says so."""
    text = run(exe, "report", os.path.join(TRACES, RESNET))
    lines = text.splitlines()
    head = next((i for i, l in enumerate(lines) if l.startswith("Rank  Format")), None)
    cells = lines[head + 1].split() if head is not None else []
    if cells[4:6] != ["30", "detected"]:
        failures.append(f"resnet: rank table steps {cells[4:6]}, want ['30', 'detected']")


def main():
    exe = sys.argv[1]
    if not os.path.isdir(TRACES):
        print("skipped: ../shared/traces is absent")
        return 77
    failures = []
    check_ops(exe, failures)
    check_profiler_line(exe, failures)
    check_rank_steps(exe, failures)
    check_headlines(exe, failures)
    for f in failures:
        print("FAIL", f)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
