#!/usr/bin/env python3
"""The report's default text keeps within 120 columns, no two rows of one of its tables read
the same once their names are cut, and no two cut names of its Top kernels and Top operators
tables (one row per name) read the same (doc/report.md, "Width"): on every golden report, on the
generated 4- and 8-rank folders, and on every real trace and capture read in place from ../shared
when it is there (skipped otherwise).

usage: check_report_width.py GPUSCOPE [GOLDEN_DIR]"""
import concurrent.futures
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.path.join(ROOT, "..", "shared")
sys.path.insert(0, os.path.join(ROOT, "tests", "traces"))
from shared_checks import corpus_paths  # noqa: E402
WIDTH = 120
# Tables with one row per name, whose cut names must differ (other tables may repeat a name).
NAMED_ROWS = ("Top kernels", "Top operators")


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
        if block and block[0].startswith(NAMED_ROWS):
            names = [c for l in block[2:] for c in re.split(r"  +", l.strip()) if "…" in c]
            for dup in sorted({c for c in names if names.count(c) > 1}):
                out.append(f"{name}: {block[0][:20]}: two names read the same: {dup}")
        block = []
    return out


def main():
    exe = sys.argv[1]
    golden = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "tests/cli/golden")
    failures = []
    for path in sorted(glob.glob(os.path.join(golden, "*report*.table"))):
        failures += problems(os.path.basename(path), open(path, encoding="utf-8").read())
    inputs = [os.path.join(ROOT, "tests/data/ranks", r) for r in ("r4", "r8")]
    inputs += corpus_paths([os.path.join(SHARED, "traces"), os.path.join(SHARED, "gpu-captures")])

    def report(path):
        return subprocess.run([exe, "report", path], capture_output=True, text=True,
                              check=True, cwd=ROOT).stdout

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for path, text in zip(inputs, pool.map(report, inputs)):
            failures += problems(os.path.relpath(path, ROOT), text)
    for f in failures:
        print("FAIL", f)
    print(f"{len(inputs)} reports run, {len(failures)} problem(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
