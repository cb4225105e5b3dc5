#!/usr/bin/env python3
"""Independent cross-check of gpuscope against the real traces in ../shared/traces.

usage: check_traces.py GPUSCOPE [--only SUBSTRING]... [-v]

For every trace file (*.json, *.json.gz) under the shared traces folder (GS_SHARED_TRACES, else
../shared/traces relative to the repository root), this computes from the raw JSON with Python's
json module (numbers as decimal.Decimal, microseconds -> integer nanoseconds exactly):

  kernels: ph "X" events with cat kernel/Kernel, per name: count (exact) and sum of dur
           (within 1 ns per event)
  ops:     ph "X" events with cat cpu_op/Operator/user_annotation (every ph "X" event in the
           legacy top-level-array format), per name: calls (exact) and CPU total = sum of dur
           (within 1 ns per event)

and compares with `gpuscope kernels|ops --format json --limit 0 FILE`.  Files that are not
traces (NON_TRACES below) must be rejected with exit code 3.

Prints one line per file and a final "N passed, N failed" line.  Exit: 0 all passed, 1 some
failed, 77 the traces folder is absent (CTest SKIP_RETURN_CODE).
Python 3 standard library only.
"""

import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trace_facts  # noqa: E402

# Files in the shared folder that are not profiler traces; gpuscope must exit 3 on each.
NON_TRACES = [
    "hta/memory_analysis/memory_timeline.raw.gz",          # export_memory_timeline: [[ts, action, ...], ...]
    "hta/execution_trace/benchmark_simple_add_et.json.gz",  # PyTorch execution trace (ET), not Kineto
]

GPUSCOPE_TIMEOUT_S = 300
EXIT_BAD_INPUT = 3
MAX_DIFFS_SHOWN = 3


def traces_root():
    env = os.environ.get("GS_SHARED_TRACES")
    if env:
        return env
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return os.path.normpath(os.path.join(repo, "..", "shared", "traces"))


def list_files(root):
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for f in sorted(filenames):
            rel = os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/")
            if f.endswith(".json") or f.endswith(".json.gz") or rel in NON_TRACES:
                found.append(rel)
    return sorted(found)


class Run(object):
    """One gpuscope invocation started in the background (so it overlaps the Python parsing)."""

    def __init__(self, exe, args):
        self.args = [exe] + args
        self.proc = subprocess.Popen(self.args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.rc = None
        self.out = self.err = b""

    def wait(self):
        if self.rc is None:
            try:
                self.out, self.err = self.proc.communicate(timeout=GPUSCOPE_TIMEOUT_S)
                self.rc = self.proc.returncode
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.out, self.err = self.proc.communicate()
                self.rc = "timeout"
        return self

    def describe(self):
        msg = self.err.decode("utf-8", "replace").strip().splitlines()
        return "exit %s%s" % (self.rc, (": " + msg[-1][:200]) if msg else "")

    def rows(self, command):
        """The rows of a successful JSON answer, or raises ValueError."""
        self.wait()
        if self.rc != 0:
            raise ValueError("gpuscope %s %s" % (command, self.describe()))
        try:
            doc = json.loads(self.out.decode("utf-8"))
        except ValueError as e:
            raise ValueError("gpuscope %s: output is not JSON (%s)" % (command, e))
        if not isinstance(doc, dict) or not isinstance(doc.get("rows"), list):
            raise ValueError("gpuscope %s: no \"rows\" array in the JSON output" % command)
        if doc.get("command") not in (None, command):
            raise ValueError("gpuscope %s: \"command\" is %r" % (command, doc.get("command")))
        return doc["rows"]


def _short(name, n=70):
    name = str(name)
    return name if len(name) <= n else name[:n - 3] + "..."


def compare(what, expected, rows, count_key, gs_count_key, gs_total_key):
    """expected: name -> {count_key, total_ns}; rows: gpuscope rows. Returns a list of problems."""
    problems = []
    got = {}
    for r in rows:
        name = r.get("name")
        if name in got:
            problems.append("%s: gpuscope lists %r twice" % (what, _short(name)))
            continue
        got[name] = r
    for name in sorted(set(expected) - set(got), key=str):
        problems.append("%s: missing %r (%d events in the file)" % (what, _short(name),
                                                                      expected[name][count_key]))
    for name in sorted(set(got) - set(expected), key=str):
        problems.append("%s: gpuscope invents %r (%s %s)" % (what, _short(name), got[name].get(gs_count_key),
                                                               gs_count_key))
    for name in sorted(set(got) & set(expected), key=str):
        e, g = expected[name], got[name]
        n = e[count_key]
        if g.get(gs_count_key) != n:
            problems.append("%s %r: %s %s, file has %d" % (what, _short(name), gs_count_key,
                                                           g.get(gs_count_key), n))
            continue
        total = g.get(gs_total_key)
        if not isinstance(total, int) or abs(total - e["total_ns"]) > n:
            problems.append("%s %r: %s %s, file sums to %d ns over %d events" % (
                what, _short(name), gs_total_key, total, e["total_ns"], n))
    return problems


def check_file(exe, root, rel, verbose):
    path = os.path.join(root, rel)
    t0 = time.time()
    if rel in NON_TRACES:
        runs = [Run(exe, [cmd, "--all-steps", "--format", "json", "--limit", "0", path]).wait()
                for cmd in ("kernels", "ops")]
        bad = [r for r in runs if r.rc != EXIT_BAD_INPUT]
        if bad:
            return False, "not a trace, must exit %d: %s" % (
                EXIT_BAD_INPUT, "; ".join("%s %s" % (r.args[1], r.describe()) for r in bad))
        return True, "not a trace, rejected with exit 3 (%s)" % runs[0].describe()[len("exit 3: "):][:80]
    # the file's counts are of the whole trace; the views keep only the kept steps by default
    k_run = Run(exe, ["kernels", "--all-steps", "--format", "json", "--limit", "0", path])
    o_run = Run(exe, ["ops", "--all-steps", "--format", "json", "--limit", "0", path])
    try:
        _, events, legacy = trace_facts.load(path)
    except Exception as e:  # the file itself is unreadable to Python: not gpuscope's fault
        k_run.wait()
        o_run.wait()
        return False, "Python cannot read the file: %s" % e
    exp_k = trace_facts.kernels(events, legacy)
    exp_o = trace_facts.ops(events, legacy)
    del events
    problems = []
    try:
        problems += compare("kernel", exp_k, k_run.rows("kernels"), "count", "instances", "total_ns")
    except ValueError as e:
        problems.append(str(e))
    try:
        problems += compare("op", exp_o, o_run.rows("ops"), "calls", "calls", "cpu_total_ns")
    except ValueError as e:
        problems.append(str(e))
    nk = sum(v["count"] for v in exp_k.values())
    no = sum(v["calls"] for v in exp_o.values())
    summary = "%d kernels (%d names), %d ops (%d names)%s, %.1fs" % (
        nk, len(exp_k), no, len(exp_o), ", legacy" if legacy else "", time.time() - t0)
    if problems:
        shown = problems if verbose else problems[:MAX_DIFFS_SHOWN]
        more = "" if len(shown) == len(problems) else " (+%d more)" % (len(problems) - len(shown))
        return False, "%s; %d problem(s): %s%s" % (summary, len(problems), " | ".join(shown), more)
    return True, summary


def main(argv):
    args = list(argv[1:])
    verbose = "-v" in args
    args = [a for a in args if a != "-v"]
    only = []
    while "--only" in args:
        i = args.index("--only")
        only.append(args[i + 1])
        del args[i:i + 2]
    if len(args) != 1:
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    exe = args[0]
    root = traces_root()
    if not os.path.isdir(root):
        print("SKIP: no shared traces folder at %s (set GS_SHARED_TRACES)" % root)
        return 77
    files = list_files(root)
    if only:
        files = [f for f in files if any(o in f for o in only)]
    passed = failed = 0
    for rel in NON_TRACES:
        if not os.path.exists(os.path.join(root, rel)) and not only:
            print("FAIL %s: listed as a non-trace but absent; update NON_TRACES" % rel)
            failed += 1
    for rel in files:
        ok, msg = check_file(exe, root, rel, verbose)
        print("%s %s: %s" % ("PASS" if ok else "FAIL", rel, msg))
        sys.stdout.flush()
        if ok:
            passed += 1
        else:
            failed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
