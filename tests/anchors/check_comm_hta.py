#!/usr/bin/env python3
"""Anchor: `gpuscope comm --hta --format json` agrees with HTA (Holistic Trace Analysis) on the
shared 2-rank sets: per rank, the computation/communication overlap (HTA's
get_comm_comp_overlap, comp_comm_overlap_pctg) to TOLERANCE_PP percentage points, and the
communication kernel time (HTA's get_gpu_kernel_breakdown, summed over the rank's COMMUNICATION
kernels) to TOLERANCE_US. gpuscope's time is the union of the kernels; on these traces each rank's
NCCL kernels run on one stream, so union and sum are the same time. The expected values were
produced by tests/anchors/comm_expected.py with HTA itself (tests/anchors/README-comm.md).

usage: check_comm_hta.py GPUSCOPE [--traces DIR] [--verbose]
Exit 0 when all agree, 1 otherwise, 77 (skip) when the shared traces are absent."""
import json
import os
import subprocess
import sys

TOLERANCE_PP = 0.5
TOLERANCE_US = 1.0  # HTA rounds each kernel to whole µs; gpuscope --hta does the same
HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = os.path.join(HERE, "comm_expected.json")


def run(exe, root, files):
    paths = [os.path.join(root, f) for f in files]
    out = subprocess.run([exe, "comm", "--hta", "--format", "json", *paths],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def agree(ours, hta, tol):
    if hta is None or ours is None:  # HTA's NaN (no communication) is gpuscope's null
        return hta is None and ours is None
    return abs(ours - hta) <= tol


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
    failed = compared = 0
    for case in expected["cases"]:
        if not all(os.path.exists(os.path.join(traces, p)) for p in case["files"]):
            print(f"skip {case['name']}: trace absent")
            continue
        got = {r["rank"]: r for r in run(args[0], traces, case["files"])["ranks"]}
        for exp in case["ranks"]:
            ours = got.get(exp["rank"])
            checks = [
                ("overlap_pct", ours and ours["overlap_pct"], exp["comp_comm_overlap_pct"],
                 TOLERANCE_PP),
                ("communication_us", ours and ours["communication_ns"] / 1000.0,
                 exp["comm_kernel_sum_us"], TOLERANCE_US),
            ]
            for field, value, hta, tol in checks:
                compared += 1
                ok = ours is not None and agree(value, hta, tol)
                failed += not ok
                if verbose or not ok:
                    print(f"{'ok  ' if ok else 'FAIL'} {case['name']} rank {exp['rank']} {field}: "
                          f"gpuscope {value} HTA {hta}")
    print(f"{compared - failed} of {compared} agree (overlap within {TOLERANCE_PP} pp, "
          f"communication time within {TOLERANCE_US} us)")
    if compared == 0:
        print("skip: none of the anchor's traces is present")
        return 77
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
