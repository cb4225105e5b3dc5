#!/usr/bin/env python3
"""The verdict on traces with a known bottleneck (tests/gen/scenarios/, made by
tests/gen/gen_trace.py): `report --format json` must name the scenario's class first, and the
time it puts at stake must match the generator's own measure of that cause, computed from its
abstract timeline, to within 1 percentage point of the step.

usage: check_scenarios.py GPUSCOPE
"""
import glob
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# The generator's per-step measure of each class's cause (answers: bottleneck.mean_per_step).
MEASURE = {
    "data_loading": "dataloader_gpu_idle_ns",
    "sync_bound": "gpu_idle_after_sync_ns",
    "launch_bound": "idle_host_wait_ns",
    "graphs_unreplayed": "idle_host_wait_ns",
    "host_bound": "idle_host_wait_ns",
    "transfer_bound": "memcpy_not_overlapped_ns",
    "communication_bound": "exposed_comm_ns",
    "compute_bound": "compute_kernel_ns",
    "tensor_cores_unused": "tc_unused_kernel_ns",
}
TOLERANCE_PP = 1.0
# Scenarios made for one rule (CONTRIBUTING.md: a generated trace where it fires alone): the
# verdict holds that class and no other.
ALONE = ("tensor_cores_unused", "low_mfu")
# low_mfu puts no time at stake: its MFU must be the generator's, to within 1 % of it.
MFU_TOLERANCE = 0.01


def check(exe, trace, answers):
    expected = answers["expected_verdict"]
    out = subprocess.run([exe, "report", "--format", "json", trace], capture_output=True,
                         text=True, check=True).stdout
    diagnosis = json.loads(out)["diagnosis"][0]
    verdict = diagnosis["verdict"]
    if not verdict:
        return f"no verdict, expected {expected}"
    first = verdict[0]
    if first["class"] != expected:
        return f"first class {first['class']}, expected {expected}"
    if expected in ALONE and len(verdict) != 1:
        return f"{expected} does not fire alone: {[v['class'] for v in verdict]}"
    mean = answers["bottleneck"]["mean_per_step"]
    if expected == "memory_growth":
        rule = next(r for r in diagnosis["rules"] if r["class"] == expected)
        want = answers["bottleneck"]["memory_growth"]["allocated_growth_per_step_bytes"]
        got = rule["inputs"]["growth_bytes_per_step"]
        if abs(got - want) > 1:
            return f"growth {got} B/step, expected {want}"
        return None
    if expected == "low_mfu":
        rule = next(r for r in diagnosis["rules"] if r["class"] == expected)
        want, got = answers["bottleneck"]["mfu_h100_bf16"], rule["inputs"]["mfu"]
        if abs(got - want) > MFU_TOLERANCE * want:
            return f"MFU {got}, generator says {want}"
        return None
    want_pct = 100.0 * mean[MEASURE[expected]] / mean["window_ns"]
    # The generator plants the cause in the recorded step; a host-side finding takes the
    # profiler's estimated cost off its time at stake (doc/diagnosis.md), and says how much of
    # the recorded step it had before.
    got_pct = first.get("recorded_at_stake_pct", first["at_stake_pct"])
    if abs(got_pct - want_pct) > TOLERANCE_PP:
        return f"at stake {got_pct:.2f} % of the step, generator says {want_pct:.2f} %"
    if "profiler_ns" in first and first["at_stake_ns"] + first["profiler_ns"] <= 0:
        return "the profiler's part is not said"
    return None


def main():
    exe = sys.argv[1]
    passed = failed = 0
    for answers_path in sorted(glob.glob(os.path.join(HERE, "scenarios", "*.answers.json"))):
        trace = answers_path.replace(".answers.json", ".json.gz")
        answers = json.load(open(answers_path))
        problem = check(exe, trace, answers)
        name = os.path.basename(trace)
        if problem:
            failed += 1
            print(f"FAIL {name}: {problem}")
        else:
            passed += 1
            print(f"ok   {name}: {answers['expected_verdict']}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
