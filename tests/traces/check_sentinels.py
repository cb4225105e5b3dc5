#!/usr/bin/env python3
"""No internal sentinel value in any output: every view (and report, its --explain, the memory
view's modes) in JSON and as a table, on every real capture in ../shared/gpu-captures and every
real trace in ../shared/traces (GS_GPU_CAPTURES, GS_SHARED_TRACES override). Fails on

  -1 where a step, a device or a ratio belongs (a JSON key naming one, whose value is -1; a table
     or prose line saying "Step -1", "Device -1" or "= -1"), where "-" / null means not recorded;
  a CUPTI version suffix on an API name (_v followed by 4 digits: cudaMemcpyAsync_v3020).

Runs on two cores; a minute or two for the whole set (tests.cmake runs it in the gcc build only).
usage: check_sentinels.py GPUSCOPE
Exit 0 none found, 1 some found, 77 neither folder is present."""
import concurrent.futures
import json
import os
import re
import subprocess
import sys

from shared_checks import corpus_paths

# (args before the trace, JSON too?) for each output walked.
OUTPUTS = [
    (["report"], True), (["report", "--explain"], False), (["kernels"], True), (["ops"], True),
    (["api"], True), (["memcpy"], True), (["steps"], True), (["breakdown"], True),
    (["idle"], True), (["comm"], True), (["launch"], True), (["sync"], True),
    (["memory"], True), (["memory", "--ops"], True), (["memory", "--timeline"], True),
    (["memory", "--per-step"], True), (["stragglers"], True),
]
SENTINEL_KEY = re.compile(r"step|device|pct|ratio|share|fragmentation|efficiency|occupancy|r2|"
                          r"util", re.I)
SUFFIX = re.compile(r"\b[A-Za-z]\w*_v\d{4}\b")
TEXT_SENTINEL = re.compile(r"\b(?:[Ss]tep|[Dd]evice|GPU)\s+-1\b|=\s*-1(?:\.0+)?\b")


def roots():
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    shared = os.path.normpath(os.path.join(repo, "..", "shared"))
    return [os.environ.get("GS_GPU_CAPTURES") or os.path.join(shared, "gpu-captures"),
            os.environ.get("GS_SHARED_TRACES") or os.path.join(shared, "traces")]


def walk(value, key, where, found):
    if isinstance(value, dict):
        for k, v in value.items():
            walk(v, k, where, found)
    elif isinstance(value, list):
        for v in value:
            walk(v, key, where, found)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        if value == -1 and key and SENTINEL_KEY.search(key):
            found.append(f"{where}: \"{key}\": -1")
    elif isinstance(value, str):
        m = SUFFIX.search(value)
        if m:
            found.append(f"{where}: \"{key}\": {m.group(0)}")


def check_one(exe, path, args, as_json):
    found = []
    cmd = [exe, *args, *(["--format", "json"] if as_json else []), path]
    where = f"{' '.join(args)}{' --format json' if as_json else ''} {path}"
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if out.returncode not in (0, 2):  # 2: a view that does not apply (stragglers on one rank)
        return [f"{where}: exit {out.returncode}: {out.stderr.strip()[:200]}"]
    if out.returncode == 2:
        return []
    if as_json:
        walk(json.loads(out.stdout), None, where, found)
    else:
        for line in out.stdout.splitlines():
            for pattern in (SUFFIX, TEXT_SENTINEL):
                m = pattern.search(line)
                if m:
                    found.append(f"{where}: {line.strip()[:140]}")
    return found


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    exe = sys.argv[1]
    folders = [r for r in roots() if os.path.isdir(r)]
    if not folders:
        print("skip: neither ../shared/gpu-captures nor ../shared/traces is present")
        return 77
    inputs = corpus_paths(folders)
    jobs = [(p, args, as_json) for p in inputs for args, json_too in OUTPUTS
            for as_json in ([False, True] if json_too else [False])]
    found = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for result in pool.map(lambda j: check_one(exe, *j), jobs):
            found.extend(result)
    # One line per kind of finding (the output and what was found), with a count and one file.
    kinds = {}
    for f in found:
        where, _, what = f.partition(": ")
        args = where.rsplit(" ", 1)[0]
        key = (args, re.sub(r"[\d.]+", "N", what)[:100])
        kinds.setdefault(key, [0, f])[0] += 1
    for (args, _), (count, example) in sorted(kinds.items()):
        print(f"FAIL {count:5d} x {example[:220]}")
    print(f"{len(inputs)} traces, {len(jobs)} outputs walked, {len(found)} sentinel(s) found")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
