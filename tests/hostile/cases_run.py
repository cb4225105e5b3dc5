"""Hostile cases for gpuscope run and its agent: the program's own files, bad options, empty runs, .gst ends (run by tests/hostile/test_hostile.py)."""

import hostile_inputs as h  # noqa: F401
from hostile_case import Case, E, LOSS  # noqa: F401


def cases():
    return []
