"""Hostile inputs to the workload and first-use-per-shape analyses (doc/diagnosis.md,
first_use_per_shape; run by tests/hostile/test_hostile.py): a decode loop whose every token is a
new shape (nothing seen to compare with), a flood of distinct shapes, steps of no duration, and
names that hold the letters of training words in an inference trace. None may crash, divide by
zero or call inference training."""

import json
import os
import sys

import hostile_inputs as h
from hostile_case import Case

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gen"))
import gen_inference as g  # noqa: E402

RULE = r'\{"class": "first_use_per_shape", "title": "First use per shape", "severity": "none"'


def every_token_new(tmp):
    """One generate() pass: every step after the first meets a new length."""
    tl = g.Timeline()
    for n in range(12):
        def body(length=128 + n):
            tl.op("aten::bmm", g.K_PAGED, 30_000, [[32, 1, 128], [32, 128, length]],
                  host_ns=800_000)
            tl.sync()
        tl.step(n, body)
    path = os.path.join(tmp, "every_token_new.json")
    tl.write(path)
    return path


def shape_flood(tmp):
    """Three steps of 20000 operators each, every one with input dims never seen before."""
    tl = g.Timeline()
    events = tl.events
    k = 0
    for n in range(3):
        start = tl.t
        for _ in range(20000):
            events.append({"ph": "X", "cat": "cpu_op", "name": "aten::view", "pid": 1, "tid": 1,
                           "ts": tl.t / 1000.0, "dur": 0.5,
                           "args": {"Input Dims": [[k, 7]], "External id": k + 1}})
            tl.t += 1000
            k += 1
        tl.op("aten::mm", g.K_GEMM, 40_000, [[1, 64], [64, 64]])
        tl.sync()
        tl.x("user_annotation", "ProfilerStep#%d" % n, start, tl.t - start)
        tl.t += 5000
    path = os.path.join(tmp, "shape_flood.json")
    tl.write(path)
    return path


def zero_length_steps(tmp):
    """Steps, operators and kernels all at one instant, shapes changing every step."""
    events = []
    for n in range(6):
        events.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % n,
                       "pid": 1, "tid": 1, "ts": 100, "dur": 0})
        events.append({"ph": "X", "cat": "cpu_op", "name": "aten::bmm", "pid": 1, "tid": 1,
                       "ts": 100, "dur": 0, "args": {"Input Dims": [[n % 2, 3]]}})
        events.append({"ph": "X", "cat": "cuda_runtime", "name": "cuModuleLoadData", "pid": 1,
                       "tid": 1, "ts": 100, "dur": 0, "args": {"correlation": n + 1}})
    return h.write(os.path.join(tmp, "zero.json"),
                   json.dumps({"deviceProperties": [g.H100], "traceEvents": events}))


def training_letters(tmp):
    """Inference whose own names hold "optimizer", "Backward" in a module's name and lambdas."""
    tl = g.Timeline()
    for n in range(4):
        def body():
            tl.x("user_annotation", "graph_optimizer.pass", tl.t, 1000)
            tl.t += 2000
            tl.op("aten::gelu", g.K_GELU, 20_000, [[8, 8]])
            tl.sync()
        tl.step(n, body)
    path = os.path.join(tmp, "letters.json")
    tl.write(path)
    return path


def cases():
    return [
        Case("every decode token a new shape", every_token_new,
             ["report", "--format", "json", "{}"], 0, "", secs=10, mb=120,
             out=RULE + r'[^\n]*"evidence": "11 of 11 steps after the first met a new input '
                        r'shape or loaded GPU code, and none met only shapes seen before'),
        Case("20000 new shapes per step", shape_flood, ["report", "--format", "json", "{}"], 0,
             "", secs=10, mb=200, out=r'"new_shape_steps": 2[,}]'),
        # a step of no duration holds nothing: no first use is found in it, nothing divided by 0
        Case("steps of no duration", zero_length_steps, ["report", "--format", "json", "{}"], 0,
             "", secs=10, mb=120, out=RULE + r'[^\n]*"evidence": "0 of 5 steps after the first'),
        Case("training letters in inference names", training_letters,
             ["report", "--format", "json", "{}"], 0, "", secs=10, mb=120,
             out=r'"workload": "inference", "backward_events": 0, "optimizer_events": 0'),
    ]
