"""Hostile cases for monitor's captures on a condition and its webhook's token (run by
tests/hostile/test_hostile.py): conditions out of range or too long, step times with nothing to
read them from, token files that are no password, each a usage error (exit 2) said in one line
before anything is served; the slowest process's fields of a log out of bounds (exit 3). The
webhook's hostile requests: tests/hostile/monitor_trigger_webhook.py."""

import json
import os

from hostile_case import Case

MONITOR = r"gpuscope: monitor: "
SEE_HELP = r" \(see 'gpuscope monitor --help'\)\n"
GRAMMAR = r" \(write METRIC OP VALUE \[for DURATION\]: .*\)" + SEE_HELP


def log(tmp):
    """A folder holding one.jsonl, a log of one sample of one GPU."""
    with open(os.path.join(tmp, "one.jsonl"), "w") as f:
        f.write(json.dumps({"ts": 1717000000, "hostname": "n", "gpu": 0, "gpu_util_pct": 50,
                            "unavailable": {}, "processes": []}) + "\n")
    return tmp


def token_file(text, mode=0o600, name="token"):
    """A function making the log above and beside it a token file holding `text`, `mode`."""
    def make(tmp):
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, mode)
        return log(tmp)
    return make


def step_log(**fields):
    """A function making one.jsonl: a host-only sample whose steps say `fields`."""
    def make(tmp):
        with open(os.path.join(tmp, "one.jsonl"), "w") as f:
            f.write(json.dumps(dict({"ts": 1717000000, "hostname": "n", "agents": 1,
                                     "step_ns": 100000000}, **fields)) + "\n")
        return tmp
    return make


def token_folder(tmp):
    os.mkdir(os.path.join(tmp, "token"), 0o700)
    return log(tmp)


def serve(token="{}/token"):
    """monitor --replay LOG --serve with the token file beside the log."""
    return ["monitor", "--replay", "{}/one.jsonl", "--once", "--format", "csv", "--serve",
            "127.0.0.1:0",
            "--trigger-token-file", token]


def trigger(cond, *more):
    return ["monitor", "--replay", "{}/one.jsonl", "--once", "--format", "csv", "--trigger",
            cond] + list(more)


def cases():
    return [
        # A token cut to what fits would let a prefix of it in.
        Case("monitor --trigger-token-file with a 300-byte token", token_file("t" * 300 + "\n"),
             serve(), 2, MONITOR + r"--trigger-token-file .*/token: its first line is longer "
             r"than 254 bytes\n"),
        Case("monitor --trigger-token-file that its group can read", token_file("s3cret\n", 0o640),
             serve(), 2, MONITOR + r"--trigger-token-file .*/token can be read by others: it is "
             r"a password \(chmod 600 it\)\n"),
        Case("monitor --trigger-token-file, empty", token_file(""), serve(), 2,
             MONITOR + r"--trigger-token-file .*/token: no token on its first line\n"),
        Case("monitor --trigger-token-file, a blank first line", token_file("\nsecret\n"),
             serve(), 2, MONITOR + r"--trigger-token-file .*/token: no token on its first line\n"),
        Case("monitor --trigger-token-file, a folder", token_folder, serve(), 2,
             MONITOR + r"--trigger-token-file .*/token: Is a directory\n"),
        Case("monitor --trigger-token-file, missing", log, serve("{}/nothing"), 2,
             MONITOR + r"--trigger-token-file .*/nothing: No such file or directory\n"),
        Case("monitor --trigger of 8 kB", log, trigger("step_time>" + "9" * 8000), 2,
             MONITOR + r"--trigger '\.\.\.': longer than 159 bytes" + GRAMMAR),
        Case("monitor --trigger past a double", log, trigger("step_time>1e400ms"), 2,
             MONITOR + r"--trigger 'step_time>1e400ms': no value, or a unit this metric does "
             r"not take" + GRAMMAR),
        Case("monitor --trigger nan", log, trigger("gpu_util<nan"), 2,
             MONITOR + r"--trigger 'gpu_util<nan': no value, or a unit this metric does not "
             r"take" + GRAMMAR),
        Case("monitor --trigger nan*baseline", log, trigger("gpu_util<nan*baseline"), 2,
             MONITOR + r"--trigger 'gpu_util<nan\*baseline': the factor of baseline must be "
             r"above 0" + GRAMMAR),
        Case("monitor --trigger for a duration past a year", log,
             trigger("gpu_util<30 for 1e300h"), 2,
             MONITOR + r"--trigger 'gpu_util<30 for 1e300h': a duration needs ms, s, m or h" +
             GRAMMAR),
        # Live, the step times are the agents' statuses: none without --agents.
        Case("monitor --trigger step_time without --agents", log,
             ["monitor", "--host-only", "--once", "--trigger", "step_time>1.2*baseline for 20s"],
             2, MONITOR + r"--trigger 'step_time>1.2\*baseline for 20s' needs --agents DIR: "
             r"the step times are the statuses of the agents of `gpuscope run --on-demand --job "
             r"DIR`" + SEE_HELP),
        # The slowest process's fields in a log: bounded like every string, whole numbers.
        Case("monitor --replay, a step_host of 10 kB", step_log(step_host="h" * 10000),
             ["monitor", "--replay", "{}/one.jsonl"], 3,
             r"gpuscope: monitor: .*/one.jsonl: line 1: byte 84: \"step_host\" is longer than "
             r"1530 bytes\n"),
        Case("monitor --replay, a negative step_rank", step_log(step_rank=-1),
             ["monitor", "--replay", "{}/one.jsonl"], 3,
             r"gpuscope: monitor: .*/one.jsonl: line 1: byte 84: \"step_rank\" wants a whole "
             r"number up to 2147483647\n"),
        Case("monitor --trigger nine times", log,
             trigger("gpu_util<1", *sum((["--trigger", f"gpu_util<{i}"] for i in range(2, 10)),
                                        [])), 2,
             MONITOR + r"option '--trigger' given too many times" + SEE_HELP),
    ]
