#!/usr/bin/env python3
"""`gpuscope export` on every real trace in ../shared/traces (GS_SHARED_TRACES overrides):

  chrome  the export passes tests/cli/check_chrome_json.py, and gpuscope reading it back gives the
          same `kernels` and `ops` (--format json --limit 0) and the same `report --format json`
          as the original, once "path", "file" and "format" (which name the file) are blanked;
  sqlite  the export succeeds and its tables hold as many rows as the model has events
          (report's "events" counts);
  bad     files that are not traces (NON_TRACES) are refused with exit code 3.

Prints one line per file with the export times and sizes, then a summary.
usage: check_export_traces.py GPUSCOPE [--only SUBSTRING]...
Exit 0 all passed, 1 some failed, 77 the traces folder is absent."""
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
import check_chrome_json  # noqa: E402

NON_TRACES = ["hta/execution_trace/benchmark_simple_add_et.json.gz"]
TIMEOUT_S = 300
NAMES = re.compile(r'"(path|file|format)": "[^"]*"')
# report's "events" key -> the SQL that counts the same rows.
COUNTS = {
    "kernels": "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL",
    "memcpys": "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY",
    "memsets": "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMSET",
    "gpu_syncs": "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
    "api_calls": "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME",
    "ops": "SELECT COUNT(*) FROM OPS WHERE kind = 'cpu_op'",
    "annotations": "SELECT COUNT(*) FROM OPS WHERE kind = 'user_annotation'",
    "nvtx_ranges": "SELECT COUNT(*) FROM NVTX_EVENTS",
    "python_functions": "SELECT COUNT(*) FROM OPS WHERE kind = 'python_function'",
    "gpu_annotations": "SELECT COUNT(*) FROM OPS WHERE kind = 'gpu_user_annotation'",
    "other_ranges": "SELECT COUNT(*) FROM OPS WHERE kind = 'other'",
    "instants": "SELECT COUNT(*) FROM INSTANTS",
    "memory_events": "SELECT COUNT(*) FROM MEMORY_EVENTS",
    "counters": "SELECT COUNT(*) FROM COUNTERS",
}


def traces_root():
    env = os.environ.get("GS_SHARED_TRACES")
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return env or os.path.normpath(os.path.join(repo, "..", "shared", "traces"))


def list_traces(root):
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for f in filenames:
            rel = os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/")
            if f.endswith((".json", ".json.gz")):
                found.append(rel)
    return sorted(found)


def run(*cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S)


def timed(*cmd):
    start = time.monotonic()
    p = run(*cmd)
    return p, time.monotonic() - start


def view(exe, path, *args):
    p = run(exe, *args, "--format", "json", path)
    return NAMES.sub(r'"\1": "-"', p.stdout) if p.returncode == 0 else f"exit {p.returncode}"


def check_trace(exe, path, tmp):
    """Returns (problems, summary text)."""
    out = os.path.join(tmp, "export.json")
    db = os.path.join(tmp, "export.sqlite")
    p, t_chrome = timed(exe, "export", "--format", "chrome", "-o", out, path)
    if p.returncode != 0:
        return [f"chrome export: exit {p.returncode}: {p.stderr.strip()}"], ""
    problems, _ = check_chrome_json.check_file(out)
    for args in (("kernels", "--limit", "0"), ("ops", "--limit", "0"), ("report",)):
        if view(exe, path, *args) != view(exe, out, *args):
            problems.append(f"{args[0]} differs after the round trip")
    size = os.path.getsize(out)
    p, t_sqlite = timed(exe, "export", "--format", "sqlite", "-o", db, path)
    if p.returncode != 0:
        return problems + [f"sqlite export: exit {p.returncode}: {p.stderr.strip()}"], ""
    events = json.loads(run(exe, "report", "--format", "json", path).stdout)["profile"]["events"]
    with sqlite3.connect(db) as conn:
        for key, sql in COUNTS.items():
            got = conn.execute(sql).fetchone()[0]
            if got != events[key]:
                problems.append(f"sqlite: {key} {got} rows, the model has {events[key]}")
    conn.close()
    return problems, (f"chrome {t_chrome:.2f} s {size / 1e6:.1f} MB, sqlite {t_sqlite:.2f} s "
                      f"{os.path.getsize(db) / 1e6:.1f} MB")


def main():
    args = sys.argv[1:]
    only = [args[i + 1] for i, a in enumerate(args) if a == "--only" and i + 1 < len(args)]
    positional = [a for i, a in enumerate(args) if not a.startswith("--")
                  and (i == 0 or args[i - 1] != "--only")]
    if len(positional) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    exe = os.path.abspath(positional[0])
    root = traces_root()
    if not os.path.isdir(root):
        print(f"skip: {root} is absent")
        return 77
    failed = passed = 0
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        for rel in list_traces(root):
            if only and not any(s in rel for s in only):
                continue
            path = os.path.join(root, rel)
            if rel in NON_TRACES:
                p = run(exe, "export", "-o", os.path.join(tmp, "x.json"), path)
                problems = [] if p.returncode == 3 else [f"exit {p.returncode}, want 3"]
                summary = "refused (not a trace)"
            else:
                problems, summary = check_trace(exe, path, tmp)
            print(f"{'ok  ' if not problems else 'FAIL'} {rel}: {summary}"
                  + "".join(f"\n  {m}" for m in problems[:5]), flush=True)
            failed += bool(problems)
            passed += not problems
    print(f"{passed} passed, {failed} failed ({time.monotonic() - start:.0f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
