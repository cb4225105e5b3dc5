"""Hostile cases for the verdict's expected gain from the replay (doc/diagnosis.md, "The gain at
stake, and the order"; run by tests/hostile/test_hostile.py): what `report --explain` says the
replay read, and a trace with nothing to replay."""

import os
import shutil

import hostile_inputs as h
from hostile_case import Case

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# One line per finding with a replay: the action, the measured step, the replay's unchanged step
# and its error, the step without the profiler's cost and with the action, the expected speedup
# and step.
NUM = r"[0-9]+\.[0-9]+ (?:ns|µs|ms|s)"
REPLAY_LINE = (r"\n    replay: pinned_memory \(Pinned memory and non_blocking copies\): "
               r"measured step 210\.00 µs, replayed unchanged %s \(error [+-][0-9]+\.[0-9] %%\), "
               r"without the profiler's cost %s, and with the action %s; expected "
               r"[0-9]+\.[0-9]{2}x faster, %s per step\n" % (NUM, NUM, NUM, NUM))


def views_small(tmp):
    """The views' fixture: a transfer-bound 210 us step of pageable copies."""
    return shutil.copy(os.path.join(ROOT, "tests", "data", "views_small.json"),
                       os.path.join(tmp, "views_small.json"))


def no_gpu_steps(tmp):
    """Three profiler steps of host work only: no kept step launched GPU work, so nothing to
    replay; the verdict orders by the gains alone."""
    events = []
    for i in range(3):
        events += [h.event("ProfilerStep#%d" % (i + 1), 1000 * i, 900, cat="user_annotation"),
                   h.event("aten::add", 1000 * i + 100, 500)]
    return h.write(os.path.join(tmp, "no_gpu_steps.json"), h.trace(events))


def html_says_expected(tmp):
    """The page shows the expected speedup where it shows the bound."""
    page = open(os.path.join(tmp, "views_small.json.html"), encoding="utf-8").read()
    want = ("expected <b>", "&times;</b> faster (replay), at most <b>1.44&times;</b> faster if "
            "removed")
    at = page.find(want[0])
    return [] if at >= 0 and page.find(want[1], at) >= 0 else [
        "the page does not say the expected speedup beside the bound"]


def cases():
    return [
        Case("report --explain: the replay's inputs beside the finding's gain", views_small,
             ["report", "--explain", "{}"], 0, "", out=REPLAY_LINE),
        Case("report json: a finding's expected speedup and the rank's replayed step", views_small,
             ["report", "--format", "json", "{}"], 0, "",
             out=r'"mean_ns": 210000, "replay_step_ns": [0-9]+, (?s:.*)"class": "transfer_bound"'
                 r'[^\n]*"expected_step_ns": [0-9]+, "expected_speedup": [0-9]+\.[0-9]{3}, '
                 r'"expected_by": "pinned_memory"'),
        Case("report --html: the expected speedup beside the bound", views_small,
             ["report", "--html", "{}.html", "{}"], 0, r"gpuscope: wrote .*\n", out=".*",
             after=html_says_expected),
        Case("report json: nothing to replay, the expected gains unknown", no_gpu_steps,
             ["report", "--format", "json", "{}"], 0, "",
             out=r'"replay_step_ns": null(?s:.*)"expected_step_ns": null, '
                 r'"expected_speedup": null, "expected_by": null'),
    ]
