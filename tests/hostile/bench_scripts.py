#!/usr/bin/env python3
"""The benchmark drivers of bench/ on tiny inputs, with stand-ins for the slow or absent tools:

  - bench/bench_big.sh makes its inputs (a time-shifted single trace, its .gz, a rank folder)
    under the scratch dir, runs `gpuscope report` on each and prints one row per input with
    wall, CPU and peak RSS, and keeps each report; a run over --rss-limit-mb is killed by its watchdog and shown as
    stopped (a stand-in gpuscope that touches 300 MB), and what report says it sampled is
    quoted; a bad number is a usage error (2);
  - bench/bench_load.py prints the floors `wc -l` and `zcat`, TraceLens's row (its load and its
    report, from a stand-in Python that prints tracelens_load.py's line), the ratios
    TraceLens / gpuscope, gpuscope / wc -l, gpuscope.gz / zcat, and each tool's version and
    command line;
  - bench/bench_load.sh refuses a --tracelens-src that is not a TraceLens checkout (exit 1);
  - bench/tracelens_load.py, run on a stand-in TraceLens package, times the load
    (TreePerfAnalyzer.from_file) inside the report and prints one JSON line alone on stdout.

usage: bench_scripts.py GPUSCOPE [--sanitized] [--repo DIR]   (DIR: the tree whose bench/ to test)
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ARGS = sys.argv[1:]
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if "--repo" in ARGS:
    REPO = os.path.abspath(ARGS[ARGS.index("--repo") + 1])
BENCH = os.path.join(REPO, "bench")
SOURCE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                      "data", "steps_small.json")  # a real Kineto trace, 955 events
FAILS = []


def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + (f": {detail}" if detail and not ok else ""))
    if not ok:
        FAILS.append(name)


def run(cmd, **kw):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kw)
    except FileNotFoundError as e:  # a script this tree lacks: every check on it fails
        return subprocess.CompletedProcess(cmd, 127, "", str(e))


def table_rows(out):
    """{first cell: [cells]} of the markdown table rows in out."""
    rows = {}
    for ln in out.splitlines():
        if ln.startswith("| ") and not ln.startswith("|---"):
            cells = [c.strip() for c in ln.strip("|").split("|")]
            rows.setdefault(cells[0], []).append(cells)
    return rows


def write_exe(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o755)
    return path


HOG = """#!/usr/bin/env python3
import sys, time
if sys.argv[1:] == ["--version"]:
    print("hog 1")
    sys.exit(0)
print("report: sampled 3 of 9 ranks (stand-in)", flush=True)
hog = bytearray(300 << 20)
for i in range(0, len(hog), 4096):
    hog[i] = 1
time.sleep(20)
"""

# A stand-in for the TraceLens venv's Python: prints what tracelens_load.py prints.
FAKE_TL_PYTHON = """#!/bin/sh
echo "TraceLens progress line" >&2
echo '{"output": "xlsx", "load_s": 0.5, "report_s": 2.0, "sheets": 7, "import_s": 0.4, "events": 955, "tracelens": "0.1.0", "pandas": "9.9", "python": "3.11.7"}'
"""

# A stand-in TraceLens package: from_file takes 0.2 s, the report 0.3 s more and prints.
FAKE_TRACELENS = {
    "TraceLens/__init__.py": """
import time
class TreePerfAnalyzer:
    def __init__(self):
        self.tree = type("Tree", (), {"events": [1, 2, 3]})()
    @classmethod
    def from_file(cls, profile_filepath, **kw):
        time.sleep(0.2)
        return cls()
""",
    "TraceLens/Reporting/__init__.py": """
from .generate_perf_report_pytorch import generate_perf_report_pytorch
""",
    "TraceLens/Reporting/generate_perf_report_pytorch.py": """
import time
from TraceLens import TreePerfAnalyzer
def generate_perf_report_pytorch(profile_json_path, output_xlsx_path=None, output_csvs_dir=None):
    TreePerfAnalyzer.from_file(profile_filepath=profile_json_path)
    time.sleep(0.3)
    print("DataFrames successfully written")
    return {"a": 1, "b": 2}
""",
}


def check_bench_big(tmp, gpuscope):
    scratch = os.path.join(tmp, "scratch")
    base = [os.path.join(BENCH, "bench_big.sh"), "--scratch", scratch, "--target-mb", "1",
            "--ranks", "3", "--source", SOURCE]
    p = run(base + ["--gpuscope", gpuscope])
    check("bench_big.sh measures the three inputs", p.returncode == 0,
          f"exit {p.returncode}: {p.stderr[-600:]}")
    rows = table_rows(p.stdout)
    for label in ("single trace .json", "single trace .json.gz", "3-rank folder"):
        cells = (rows.get(label) or [[]])[0]
        ok = (len(cells) == 6 and cells[1] == "1" and cells[5] == "ok"
              and float(cells[2]) >= 0 and int(cells[4]) > 0)
        check(f"bench_big.sh row '{label}': 1 run, ok, a peak RSS", ok, str(cells))
    try:
        meta = json.load(open(os.path.join(scratch, "big", "big1m.json.meta.json")))
    except OSError:
        meta = {"events": None}
    # 1 MB from a 0.2 MB source: 5 copies of its 940 timed events, its 15 metadata events once
    check("the single trace is copies of the source",
          meta.get("copies") == 5 and meta["events"] == 5 * 940 + 15, str(meta))
    check("its input line says the events", f"{5 * 940 + 15:,} events" in p.stdout, p.stdout[:600])
    kept = os.path.join(scratch, "big", "report.3-rank_folder.txt")
    check("the folder's report is kept", os.path.isfile(kept) and "Verdict" in open(kept).read(),
          kept)
    ranks_dir = os.path.join(scratch, "big", "ranks3")
    ranks = sorted(os.listdir(ranks_dir)) if os.path.isdir(ranks_dir) else []
    check("the rank folder holds 3 gzipped ranks", ranks == [f"rank-{r}.json.gz" for r in range(3)],
          str(ranks))
    check("the input line says the ranks",
          re.search(r"ranks3: 3 ranks, .* 955 events per rank", p.stdout) is not None, p.stdout[:800])

    hog = write_exe(os.path.join(tmp, "hog"), HOG)
    p = run(base + ["--gpuscope", hog, "--rss-limit-mb", "100", "--only", "ranks"])
    cells = (table_rows(p.stdout).get("3-rank folder") or [[]])[0]
    check("a run over --rss-limit-mb is stopped and said", p.returncode == 0 and len(cells) == 6
          and cells[5] == "stopped>100MB" and int(cells[4]) >= 100 and float(cells[2]) < 15,
          f"exit {p.returncode}, {cells}, {p.stderr[-300:]}")
    check("what report said it sampled is quoted",
          "3-rank folder: report: sampled 3 of 9 ranks (stand-in)" in p.stdout, p.stdout[-600:])
    check("--only single leaves out the ranks", "single trace" not in p.stdout, p.stdout[-600:])

    p = run(base + ["--gpuscope", gpuscope, "--ranks", "0"])
    check("--ranks 0 is a usage error", p.returncode == 2 and "positive whole number" in p.stderr,
          f"exit {p.returncode}: {p.stderr[-300:]}")


def check_bench_load(tmp, gpuscope):
    trace = os.path.join(tmp, "t.json")
    with open(SOURCE, "rb") as f, open(trace, "wb") as o:
        o.write(f.read())
    subprocess.run(["gzip", "-k", trace], check=True)
    fake = write_exe(os.path.join(tmp, "tl-python"), FAKE_TL_PYTHON)
    p = run([sys.executable, os.path.join(BENCH, "bench_load.py"), "--gpuscope", gpuscope,
             "--input", trace, "--gz", "-r", "1", "-R", "0", "-T", "1",
             "--tracelens-python", fake, "--tracelens-source", "source: /src/TraceLens"])
    check("bench_load.py runs with TraceLens", p.returncode == 0,
          f"exit {p.returncode}: {p.stderr[-600:]}")
    rows = table_rows(p.stdout)
    for tool in ("floor: wc -l", "floor: zcat > /dev/null", "gpuscope report"):
        check(f"row '{tool}'", tool in rows and rows[tool][0][2] == "1", str(rows.get(tool)))
    tl = rows.get("TraceLens load + report", [])
    check("TraceLens rows on .json and .json.gz with load and report",
          [c[1] for c in tl] == [".json", ".json.gz"]
          and all(c[3].startswith("0.50 load, 2.00 report (") for c in tl), str(tl))
    for what, label in (("**TraceLens / gpuscope**", ".json"), ("**gpuscope / wc -l**", ".json"),
                        ("**gpuscope.gz / zcat**", ".json.gz")):
        r = rows.get(what, [])
        check(f"ratio {what} on {label}", any(c[1] == label and re.fullmatch(
            r"\*\*[0-9.]+x\*\* time", c[3]) for c in r), str(r))
    for needle in ("- wc: wc (GNU coreutils)", "`wc -l FILE`", "- zcat: ", "`zcat FILE.gz > /dev/null`",
                   "- TraceLens: 0.1.0 from source: /src/TraceLens",
                   f"`{fake} {os.path.join(BENCH, 'tracelens_load.py')} FILE`",
                   f"`{gpuscope} report FILE > /dev/null`"):
        check(f"versions and commands say {needle!r}", needle in p.stdout, p.stdout[-1500:])

    p = run([os.path.join(BENCH, "bench_load.sh"), "--gpuscope", gpuscope, "-R", "0",
             "--tracelens-src", os.path.join(tmp, "no-such-checkout"),
             "--scratch", os.path.join(tmp, "scratch-load")])
    check("bench_load.sh refuses a --tracelens-src that is no checkout",
          p.returncode == 1 and "not a TraceLens checkout" in p.stderr,
          f"exit {p.returncode}: {p.stderr[-400:]}")


def check_tracelens_load(tmp):
    pkg = os.path.join(tmp, "fake-tracelens")
    for rel, text in FAKE_TRACELENS.items():
        os.makedirs(os.path.dirname(os.path.join(pkg, rel)), exist_ok=True)
        with open(os.path.join(pkg, rel), "w") as f:
            f.write(text)
    env = dict(os.environ, PYTHONPATH=pkg)
    p = run([sys.executable, os.path.join(BENCH, "tracelens_load.py"), SOURCE], env=env)
    lines = p.stdout.splitlines()
    try:
        r = json.loads(lines[-1]) if len(lines) == 1 else {}
    except ValueError:
        r = {}
    check("tracelens_load.py prints one JSON line alone on stdout", p.returncode == 0 and r != {},
          f"exit {p.returncode}, stdout {p.stdout!r}, stderr {p.stderr[-400:]}")
    check("its load is from_file's time, its report the whole call",
          0.2 <= r.get("load_s", 0) < 0.5 and 0.5 <= r.get("report_s", 0) < 1.5
          and r.get("events") == 3 and r.get("sheets") == 2 and r.get("output") == "xlsx", str(r))
    check("TraceLens's own output goes to stderr", "DataFrames successfully written" in p.stderr,
          p.stderr[-300:])


def main():
    if not ARGS or not os.access(ARGS[0], os.X_OK):
        print(__doc__, file=sys.stderr)
        return 2
    gpuscope = os.path.abspath(ARGS[0])
    with tempfile.TemporaryDirectory(prefix="gs-bench-scripts-") as tmp:
        check_bench_big(tmp, gpuscope)
        check_bench_load(tmp, gpuscope)
        check_tracelens_load(tmp)
    print(f"{len(FAILS)} failed" if FAILS else "all passed")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
