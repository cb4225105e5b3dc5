#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_diff (tests/fuzz/corpus/diff/): pairs of small traces, BASE and
NEW, joined by the line the target splits at. Every trace is made by the project: the diff pair of
tests/gen/gen_diff_pair.py (4 steps), tests/gen/gen_trace.py in two dialects, the kineto and .gst
seeds, and traces written here with no kernels, no operators or no events at all, so that the
comparison sees a side without each kind of activity.

    python3 tests/fuzz/make_diff_seeds.py      # from the source root
"""
import json
import os
import subprocess
import sys
import tempfile

OUT = "tests/fuzz/corpus/diff"
SEPARATOR = b"\n--gpuscope-diff-new--\n"


def trace(events):
    return json.dumps({"schemaVersion": 1, "traceEvents": events,
                       "baseTimeNanoseconds": 1700000000000000000}).encode()


def step(n, ts, dur):
    return {"ph": "X", "cat": "user_annotation", "name": f"ProfilerStep#{n}", "pid": 1, "tid": 1,
            "ts": ts, "dur": dur}


def op(name, ts, dur):
    return {"ph": "X", "cat": "cpu_op", "name": name, "pid": 1, "tid": 1, "ts": ts, "dur": dur}


def kernel(name, ts, dur, corr):
    return {"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 7, "ts": ts, "dur": dur,
            "args": {"device": 0, "stream": 7, "correlation": corr, "grid": [4, 1, 1],
                     "block": [128, 1, 1]}}


def cpu_only(scale):
    """Four steps of operators and no GPU activity: the kernel side of the diff is empty."""
    events = []
    for n in range(4):
        t = 100 + n * 100
        events += [step(n + 1, t, 90), op("aten::mm", t + 5, 40 * scale),
                   op("aten::relu", t + 50, 10)]
    return trace(events)


def kernels_only(scale):
    """Four steps of kernels without operators or runtime calls: the operator side is empty."""
    events = []
    for n in range(4):
        t = 100 + n * 100
        events += [step(n + 1, t, 90), kernel("gemm", t + 10, 30 * scale, n + 1)]
    return trace(events)


def run(*cmd):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE).stdout


def main():
    os.makedirs(OUT, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        run(sys.executable, "tests/gen/gen_diff_pair.py", "-o", tmp, "--steps", "4")
        with open(os.path.join(tmp, "base.json"), "rb") as f:
            pair_base = f.read()
        with open(os.path.join(tmp, "new.json"), "rb") as f:
            pair_new = f.read()
    gen = [sys.executable, "tests/gen/gen_trace.py"]
    # One modern step is 70 kB: the pair stays under the run's -max_len of 131072.
    modern = run(*gen, "--steps", "1", "--dialect", "modern", "--trace-name", "a.json")
    legacy = run(*gen, "--steps", "3", "--dialect", "legacy", "--seed", "2")
    with open("tests/fuzz/corpus/kineto/modern.json", "rb") as f:
        small = f.read()
    with open("tests/fuzz/corpus/gst/one_chunk.gst", "rb") as f:
        gst = f.read()
    empty = trace([])
    pairs = {
        "pair.seed": (pair_base, pair_new),
        "gen_modern_legacy.seed": (modern, legacy),
        "small_gst.seed": (small, gst),
        "no_kernels.seed": (cpu_only(1), cpu_only(2)),
        "no_operators.seed": (kernels_only(1), kernels_only(2)),
        "kernels_vs_operators.seed": (kernels_only(1), cpu_only(1)),
        "empty_vs_small.seed": (empty, small),
    }
    for name, (base, new) in pairs.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(base + SEPARATOR + new)


if __name__ == "__main__":
    main()
