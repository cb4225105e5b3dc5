"""Hostile cases for the JSON scanner's speed on strings (run by tests/hostile/test_hostile.py)."""

import os

from hostile_case import Case


def escaped_long_name(tmp):
    """A 17 MB name with a backslash every 42 bytes, past the 32 bytes the scanner walks one by
    one: each part of it must be searched for a quote once, not again after every backslash."""
    path = os.path.join(tmp, "escapes.json")
    with open(path, "w") as f:
        f.write('{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "')
        f.write(("a" * 40 + "\\\\") * 400000)
        f.write('", "pid": 1, "tid": 1, "ts": 1, "dur": 2}]}')
    return path


def cases():
    return [
        Case("17 MB name with 400 000 escapes", escaped_long_name, ["steps", "{}"], 0, "",
             out=r"1 step", secs=5, mb=80),
    ]
