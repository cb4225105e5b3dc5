#!/usr/bin/env python3
"""Load one trace with AMD's TraceLens, make its standard report, print the times.

Run it with the Python of the venv that has TraceLens (bench_load.sh makes one):
    tracelens_load.py [--csv] TRACE.json[.gz]

The report is what TraceLens's README gives as the way to analyse an eager
PyTorch trace, `TraceLens_generate_perf_report_pytorch --profile_json_path
TRACE`: the same function, generate_perf_report_pytorch(), with its defaults,
writing the Excel workbook (or, with --csv, one CSV per sheet) into a
temporary directory that is removed afterwards. Inside it, the trace load is
TreePerfAnalyzer.from_file() (read the JSON, build the event tree); it is timed
on its own by wrapping that call, so one run gives both numbers.

TraceLens's own output goes to stderr; the single result line goes to stdout:
    {"import_s": ..., "load_s": ..., "report_s": ..., "events": ..., "tracelens": "<version>", ...}
where report_s is the whole generate_perf_report_pytorch() call (load included)
and events the number of events in TraceLens's tree. On a MemoryError (the
driver may cap the address space) it prints {"error": "MemoryError", ...} and
exits 3.
"""

import contextlib
import importlib
import json
import os
import shutil
import sys
import tempfile
import time


def version_of(dist):
    try:
        from importlib.metadata import version

        return version(dist)
    except Exception:
        return "unknown"


def main():
    args = sys.argv[1:]
    csv = "--csv" in args
    args = [a for a in args if a != "--csv"]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    trace = os.path.abspath(args[0])
    if not os.path.isfile(trace):
        print(f"tracelens_load.py: {trace}: no such file", file=sys.stderr)
        return 2

    os.environ.setdefault("MPLBACKEND", "Agg")  # TraceLens imports matplotlib
    t0 = time.monotonic()
    from TraceLens import TreePerfAnalyzer
    # the module, not the function of the same name that TraceLens.Reporting exports
    report_mod = importlib.import_module("TraceLens.Reporting.generate_perf_report_pytorch")
    t1 = time.monotonic()

    loaded = {}
    from_file = TreePerfAnalyzer.from_file

    def timed_from_file(*a, **k):
        start = time.monotonic()
        analyzer = from_file(*a, **k)
        loaded["load_s"] = time.monotonic() - start
        loaded["analyzer"] = analyzer
        return analyzer

    # the report module calls TreePerfAnalyzer.from_file through the class
    TreePerfAnalyzer.from_file = staticmethod(timed_from_file)

    out_dir = tempfile.mkdtemp(prefix="tracelens-report-")
    out = {"output_csvs_dir": out_dir} if csv else {
        "output_xlsx_path": os.path.join(out_dir, "perf_report.xlsx")}
    result = {"output": "csv" if csv else "xlsx"}
    rc = 0
    try:
        with contextlib.redirect_stdout(sys.stderr):  # its progress lines are not the result
            t2 = time.monotonic()
            sheets = report_mod.generate_perf_report_pytorch(profile_json_path=trace, **out)
            t3 = time.monotonic()
        result.update(load_s=round(loaded.get("load_s", float("nan")), 3),
                      report_s=round(t3 - t2, 3), sheets=len(sheets))
    except MemoryError:
        result["error"] = "MemoryError"
        rc = 3
    finally:
        shutil.rmtree(out_dir, ignore_errors=True)

    events = 0
    try:  # only informative; never fail the measurement on it
        events = len(loaded["analyzer"].tree.events)
    except Exception:
        pass
    result.update(import_s=round(t1 - t0, 3), events=events,
                  tracelens=version_of("TraceLens"), pandas=version_of("pandas"),
                  python=sys.version.split()[0])
    print(json.dumps(result), flush=True)
    return rc


if __name__ == "__main__":
    sys.exit(main())
