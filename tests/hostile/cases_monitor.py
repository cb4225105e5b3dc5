"""Hostile cases for the monitor and the exporter: hung NVML, slow clients, values out of range (run by tests/hostile/test_hostile.py).

The live cases load the fake NVML the tests build beside gpuscope (fake-nvml/libnvidia-ml.so.1,
tests/hostile/fake_nvml.c); the hung NVML and the slow clients have scripts of their own
(tests/hostile/test_hung_nvml.py, tests/monitor/starvation_test.py)."""

import os
import subprocess

import hostile_inputs as h  # noqa: F401
from hostile_case import Case, E, LOSS  # noqa: F401


def fake_nvml_dir():
    return os.path.join(os.path.dirname(os.environ["HOSTILE_EXE"]), "fake-nvml")


def fake_env(**settings):
    """The environment that makes gpuscope load the fake NVML, set up by GS_FAKE_NVML_*."""
    env = {"LD_LIBRARY_PATH": ":".join(filter(None, [fake_nvml_dir(),
                                                     os.environ.get("LD_LIBRARY_PATH")]))}
    env.update({"GS_FAKE_NVML_" + k.upper(): str(v) for k, v in settings.items()})
    return env


def monitor_log(name, **settings):
    """A function making the log of one live sample of the fake NVML set up by `settings`."""
    def make(tmp):
        path = os.path.join(tmp, name)
        subprocess.run([os.environ["HOSTILE_EXE"], "monitor", "--once", "--log", path],
                       env=dict(os.environ, **fake_env(**settings)), check=True,
                       stdout=subprocess.DEVNULL)
        return path
    return make


def log_lines_unchanged(name):
    """An after(tmp) check: the log one live sample wrote still has its one line."""
    def check(tmp):
        with open(os.path.join(tmp, name)) as f:
            n = sum(1 for _ in f)
        return [] if n == 1 else ["%s has %d lines, not 1" % (name, n)]
    return check


NO_NEGATIVE = r"(?![\s\S]*\s-[0-9])"   # no number printed negative ("-9223372.0 TB", "-2 B")
NO_HUGE = r"(?![\s\S]*[0-9]{20})"       # no integer past 9e18 (2^64: 18446744073709551616)


def cases():
    if not os.path.exists(os.path.join(fake_nvml_dir(), "libnvidia-ml.so.1")):
        print("skip the monitor's live cases: the fake NVML was not built (%s)" % fake_nvml_dir())
        return []
    return [
        # NVML answering all ones (2^64-1 bytes, every throttle bit, ~0ULL per process): a failed
        # read ("err", "n/a"), never a value converted out of range.
        Case("monitor, NVML values out of range", lambda t: t, ["monitor", "--once"], 0, "",
             env=fake_env(extreme=1),
             out=NO_NEGATIVE + r"[\s\S]*  err    err  [\s\S]*clocks throttled by: err\n"
                 r"[\s\S]*n/a\n"),
        Case("monitor --format json, NVML values out of range", lambda t: t,
             ["monitor", "--once", "--format", "json"], 0, "", env=fake_env(extreme=1),
             out=NO_HUGE + r"\"gpu_mem_used_bytes\":null,[\s\S]*\"gpu_throttle_reasons\":null,"
                 r"[\s\S]*\"gpu_memory_bytes\":null"),
        Case("monitor --format csv, NVML values out of range", lambda t: t,
             ["monitor", "--once", "--format", "csv"], 0, "", env=fake_env(extreme=1),
             out=NO_HUGE + NO_NEGATIVE + r",4294967295,4294967295,,,"),
        Case("monitor --replay its log of values out of range",
             monitor_log("extreme.jsonl", extreme=1), ["monitor", "--replay", "{}"], 0, "",
             out=NO_NEGATIVE + r"  err    err  "),
        # The log given as --log too: refused before a line is read or written (it grew for ever).
        Case("monitor --replay F --log F", monitor_log("self.jsonl"),
             ["monitor", "--replay", "{}", "--log", "{}"], 2,
             E % ".*self.jsonl" + "the output is also an input: write it to another file\n",
             after=log_lines_unchanged("self.jsonl")),
        # 30,000 processes make a line of 1.7 MB: the monitor reads its own log back.
        Case("monitor --replay its log of 30000 processes",
             monitor_log("procs.jsonl", procs=30000),
             ["monitor", "--replay", "{}", "--format", "csv"], 0, "", mb=80,
             out=r",30000\n$"),
    ]
