"""Hostile cases for what gpuscope writes: output files, CSV cells, printed commands, names in messages (run by tests/hostile/test_hostile.py)."""

import hostile_inputs as h  # noqa: F401
from hostile_case import Case, E, LOSS  # noqa: F401


def cases():
    return []
