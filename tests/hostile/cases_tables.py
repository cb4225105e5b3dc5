"""Hostile cases for the tables' numbers and names: an annotation nested in itself very deep (one
call, doc/ops.md) and thousands of kernel names alike at both ends (each cut where it differs,
doc/report.md "Width"), each in bounded time (run by tests/hostile/test_hostile.py)."""

import os

import hostile_inputs as h
from hostile_case import Case

DEPTH = 50000
KERNELS = 2000
PREFIX = "void at::native::vectorized_elementwise_kernel<4, at::native::" + "x" * 1000
SUFFIX = "y" * 1000 + ">(int)"


def annotation_in_itself(tmp):
    """record_function("step") inside itself, 50 000 deep on one thread."""
    return h.write(os.path.join(tmp, "annotation_in_itself.json"), h.trace(
        [h.event("step", i, 2 * (DEPTH - i), cat="user_annotation") for i in range(DEPTH)]))


def alike_kernels(tmp):
    """2000 kernels whose 2000-character names differ only in 5 digits in their middle."""
    return h.write(os.path.join(tmp, "alike_kernels.json"), h.trace(
        [h.event(PREFIX + "f%05d" % i + SUFFIX, 10 * i, 5, cat="kernel", pid=0, tid=7,
                 extra=', "args": {"device": 0, "stream": 7, "correlation": %d}' % (i + 1))
         for i in range(KERNELS)]))


def cases():
    return [
        Case("an annotation nested in itself 50 000 deep: one call, 100 % of the CPU time",
             annotation_in_itself, ["ops", "--format", "csv", "{}"], 0, "", secs=2, mb=100,
             out=r"\nstep,1,100000000,100\.00,100000000,100\.00,"),
        Case("2000 kernel names alike at both ends: each cut around its own digits",
             alike_kernels, ["kernels", "--limit", "0", "{}"], 0, "", secs=5, mb=100,
             out=r"void at:…00000y+…\n(.*\n)*.*void at:…01999y+…\n"),
    ]
