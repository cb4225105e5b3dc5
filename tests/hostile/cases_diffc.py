"""Hostile cases for `gpuscope diff` across collectors (doc/diff.md, "Different collectors"; run by
tests/hostile/test_hostile.py): runs recorded differently whose GPU work gives nothing to divide by,
and a collector whose estimated own time is more than its steps."""

import os

import hostile_inputs as h
from hostile_case import Case


def steps(kernel_on, python_events, n=4, step_us=1000):
    """n ProfilerStep#N of step_us us each: an operator in each, with a kernel when kernel_on(k),
    and python_events Python function events (with_stack) of 1 us in each."""
    events = []
    for k in range(n):
        t = 10 + k * (step_us + 10)
        events.append(h.event("ProfilerStep#%d" % k, t, step_us, cat="user_annotation"))
        events.append(h.event("aten::mm", t + 1, 50))
        if kernel_on(k):
            events.append(h.event("cudaLaunchKernel", t + 2, 3, cat="cuda_runtime",
                                  extra=', "args": {"correlation": %d}' % (k + 1)))
            events.append(h.event("gemm", t + 10, 25 + k, cat="kernel", pid=0, tid=7,
                                  extra=', "args": {"correlation": %d}' % (k + 1)))
        for i in range(python_events):
            events.append(h.event("train.py(%d): step" % i, t + 60 + i * 2, 1,
                                  cat="python_function"))
    return h.trace(events)


def pair(tmp, base, new):
    h.write(os.path.join(tmp, "base.json"), base)
    h.write(os.path.join(tmp, "new.json"), new)
    return tmp


def no_gpu_work(tmp):
    """CPU-only steps on both sides, NEW under with_stack."""
    return pair(tmp, steps(lambda k: False, 0), steps(lambda k: False, 3))


def gpu_work_on_new_only(tmp):
    """BASE's median step ran no kernel, NEW's steps each ran one; NEW under with_stack."""
    return pair(tmp, steps(lambda k: k in (0, 3), 0), steps(lambda k: True, 3))


def cost_past_the_step(tmp):
    """400 Python events in a 1 ms step: 2.6 ms at their unit cost, capped at the step."""
    return pair(tmp, steps(lambda k: True, 0), steps(lambda k: True, 400))


DIFF = ["diff", "{}/base.json", "{}/new.json"]
NO_NAN = r"(?s)\A(?!.*\bnan\b)(?!.*\binf\b).*"


def cases():
    own = r"own host time [^\n]*per kept step \(estimated: doc/diagnosis\.md\)\n"
    return [
        # Nothing to divide by: the verdict stays on the step time, the collectors' time shown.
        Case("diff_collectors_no_gpu_work", no_gpu_work, DIFF, 0, "",
             out=NO_NAN + own + r".*\nno significant change \(NEW \+0\.0 %"),
        Case("diff_collectors_gpu_work_new_only", gpu_work_on_new_only, DIFF, 0, "",
             out=NO_NAN + own + r".*\nno significant change \(NEW \+0\.0 %"),
        # The estimate is capped at the mean kept step (1 ms), not 2.6 ms of a 1 ms step.
        Case("diff_collectors_cost_past_the_step", cost_past_the_step,
             DIFF + ["--format", "json"], 0, "",
             out=NO_NAN + r'"new_own_ns": 1000000, "own_change_ns": 99\d{4},'),
    ]
