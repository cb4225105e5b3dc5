#!/usr/bin/env python3
"""Compares `report --format json` (or `comm --format json`) on rank summaries with the same on
the traces, field by field (tests/cli/test_summary_report.sh). From summaries the report says
`"from_summaries": true` and leaves out what a .gsum does not hold (doc/report.md, "From rank
summaries"): the medians and deviations of kernel and copy durations (`med_ns`, `stddev_ns`: they
need every duration of every rank). Everything else, the GPUs, the idle gaps and the copies
table included, must be equal, number for number.

    check_summary_report.py TRACES.json SUMMARIES.json
"""
import json
import sys

# What summaries cannot give, and why: see the docstring.
UNAVAILABLE_SPREAD = ("med_ns", "stddev_ns")


def strip_traces(doc):
    if doc.get("command") != "report":
        return doc
    for table in ("kernels", "memcpy"):
        for row in doc[table]:
            for key in UNAVAILABLE_SPREAD:
                row.pop(key, None)
    return doc


def strip_summaries(doc):
    if doc.get("command") == "report" and doc.pop("from_summaries", None) is not True:
        raise SystemExit("FAIL: the report from summaries does not say from_summaries: true")
    return doc


def diff(a, b, where, out):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{where}.{k}: only in {'traces' if k in a else 'summaries'}")
            else:
                diff(a[k], b[k], f"{where}.{k}", out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{where}: {len(a)} rows on the traces, {len(b)} from summaries")
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, f"{where}[{i}]", out)
    elif a != b or type(a) is not type(b):
        out.append(f"{where}: {a!r} on the traces, {b!r} from summaries")


def main():
    with open(sys.argv[1]) as f:
        traces = strip_traces(json.load(f))
    with open(sys.argv[2]) as f:
        sums = strip_summaries(json.load(f))
    out = []
    diff(traces, sums, "$", out)
    for line in out[:20]:
        print("FAIL", line)
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main())
