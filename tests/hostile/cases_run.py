"""Hostile cases for gpuscope run and its agent: the program's own files, bad options, empty runs, .gst ends (run by tests/hostile/test_hostile.py)."""

import json
import os
import re
import subprocess

import hostile_inputs as h  # noqa: F401
from hostile_case import Case, E, LOSS  # noqa: F401

USAGE = r"gpuscope: run: %s \(see 'gpuscope run --help'\)\n"


def nothing_at(name):
    """after(tmp): the run refused its options before it started, so it left no trace."""
    return lambda tmp: ["%s was written: the program ran" % name] * os.path.exists(
        os.path.join(tmp, name))


def bad_steps(value):
    return Case("run --steps " + value, lambda t: t + "/steps.gst",
                ["run", "-o", "{}", "--steps", value, "--", "{target}", "steps", "3"], 2,
                USAGE % (r"--steps takes W,WU,A\[,R\]: whole numbers up to 1000000, A at "
                         r"least 1, not '%s'" % re.escape(value)),
                run=True, after=nothing_at("steps.gst"))


def earlier_trace(tmp, name="earlier.gst", data=None):
    """An earlier run's trace at the -o path (the committed fixture), or other bytes."""
    if data is None:
        data = open("tests/data/gst/sample.gst", "rb").read()
    return h.write(os.path.join(tmp, name), data)


def gone(name):
    return lambda tmp: ["%s is still there" % name] * os.path.exists(os.path.join(tmp, name))


def kept(name, data):
    def check(tmp):
        path = os.path.join(tmp, name)
        return [] if os.path.exists(path) and open(path, "rb").read() == data else [
            "%s was changed or removed" % name]
    return check


def all_ranges_recorded(tmp):
    """after(tmp): the trace of 'closefds' holds every range, recorded before and after the
    program closed the agent's descriptors (its own files were checked by the program)."""
    got = subprocess.run([os.environ["HOSTILE_EXE"], "ops", "--format", "csv",
                          tmp + "/closefds.gst"], capture_output=True, text=True)
    calls = dict(line.split(",")[:2] for line in got.stdout.splitlines()[1:])
    want = {"before": "10", "after": "25000"}
    problems = [] if got.returncode == 0 else ["ops on the trace: " + got.stderr.strip()]
    return problems + ["%s: %s calls, want %s" % (k, calls.get(k), v) for k, v in want.items()
                       if calls.get(k) != v]


def gst_without_end(tmp):
    """The fixture (version 1.1) cut at a chunk boundary: its end marker, the last 32 bytes, gone,
    as a copy that stopped early or a writer killed between chunks leaves it."""
    data = open("tests/data/gst/sample.gst", "rb").read()
    assert data[-32 + 4:-32 + 6] == b"\x02\x00", "the fixture does not end with an end marker"
    return h.write(os.path.join(tmp, "cut.gst"), data[:-32])


def says_cut_short(tmp):
    """after(tmp): report's JSON counts the capture cut short beside the events skipped."""
    got = subprocess.run([os.environ["HOSTILE_EXE"], "report", "--format", "json",
                          tmp + "/cut.gst"], capture_output=True, text=True)
    if got.returncode != 0:
        return ["report: " + got.stderr.strip()]
    skipped = json.loads(got.stdout).get("profile", {}).get("events_skipped", {})
    want = {"count": 3, "dropped_by_collector": 3, "captures_cut_short": 1}
    return [] if skipped == want else ["events_skipped %r, want %r" % (skipped, want)]


def cut_short_only(tmp):
    """An export of a capture cut short that lost nothing else: its only note is the cut."""
    trace = {"gpuscopeSkipped": {"captures_cut_short": 1}, "traceEvents": [
        {"ph": "X", "cat": "kernel", "name": "sgemm", "pid": 0, "tid": 7, "ts": 1, "dur": 2,
         "args": {"device": 0, "stream": 7, "correlation": 1}}]}
    return h.write(os.path.join(tmp, "cut.json"), json.dumps(trace))


def export_says_cut_short(tmp):
    """after(tmp): the export of the export, read back, still says the capture was cut short."""
    got = subprocess.run([os.environ["HOSTILE_EXE"], "kernels", tmp + "/cut.json.json"],
                         capture_output=True, text=True)
    return [] if re.search(CUT, got.stderr) else ["the export read back says %r" % got.stderr]


CUT = r"the capture was cut short: it has no end marker, so what was recorded last is missing\n"

NOTHING = r"gpuscope: nothing recorded: 'true' used neither CUDA nor NVTX, and the sampler was off"


def cases():
    return [
        bad_steps("1,2"),
        bad_steps("-1,0,1"),
        bad_steps("0,0,0"),
        bad_steps("1,2,3,4,5"),
        bad_steps(" 1,1,1"),
        Case("run --step-name '('", lambda t: t + "/name.gst",
             ["run", "-o", "{}", "--steps", "0,0,1", "--step-name", "(", "--", "{target}",
              "steps", "3"], 2,
             USAGE % (r"--step-name takes a regular expression \(POSIX extended\) of up to 255 "
                      r"bytes and no ';', not '\('"),
             run=True, after=nothing_at("name.gst")),
        # A program that closes every descriptor and opens its own files gets none of the agent's
        # bytes in them (it exits 3 if it does), and the trace still has every range.
        Case("run of a program that closes the agent's descriptors",
             lambda t: t + "/closefds.gst",
             ["run", "-o", "{}", "--flush-interval", "20", "--", "{target}", "closefds", "{}"],
             0, r"(gpuscope: no NVIDIA driver .*\n)?gpuscope: .*/closefds.gst: 1 process, .*, "
             r"25010 NVTX ranges, .*\n",
             secs=10, mb=60, run=True, after=all_ranges_recorded),
        # A .gst cut at a chunk boundary does not read as whole.
        Case(".gst cut at a chunk boundary", gst_without_end, ["kernels", "{}"], 0,
             E % ".*cut.gst" + r"3 events skipped \(3 dropped by the collector\); " + CUT,
             out=r"sgemm", after=says_cut_short),
        Case("a capture cut short, exported", cut_short_only,
             ["export", "-o", "{}.json", "{}"], 0, E % ".*cut.json" + CUT,
             after=export_says_cut_short),
        # A run that records nothing must not leave an earlier run's trace to be read as its own.
        Case("run recording nothing over an earlier trace", earlier_trace,
             ["run", "-f", "--trace", "nvtx", "-o", "{}", "--", "true"], 0,
             NOTHING + r"; removed .*/earlier.gst, an earlier run's trace\n",
             run=True, after=gone("earlier.gst")),
        Case("run recording nothing over a file that is not a trace",
             lambda t: earlier_trace(t, "notes.gst", b"my notes\n"),
             ["run", "-f", "--trace", "nvtx", "-o", "{}", "--", "true"], 0,
             NOTHING + r"; .*/notes.gst is not a \.gst trace: left as it was\n",
             run=True, after=kept("notes.gst", b"my notes\n")),
    ]
