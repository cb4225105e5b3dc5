"""Hostile cases for the monitor and the exporter: hung NVML, slow clients, values out of range (run by tests/hostile/test_hostile.py)."""

import hostile_inputs as h  # noqa: F401
from hostile_case import Case, E, LOSS  # noqa: F401


def cases():
    return []
