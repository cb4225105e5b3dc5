#!/usr/bin/env python3
"""HTA (Holistic Trace Analysis) reads `gpuscope export --format chrome` and its temporal
breakdown (idle / compute / non-compute share of each rank's GPU window) is the one gpuscope
computes:

  bundled  examples/train.json.gz, tests/data/gst/sample.gst, tests/data/gen/modern.json and the
           2-rank pair tests/data/gen/rank{0,1}.json.gz: HTA on the exports vs
           `gpuscope idle --hta --format json` on the originals;
  shared   every case of tests/anchors/hta_expected.json whose traces are in ../shared/traces:
           HTA on the exports vs what HTA computed on the original files (same HTA version).

Each number must agree to TOLERANCE_PP percentage points: the rounding HTA does.

HTA is not a build dependency: the script uses the interpreter named by HTA_PYTHON, else its own,
and exits 77 (skip) when neither can import hta. Install it with
    python3 -m venv /tmp/hta-venv && /tmp/hta-venv/bin/pip install HolisticTraceAnalysis
and run HTA_PYTHON=/tmp/hta-venv/bin/python tests/anchors/check_export_hta.py build/gpuscope.

usage: check_export_hta.py GPUSCOPE [--traces DIR] [-v]
Exit 0 all agree, 1 some differ, 77 HTA not importable."""
import json
import os
import subprocess
import sys
import tempfile

TOLERANCE_PP = 0.01  # HTA rounds its shares to 0.01
FIELDS = ("idle_pct", "compute_pct", "non_compute_pct")
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BUNDLED = [
    ("train_example", ["examples/train.json.gz"]),
    ("sample.gst", ["tests/data/gst/sample.gst"]),
    ("gen/modern", ["tests/data/gen/modern.json"]),
    ("gen/rank0+1", ["tests/data/gen/rank0.json.gz", "tests/data/gen/rank1.json.gz"]),
]


def hta_worker(trace_dir):
    """Runs inside the HTA interpreter: prints HTA's temporal breakdown of trace_dir as JSON."""
    import logging
    logging.disable(logging.WARNING)
    from hta.trace_analysis import TraceAnalysis
    ta = TraceAnalysis(trace_dir=trace_dir)
    rows = []
    for _, r in ta.get_temporal_breakdown(visualize=False).iterrows():
        rows.append({"rank": int(r["rank"]), "idle_pct": float(r["idle_time_pctg"]),
                     "compute_pct": float(r["compute_time_pctg"]),
                     "non_compute_pct": float(r["non_compute_time_pctg"])})
    json.dump(rows, sys.stdout)


def hta_python():
    for exe in (os.environ.get("HTA_PYTHON"), sys.executable):
        if exe and subprocess.run([exe, "-c", "import hta.trace_analysis"],
                                  capture_output=True).returncode == 0:
            return exe
    return None


def export_case(exe, files, root, out_dir):
    """Exports each file of a case into out_dir (one file per rank, as HTA wants)."""
    for i, f in enumerate(files):
        subprocess.run([exe, "export", "--format", "chrome", "-o",
                        os.path.join(out_dir, f"trace{i}.json"), os.path.join(root, f)],
                       check=True)


def run_hta(py, trace_dir):
    out = subprocess.run([py, os.path.abspath(__file__), "--hta-worker", trace_dir],
                         check=True, capture_output=True, text=True).stdout
    return {r["rank"]: r for r in json.loads(out)}


def ours(exe, root, files):
    out = subprocess.run([exe, "idle", "--hta", "--gaps", "0", "--format", "json",
                          *[os.path.join(root, f) for f in files]],
                         check=True, capture_output=True, text=True).stdout
    return {r["rank"]: r for r in json.loads(out)["temporal"]}


def compare(name, want, got, verbose):
    """Returns (compared, failed, largest difference) for one case."""
    compared = failed = 0
    worst = 0.0
    for rank in sorted(want):
        for f in FIELDS:
            w = want[rank][f]
            g = got.get(rank, {}).get(f)
            ok = g is not None and abs(g - w) <= TOLERANCE_PP + 1e-9
            compared += 1
            failed += not ok
            if g is not None:
                worst = max(worst, abs(g - w))
            if verbose or not ok:
                print(f"{'ok  ' if ok else 'FAIL'} {name} rank {rank} {f}: expected {w} "
                      f"HTA on the export {g}")
    return compared, failed, worst


def main():
    if "--hta-worker" in sys.argv:
        hta_worker(sys.argv[sys.argv.index("--hta-worker") + 1])
        return 0
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    verbose = "-v" in sys.argv
    traces = os.path.normpath(os.path.join(REPO, "..", "shared", "traces"))
    if "--traces" in sys.argv:
        traces = sys.argv[sys.argv.index("--traces") + 1]
        args = [a for a in args if a != traces]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    exe = os.path.abspath(args[0])
    py = hta_python()
    if not py:
        print("skip: HTA is not importable (set HTA_PYTHON to a python with "
              "HolisticTraceAnalysis installed)")
        return 77
    cases = [(name, files, REPO, None) for name, files in BUNDLED]
    if os.path.isdir(traces):
        with open(os.path.join(HERE, "hta_expected.json")) as f:
            for c in json.load(f)["cases"]:
                if all(os.path.exists(os.path.join(traces, p)) for p in c["files"]):
                    cases.append((c["name"], c["files"], traces,
                                  {r["rank"]: r for r in c["temporal"]}))
    else:
        print(f"note: {traces} is absent: bundled traces only")
    total = failed = 0
    for name, files, root, expected in cases:
        want = expected if expected is not None else ours(exe, root, files)
        with tempfile.TemporaryDirectory() as tmp:
            export_case(exe, files, root, tmp)
            got = run_hta(py, tmp)
        n, bad, worst = compare(name, want, got, verbose)
        total += n
        failed += bad
        print(f"{name}: {n} values, largest difference {worst:.2f} pp "
              f"({'vs HTA on the originals' if expected else 'vs gpuscope idle --hta'})")
    print(f"{total} values compared, {failed} differ by more than {TOLERANCE_PP} pp")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
