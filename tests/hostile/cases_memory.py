"""Hostile cases for traces bigger than the memory budget (run by tests/hostile/test_hostile.py):
a trace with steps is read again as the middle run of steps that fits, and the report says what
was left out; one without steps keeps the middle of its time; a pipe, which cannot be read twice,
still gets the budget's one-line refusal (exit 3)."""

import os

from hostile_case import Case, E
from hostile_inputs import event, trace, write


def stepped(tmp, steps=40, ops=600, name="stepped.json"):
    """`steps` ProfilerStep ranges of 1 ms, each with `ops` operators and launches and kernels
    that run 0.7 ms after their launch (the GPU behind the host)."""
    events = []
    for s in range(steps):
        t0 = s * 1000
        events.append(event("ProfilerStep#%d" % s, t0, 999, cat="user_annotation"))
        for i in range(ops):
            ts, corr = t0 + 1 + i * 1.5, s * ops + i + 1
            events.append(event("aten::mm", "%.3f" % ts, 1))
            events.append(event("cudaLaunchKernel", "%.3f" % (ts + 0.2), 0.5, cat="cuda_runtime",
                                extra=', "args": {"correlation": %d}' % corr))
            events.append(event("gemm", "%.3f" % (ts + 700), 1, cat="kernel", pid=0, tid=7,
                                extra=', "args": {"device": 0, "stream": 7, "correlation": %d}'
                                % corr))
    return write(os.path.join(tmp, name), trace(events))


def unstepped(tmp):
    """Operators over 40 ms and no steps."""
    return write(os.path.join(tmp, "unstepped.json"),
                 trace([event("aten::mm", i * 1.5, 1) for i in range(60000)]))


def piped(tmp):
    """The stepped trace behind a FIFO that a child process writes."""
    path = stepped(tmp)
    fifo = os.path.join(tmp, "pipe.json")
    os.mkfifo(fifo)
    if os.fork() == 0:
        try:
            with open(path, "rb") as src, open(fifo, "wb") as dst:
                dst.write(src.read())
        finally:
            os._exit(0)
    return fifo



WINDOW = r"[0-9]+ events skipped \([0-9]+ outside the steps kept to fit the memory budget\)"
LIMIT = {"GPUSCOPE_MEMORY_LIMIT": "4M"}


def cases():
    return [
        Case("trace over the memory budget: a window of its steps", stepped, ["report", "{}"], 0,
             E % ".*stepped.json" + WINDOW + r"\n", secs=10, mb=120, env=LIMIT,
             out=r"What was profiled\n1 trace, .*; time span .*; [0-9]+ steps \(ProfilerStep#N\)\n"
                 r"(.*\n)*" + WINDOW),
        Case("trace over the memory budget without steps: the middle of its time", unstepped,
             ["ops", "{}"], 0, E % ".*unstepped.json" + WINDOW + r"\n", secs=10, mb=120,
             env={"GPUSCOPE_MEMORY_LIMIT": "2M"}, out=r"aten::mm"),
        Case("pipe over the memory budget: refused", piped, ["report", "{}"], 3,
             E % ".*pipe.json" + r"byte [0-9]+: the trace needs more memory than "
             r"GPUSCOPE_MEMORY_LIMIT allows \(4.0 MB\)\n", secs=10, mb=120, env=LIMIT),
    ]
