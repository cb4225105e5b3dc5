"""Hostile compute capabilities (doc/diagnosis.md, "What the GPU can run"; run by
tests/hostile/test_hostile.py): the generated fp32 scenario whose Tensor Cores go unused, with
deviceProperties that no GPU has. The advice must neither crash nor pick a generation the trace
does not say: it falls back to the by-GPU wording and says why."""

import gzip
import json
import os

import hostile_inputs as h
from hostile_case import Case

SCENARIO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gen", "scenarios",
                        "tensor_cores_unused.json.gz")
BY_GPU = r"mixed precision, by GPU: on Ampere or later"
# the training scenario's reason comes first: its by-GPU wording is training's (GradScaler)
TRAINING = r"\d+ backward operators in the trace: a training step; "


def with_capability(major, minor, name="cc.json"):
    """The scenario with every device's computeMajor and computeMinor replaced (raw JSON text,
    so that values Python would not write, such as 1e999, can be given)."""
    def make(tmp):
        with gzip.open(SCENARIO, "rt") as f:
            doc = json.load(f)
        for d in doc.get("deviceProperties", []):
            d["computeMajor"], d["computeMinor"] = "@MAJOR@", "@MINOR@"
        text = json.dumps(doc).replace('"@MAJOR@"', major).replace('"@MINOR@"', minor)
        return h.write(os.path.join(tmp, name), text)
    return make


def cases():
    not_in_table = (r"why: " + TRAINING + r"compute capability %s is not in gpuscope's table: "
                    r"the advice depends on it")
    return [
        Case("compute capability past any GPU", with_capability("2147483647", "-2147483648"),
             ["report", "{}"], 0, "", secs=10, mb=120,
             out=BY_GPU + r"[^\n]*\n\s+" + not_in_table % r"2147483647\.0"),
        # 2^33 + 7 would wrap to 7 (Volta) in 32 bits: out of range is unknown, not another GPU.
        Case("compute capability past 32 bits", with_capability("8589934599", "0"),
             ["report", "{}"], 0, "", secs=10, mb=120,
             out=BY_GPU + r"[^\n]*\n\s+why: " + TRAINING + r"the trace does not record the "
                          r"GPU's compute capability: the advice depends on it"),
        Case("compute capability 7.1 (no such GPU)", with_capability("7", "1"),
             ["report", "{}"], 0, "", secs=10, mb=120,
             out=BY_GPU + r"[^\n]*\n\s+" + not_in_table % r"7\.1"),
        Case("compute capability not an integer", with_capability("1e999", "0.5"),
             ["report", "{}"], 0, "", secs=10, mb=120,
             out=BY_GPU + r"[^\n]*\n\s+why: " + TRAINING + r"the trace does not record the "
                          r"GPU's compute capability: the advice depends on it"),
        Case("compute capability as strings", with_capability('"8"', '"0"'),
             ["report", "{}"], 0, "", secs=10, mb=120,
             out=BY_GPU),
    ]
