"""Hostile cases for the report's roofline (doc/roofline.md, "In the report"): .gsum files whose
roofline sections are out of range, enormous, infinite or named with markup and terminal escapes
(run by tests/hostile/test_hostile.py)."""

import json
import os
import re

from hostile_case import Case, E

ROWS = 20000  # a summary keeps 24: the rest must not reach the page


def row(name, **kw):
    r = {"name": name, "class": 4, "dtype": 5, "bound": 1, "calls": 1, "gpu_ns": 1000,
         "modelled_ns": 1000, "flops": 1e3, "bytes": 1e4, "intensity": 0.1, "tflops": 0.5,
         "tbps": 1, "peak_tflops": 67, "roof_tflops": 0.335, "roof_share": 0.3}
    r.update(kw)
    return r


def gsum(tmp, name, rows, **roof):
    totals = {"groups": len(rows), "gpu_ns": 100000, "modelled_ns": 100000, "unmodelled_ns": 0,
              "peak_tbps": 3.35, "fp32_tflops": 67, "tensor_core_tflops": 989.4,
              "tensor_core_dtype": 5}
    totals.update(roof)
    d = {"format": "gpuscope-rank-summary", "version": 1, "minor": 7,
         "rank": {"path": "a.json", "rank": 0, "format": "kineto"},
         "roofline": totals, "roofline_rows": rows}
    path = os.path.join(tmp, name)
    with open(path, "w") as f:  # JSON has no infinity: 1e999 reads as one
        f.write(json.dumps(d).replace("Infinity", "1e999"))
    return path


def extreme(tmp):
    """An infinite intensity, 1e308 TFLOP/s, a negative GPU time and a name with markup and a
    terminal escape first, then 20 000 ordinary groups, and an infinite bandwidth."""
    first = row("<script>alert(1)</script>\x1b[31m", bound=2, gpu_ns=-5, flops=1e308,
                intensity=float("inf"), tflops=1e308, roof_share=1e308)
    return gsum(tmp, "extreme.gsum", [first] + [row("op%d" % i) for i in range(ROWS)],
                peak_tbps=float("inf"))


def bad_bound(tmp):
    return gsum(tmp, "bad_bound.gsum", [row("aten::mul", bound=9)])


def page_checks(tmp):
    page = open(os.path.join(tmp, "extreme.gsum.html"), encoding="utf-8").read()
    problems = []
    if re.search(r"<script", page):
        problems.append("a name's markup reached the page unescaped")
    points = len(re.findall(r'<circle class="roofpt ', page))
    if points != 23:  # rows 1..23 of the 24 kept: the first is off the axes
        problems.append("%d points on the chart, expected 23" % points)
    if "nan" in page or "inf\"" in page:
        problems.append("a coordinate is not a number")
    return problems


def cases():
    return [
        Case("report of a .gsum whose roofline row has bound 9", bad_bound, ["report", "{}"], 3,
             E % r"[^ ]*bad_bound\.gsum" + r"byte [0-9]+: \"bound\" has a value of the wrong "
             r"type or out of range\n"),
        Case("report --html of a .gsum with an infinite roofline, 20 001 groups and markup",
             extreme, ["report", "--html", "{}.html", "{}"], 0,
             r"gpuscope: wrote [^ ]*extreme\.gsum\.html \([0-9.]+ kB\)\n", secs=5, mb=80,
             after=page_checks),
        Case("report of the same: the text line cleaned of the escape", extreme, ["report", "{}"],
             0, r"", secs=5, mb=80,
             out=r"(?s).*rank 0: roofline, 100 % of operator GPU time modelled; "
                 r"<script>alert\(1\)</script>\ufffd\[31m -0 % of it.*"),
    ]
