#!/usr/bin/env python3
"""Anchor: `gpuscope idle --hta --format json` agrees with HTA (Holistic Trace Analysis) to
TOLERANCE_PP percentage points on the shared traces: the temporal breakdown per rank (idle,
compute, non-compute shares of the GPU window) and the per-stream idle breakdown (host-wait,
kernel-wait, other shares of the stream's idle time). The expected values were produced by
tests/anchors/hta_expected.py with HTA itself (tests/anchors/README-hta.md).

Deviations where HTA is wrong on purpose-worthy grounds are listed in EXCEPTIONS, each with its
reason (doc/idle.md explains them); the tolerance is never loosened for them.

usage: check_hta_anchor.py GPUSCOPE [--traces DIR] [--verbose]
Exit 0 when all agree, 1 otherwise, 77 (skip) when the shared traces are absent."""
import json
import os
import subprocess
import sys

TOLERANCE_PP = 0.5
HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = os.path.join(HERE, "hta_expected.json")

# (case, rank, stream or None for the temporal row, field) -> why gpuscope differs from HTA there.
EXCEPTIONS = {
}

TEMPORAL_FIELDS = ("idle_pct", "compute_pct", "non_compute_pct")
IDLE_FIELDS = ("host_wait_pct", "kernel_wait_pct", "other_pct")


def run(exe, root, files):
    paths = [os.path.join(root, f) for f in files]
    out = subprocess.run([exe, "idle", "--hta", "--gaps", "0", "--format", "json", *paths],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def compare(case, got, verbose):
    """Yields (key, ours, hta) for every compared number."""
    temporal = {r["rank"]: r for r in got["temporal"]}
    for exp in case["temporal"]:
        ours = temporal.get(exp["rank"])
        for f in TEMPORAL_FIELDS:
            yield (case["name"], exp["rank"], None, f), ours[f] if ours else None, exp[f]
    streams = {(r["rank"], r["stream"]): r for r in got["streams"]}
    for exp in case["idle"]:
        ours = streams.get((exp["rank"], exp["stream"]))
        for f in IDLE_FIELDS:
            yield (case["name"], exp["rank"], exp["stream"], f), ours[f] if ours else None, exp[f]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    verbose = "--verbose" in sys.argv
    traces = os.path.join(HERE, "..", "..", "..", "shared", "traces")
    if "--traces" in sys.argv:
        traces = sys.argv[sys.argv.index("--traces") + 1]
        args = [a for a in args if a != traces]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    if not os.path.isdir(traces):
        print(f"skip: {traces} is absent")
        return 77
    with open(EXPECTED) as f:
        expected = json.load(f)
    failed = compared = excused = 0
    for case in expected["cases"]:
        if not all(os.path.exists(os.path.join(traces, p)) for p in case["files"]):
            print(f"skip {case['name']}: trace absent")
            continue
        got = run(args[0], traces, case["files"])
        for key, ours, hta in compare(case, got, verbose):
            compared += 1
            ok = ours is not None and abs(ours - hta) <= TOLERANCE_PP
            why = EXCEPTIONS.get(key)
            if verbose or not ok:
                print(f"{'ok  ' if ok else ('EXC ' if why else 'FAIL')} {key}: gpuscope {ours} "
                      f"HTA {hta}" + (f" ({why})" if why and not ok else ""))
            if not ok and why:
                excused += 1
            elif not ok:
                failed += 1
    print(f"{compared} values compared, {failed} differ by more than {TOLERANCE_PP} pp, "
          f"{excused} documented exceptions")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
