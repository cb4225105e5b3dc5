#!/usr/bin/env python3
"""Load one trace with HTA (HolisticTraceAnalysis) and print how long the load took.

Run it with the Python of the venv that has HTA (bench_load.sh makes one):
    hta_load.py TRACE.json[.gz]

HTA reads a directory of per-rank traces, so the file is symlinked into a
temporary directory first. The load is HTA's default path:
TraceAnalysis(trace_dir=DIR) with the default parser backend; nothing else is
analysed. Plotting is disabled (plotly's Figure.show is a no-op) so nothing
opens. HTA's own log goes to stderr; the single result line goes to stdout:
    {"import_s": ..., "load_s": ..., "rows": ..., "hta": "<version>", ...}
where rows is the number of rows of HTA's trace DataFrame(s) after loading.
"""

import json
import os
import shutil
import sys
import tempfile
import time


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    trace = os.path.abspath(sys.argv[1])
    if not os.path.isfile(trace):
        print(f"hta_load.py: {trace}: no such file", file=sys.stderr)
        return 2

    os.environ.setdefault("MPLBACKEND", "Agg")
    t0 = time.monotonic()
    import plotly.graph_objects as go
    import plotly.io as pio

    go.Figure.show = lambda *a, **k: None  # never open a browser or a window
    pio.renderers.default = "json"
    from hta.trace_analysis import TraceAnalysis
    t1 = time.monotonic()

    tmp = tempfile.mkdtemp(prefix="hta-load-")
    try:
        os.symlink(trace, os.path.join(tmp, os.path.basename(trace)))
        t2 = time.monotonic()
        analyzer = TraceAnalysis(trace_dir=tmp)
        t3 = time.monotonic()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    rows = 0
    ranks = []
    try:
        ranks = sorted(analyzer.t.traces.keys())
        rows = sum(len(analyzer.t.get_trace(r)) for r in ranks)
    except Exception:  # only informative; never fail the measurement on it
        pass
    try:
        from importlib.metadata import version

        hta_version = version("HolisticTraceAnalysis")
    except Exception:
        try:
            from importlib.metadata import version

            hta_version = "traceinsight " + version("traceinsight")
        except Exception:
            hta_version = "unknown"
    import pandas

    print(json.dumps({
        "import_s": round(t1 - t0, 3),
        "load_s": round(t3 - t2, 3),
        "rows": rows,
        "ranks": ranks,
        "hta": hta_version,
        "pandas": pandas.__version__,
        "python": sys.version.split()[0],
    }), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
