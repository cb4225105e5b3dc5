"""Hostile names for the report's width (doc/report.md, "Width"; run by
tests/hostile/test_hostile.py): kernels and operators whose names are hundreds of columns long and
differ only in their last characters. The report keeps within 120 columns, and no two rows of a
table read the same once their names are cut: they are cut where they differ."""

import os

import hostile_inputs as h
from hostile_case import Case

N = 12
KERNEL = "void " + "a" * 300 + "_k%02d"
OP = "custom::" + "b" * 200 + "_op%02d"


def twin_names(tmp):
    """One step; in it N operators, each launching one kernel of 10 + i us."""
    events = [h.event("ProfilerStep#1", 0, 10000, cat="user_annotation")]
    for i in range(N):
        ts = 100 + 500 * i
        events += [h.event(OP % i, ts, 100),
                   h.event("cudaLaunchKernel", ts + 10, 5, cat="cuda_runtime",
                           extra=', "args": {"correlation": %d}' % (i + 1)),
                   h.event(KERNEL % i, ts + 50, 10 + i, cat="kernel", pid=0, tid=7,
                           extra=', "args": {"device": 0, "stream": 7, "correlation": %d}'
                           % (i + 1))]
    return h.write(os.path.join(tmp, "twins.json"), h.trace(events))


# No line of more than 120 columns, no two equal lines holding a cut name ("…"), and the ends
# that tell the names apart are shown (k00 and k11 end rows of the kernel table).
WIDTH_AND_TWINS = (r"(?m)\A(?![\s\S]*[^\n]{121})"
                   r"(?![\s\S]*^([^\n]*…[^\n]*)\n(?:[\s\S]*\n)?\1$)"
                   r"(?=[\s\S]*_k00$)(?=[\s\S]*_k11$)")


def cases():
    return [
        Case("names alike but for their end, in 120 columns", twin_names,
             ["report", "--limit", "0", "{}"], 0, "", secs=10, mb=120,
             out=WIDTH_AND_TWINS),
    ]
