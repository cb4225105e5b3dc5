#!/usr/bin/env python3
"""gpuscope on hostile and unlucky input: every case asserts the exit status, the message (one or
two lines on stderr, matched whole), a bound on wall time and one on peak memory (the process's
own maximum resident set, from wait4), and that stdout is empty when the command fails. The
inputs are made at run time (tests/hostile/hostile_inputs.py). Under the sanitizers
(--sanitized) the bounds are wider and any sanitizer report fails the case.

    python3 tests/hostile/test_hostile.py path/to/gpuscope [--sanitized] [-k NAME]
"""

import argparse
import glob
import importlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile_inputs as h  # noqa: E402
from hostile_case import Case, E, LOSS  # noqa: E402
# One module of cases per area (cases_*.py, found here), so that work on one area does not touch
# the others' lists nor this file.
AREAS = [importlib.import_module(os.path.basename(p)[:-3]) for p in
         sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases_*.py")))]

FIXTURE = "tests/data/gst/sample.gst"


def summary_of_extreme(tmp):
    """A .gsum of the extreme-times trace, written by gpuscope summarize (not measured)."""
    out = tmp + "/extreme.gsum"
    subprocess.run([os.environ["HOSTILE_EXE"], "summarize", "-o", out, h.extreme_times(tmp)],
                   check=True, capture_output=True)
    return out


def full_trace(tmp):
    """The trace a run with closed streams left has every range of nvtx_target's 'ranges'."""
    got = subprocess.run([os.environ["HOSTILE_EXE"], "ops", "--format", "csv",
                          tmp + "/closed.gst"], capture_output=True, text=True)
    calls = dict(line.split(",")[:2] for line in got.stdout.splitlines()[1:])
    want = {"outer": "1", "inner": "3", "worker": "10", "work-item": "20", "child": "2"}
    problems = [] if got.returncode == 0 else ["ops on the trace: " + got.stderr.strip()]
    problems += ["%s: %s calls, want %s" % (k, calls.get(k), v) for k, v in want.items()
                 if calls.get(k) != v]
    if b"target std" in open(tmp + "/closed.gst", "rb").read():
        problems.append("the program's output is inside the trace")
    return problems


def dangling_link(tmp):
    os.symlink(tmp + "/elsewhere.gst", tmp + "/link.gst")
    return tmp + "/link.gst"


def cases():
    loss = LOSS
    return [
        Case("empty file", lambda t: h.write(t + "/empty.json", ""), ["kernels", "{}"], 3,
             E % ".*empty.json" + "empty file\n"),
        Case("folder without traces", h.empty_folder, ["kernels", "{}"], 3,
             E % ".*no_traces" + r"no traces in this folder .*\n"),
        Case("symlink loop", h.symlink_loop, ["ops", "{}"], 3,
             E % ".*loop_a.json" + "Too many levels of symbolic links\n"),
        Case("/dev/zero", lambda t: "/dev/zero", ["kernels", "{}"], 3,
             E % "/dev/zero" + "a character device, not a trace file\n"),
        Case("FIFO nobody writes", h.fifo, ["kernels", "{}"], 3,
             E % ".*fifo.json" + "a FIFO nothing was written to in 5 s\n", secs=8),
        Case("FIFO fed a trace", lambda t: h.fifo(t, "fed.json"), ["kernels", "{}"], 0, "",
             out=r"gemm", feed=lambda: open(h.good_trace(os.environ["HOSTILE_TMP"])).read()),
        Case("sparse 4 GiB file", h.sparse_file, ["kernels", "{}"], 3,
             E % ".*sparse.json" + r"byte 0: unexpected byte 0x00: not JSON text\n"),
        Case("gzip bomb of zeros (1 GiB)", h.gzip_bomb_zeros, ["kernels", "{}"], 3,
             E % ".*zeros.json.gz" + r"byte 0: unexpected byte 0x00: not JSON text\n"),
        Case("gzip bomb of one string (1 GiB)", h.gzip_bomb_string, ["kernels", "{}"], 3,
             E % ".*string.json.gz" + r"byte [0-9]+: a single JSON value is longer than 64 MB\n",
             secs=4, mb=160),
        # Over the budget, a file is surveyed for a window of steps that fits; these events are
        # all at one time, so none is smaller than the whole: refused after the survey.
        Case("gzip bomb of 12 M valid events", h.gzip_bomb_events, ["report", "{}"], 3,
             E % ".*events.json.gz" + r"byte [0-9]+: the trace needs more memory than "
             r"GPUSCOPE_MEMORY_LIMIT allows \(64.0 MB\)\n",
             secs=15, mb=160, env={"GPUSCOPE_MEMORY_LIMIT": "64M"}),
        Case("memory limit that is not a size", h.good_trace, ["kernels", "{}"], 2,
             r"gpuscope: kernels: GPUSCOPE_MEMORY_LIMIT='lots' is not a size \(e.g. 512M, 16G, or "
             r"none\)\n",
             env={"GPUSCOPE_MEMORY_LIMIT": "lots"}),
        Case("nesting 100 000 deep", h.deep_nesting, ["ops", "{}"], 0, "", out=r"\ba\b"),
        Case("nesting 100 000 deep, never closed", lambda t: (h.deep_nesting(t),
             t + "/deep_open.json")[1], ["ops", "{}"], 3,
             E % ".*deep_open.json" + r"byte [0-9]+: input ends inside an object or array\n"),
        Case("a 70 MB name", h.huge_string, ["kernels", "{}"], 3,
             E % ".*huge.json" + r"byte [0-9]+: a single JSON value is longer than 64 MB\n",
             secs=4, mb=160),
        Case("NaN and Infinity", h.nan_infinity, ["ops", "{}"], 3,
             E % ".*nan.json" + r"byte [0-9]+: unexpected character 'N'\n"),
        Case("duplicate keys", h.duplicate_keys, ["ops", "--format", "csv", "{}"], 0, "",
             out=r"second,1,4000,57.14,4000,57.14,4000,0,,0,0,,\nthird,1,3000,42.86,3000,42.86,"
                 r"3000,0,,0,0,,\n"),
        Case("invalid UTF-8 and NUL", h.bad_utf8, ["ops", "--format", "json", "{}"], 0, "",
             out=r'"name": "bad'),
        Case("extreme times (Kineto): report", h.extreme_times, ["report", "{}"], 0,
             E % ".*extreme.json" + loss % "4 with a time out of range, 1 with a negative "
             "duration", out="events skipped"),
        Case("extreme times (.gst): ops", h.gst_extreme, ["ops", "{}"], 0,
             E % ".*extreme.gst" + loss % "2 with a time out of range, 1 with a negative duration",
             out=r"\br\b"),
    ] + [
        # every view runs its analyses on them: the ASan/UBSan build fails on any overflow
        Case("extreme numbers in every arg: " + " ".join(view), h.extreme_args,
             list(view) + ["{}"], 0, E % ".*args.json" + loss % "2 with a size out of range",
             out=r"\S")
        for view in [("report",), ("memory",), ("launch",), ("comm",), ("sync",), ("memcpy",),
                     ("idle",), ("kernels", "--by-launch"), ("ops", "--group-by-shape"),
                     ("export",)]
    ] + [
        Case("extreme numbers in every arg: export --format sqlite", h.extreme_args,
             ["export", "--format", "sqlite", "-o", "{}.sqlite", "{}"], 0,
             E % ".*args.json" + loss % "2 with a size out of range"),
        Case("durations adding up past 2^56 ns", h.too_long_in_all, ["ops", "{}"], 3,
             E % ".*long_sum.json" + r"the events' durations add up to more than 2.28 years .*\n"),
        Case("1e999 seen in report JSON", h.extreme_times, ["report", "--format", "json", "{}"],
             0, E % ".*extreme.json" + loss % "4 with a time out of range, 1 with a negative "
             "duration", out=r'"events_skipped": \{"count": 5, "time_out_of_range": 4, '
             r'"negative_duration": 1\}'),
        Case("skipped events through a rank summary", summary_of_extreme, ["report", "{}"], 0,
             E % ".*extreme.json" + loss % "4 with a time out of range, 1 with a negative "
             "duration", out=r"\n5 events skipped \(4 with a time out of range, 1 with a "
             r"negative duration\)\n"),
        Case("truncated .gst", lambda t: h.gst_truncated(t, FIXTURE), ["kernels", "{}"], 0,
             E % ".*torn.gst" + loss % "17 in a torn .gst chunk", out="ampere_sgemm"),
        Case(".gst chunk over 64 MiB", h.gst_oversized, ["kernels", "{}"], 3,
             E % ".*oversized.gst" + r"byte 40: corrupt .gst file: chunk larger than 64 MiB\n"),
        Case(".gst chunk claiming 60 MiB in 100 bytes", h.gst_huge_claim, ["kernels", "{}"], 0,
             E % ".*claim.gst" + loss % "1 in a torn .gst chunk", out="no GPU kernels"),
        Case("unreadable file", lambda t: os.chmod(h.good_trace(t, "secret.json"), 0) or
             t + "/secret.json", ["kernels", "{}"], 3,
             E % ".*secret.json" + "Permission denied\n", as_nobody=True),
        Case("read error (/proc/self/mem)", lambda t: "/proc/self/mem", ["kernels", "{}"], 3,
             E % "/proc/self/mem" + "Input/output error\n"),
        Case("run with stdout and stderr closed", lambda t: t + "/closed.gst",
             ["run", "-o", "{}", "--", "{target}", "ranges", "7"], 7, "", secs=10, mb=60,
             run=True, closed=True, after=full_trace),
        Case("run -f -o FOLDER", lambda t: t, ["run", "-f", "-o", "{}", "--", "{target}",
             "ranges", "0"], 2, r"gpuscope: -o .* is a folder: name the trace file .*\n",
             run=True),
        Case("run -o a dangling symbolic link", dangling_link,
             ["run", "-o", "{}", "--", "{target}", "ranges", "0"], 2,
             r"gpuscope: .*link.gst is a symbolic link: no trace is written through one\n",
             run=True, after=lambda t: ["the link was followed"] * os.path.exists(
                 t + "/elsewhere.gst")),
        Case("monitor log value of 4.3e20 bytes", h.monitor_huge_value,
             ["monitor", "--replay", "{}"], 3,
             r"gpuscope: monitor: .*huge.jsonl: line 1: byte [0-9]+: \"gpu_mem_used_bytes\" is "
             r"out of range \(more than 9e18\)\n"),
    ] + [case for area in AREAS for case in area.cases()]


def drop_to_nobody():
    os.setgid(65534)
    os.setgroups([])
    os.setuid(65534)


def spawner():
    """Runs commands for the main process, one JSON line in, one out. A process's peak RSS
    counts the memory of the process it was forked from: this one forks gpuscope while small,
    so the bound measures gpuscope, not the inputs the main process made."""
    for line in sys.stdin:
        rq = json.loads(line)
        with open(rq["stdout"], "wb") as fo, open(rq["stderr"], "wb") as fe:
            start = time.monotonic()
            p = subprocess.Popen(rq["argv"], stdout=fo, stderr=fe, env=rq["env"],
                                 preexec_fn=drop_to_nobody if rq["nobody"] else None)
            killed = False
            while True:
                pid, status, usage = os.wait4(p.pid, os.WNOHANG)
                if pid:
                    break
                if time.monotonic() - start > rq["kill_after"]:
                    p.send_signal(signal.SIGKILL)
                    pid, status, usage = os.wait4(p.pid, 0)
                    killed = True
                    break
                time.sleep(0.005)
            p.returncode = os.waitstatus_to_exitcode(status)
        print(json.dumps({"rc": p.returncode, "wall": time.monotonic() - start,
                          "rss_mb": usage.ru_maxrss / 1024, "killed": killed}), flush=True)


class Runner:
    def __init__(self):
        self.p = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--spawner"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def run(self, **rq):
        self.p.stdin.write(json.dumps(rq) + "\n")
        self.p.stdin.flush()
        return json.loads(self.p.stdout.readline())


def run(runner, exe, case, tmp, sanitized):
    """Runs one case; returns what failed (empty when it passed), the time and the peak RSS."""
    os.environ["HOSTILE_TMP"] = tmp
    path = case.make(tmp)
    target = os.path.join(os.path.dirname(exe), "nvtx_target")
    argv = [exe] + [a.replace("{}", path).replace("{target}", target) for a in case.args]
    if case.closed:
        argv = ["sh", "-c", 'exec "$0" "$@" >&- 2>&-'] + argv
    env = {k: v for k, v in os.environ.items() if k != "GPUSCOPE_MEMORY_LIMIT"}
    env.update(case.env)
    secs = case.secs * (6 if sanitized else 1)
    mb = case.mb * 3 + 150 if sanitized else case.mb
    nobody = case.as_nobody and os.geteuid() == 0
    if nobody:
        os.chmod(tmp, 0o755)
    feeder = h.feed_fifo(path, case.feed()) if case.feed else None
    r = runner.run(argv=argv, env=env, stdout=tmp + "/stdout", stderr=tmp + "/stderr",
                   nobody=nobody, kill_after=secs * 3 + 5)
    if feeder:
        feeder.join(1)
    out = open(tmp + "/stdout", "rb").read().decode(errors="replace")
    err = open(tmp + "/stderr", "rb").read().decode(errors="replace")
    problems = []
    if r["killed"]:
        problems.append("killed after %.0f s" % r["wall"])
    if r["rc"] != case.rc:
        problems.append("exit %d, want %d" % (r["rc"], case.rc))
    if sanitized and re.search(r"runtime error|Sanitizer", err):
        problems.append("sanitizer report")
    if not re.fullmatch(case.err, err):
        problems.append("stderr %r does not match %r" % (err[:300], case.err))
    if err.count("\n") > 2:
        problems.append("%d lines on stderr, want at most 2" % err.count("\n"))
    if case.out is None and out:
        problems.append("stdout not empty: %r" % out[:200])
    if case.out is not None and not re.search(case.out, out):
        problems.append("stdout %r has no %r" % (out[:300], case.out))
    if r["wall"] > secs:
        problems.append("took %.2f s, bound %d s" % (r["wall"], secs))
    if r["rss_mb"] > mb:
        problems.append("peak RSS %.0f MB, bound %d MB" % (r["rss_mb"], mb))
    if case.after:
        problems += case.after(tmp)
    return problems, r["wall"], r["rss_mb"]


def nobody_can_run(exe):
    if os.geteuid() != 0:
        return True
    try:
        return subprocess.run([exe, "--help"], preexec_fn=drop_to_nobody, capture_output=True,
                              timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def main():
    if sys.argv[1:] == ["--spawner"]:
        return spawner()
    ap = argparse.ArgumentParser()
    ap.add_argument("gpuscope")
    ap.add_argument("--sanitized", action="store_true", help="ASan/UBSan build: wider bounds")
    ap.add_argument("-k", help="run only the cases whose name contains this")
    a = ap.parse_args()
    exe = os.path.abspath(a.gpuscope)
    runner = Runner()  # first, while this process is small
    os.environ["HOSTILE_EXE"] = exe
    failed = ran = 0
    total = time.monotonic()
    for case in cases():
        if a.k and a.k not in case.name:
            continue
        if case.as_nobody and not nobody_can_run(exe):
            print("skip %s: running as root, and user nobody cannot run %s" % (case.name, exe))
            continue
        if case.run and not os.path.exists(os.path.join(os.path.dirname(exe),
                                                        "libgpuscope_agent.so")):
            print("skip %s: the agent was not built (no CUDA toolkit headers)" % case.name)
            continue
        tmp = tempfile.mkdtemp(prefix="gpuscope-hostile-")
        try:
            problems, wall, rss = run(runner, exe, case, tmp, a.sanitized)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        ran += 1
        status = "ok  " if not problems else "FAIL"
        print("%s %-42s %6.2f s %6.0f MB%s" % (status, case.name, wall, rss,
                                               "".join("\n     " + p for p in problems)))
        failed += bool(problems)
    print("%d passed, %d failed in %.1f s" % (ran - failed, failed, time.monotonic() - total))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
