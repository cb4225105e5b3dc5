"""Hostile cases for inputs that mix runs, folders, exports read back, diff, Python, demangling (run by tests/hostile/test_hostile.py)."""

import hostile_inputs as h  # noqa: F401
from hostile_case import Case, E, LOSS  # noqa: F401


def cases():
    return []
