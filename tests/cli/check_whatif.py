#!/usr/bin/env python3
"""gpuscope whatif --format json on the committed fixtures (doc/whatif.md, "JSON"): every key of
a replayed rank, no action a speedup of exactly 1, times positive, one step per kept step, the
actions alone best first, a repeated action once, and --keep-warmup replaying one more step.

usage: check_whatif.py GPUSCOPE   (from the source root)
"""
import json
import subprocess
import sys

TRAIN = "examples/train.json.gz"
ACTIONS = ["cuda_graphs", "compile", "dataloader_workers", "pinned_memory", "remove_syncs",
           "mixed_precision", "fused_optimizer", "overlap_comm", "roof_target", "no_profiler"]
RANK_KEYS = {"rank", "path", "steps", "measured_step_ns", "replay_step_ns", "replay_error",
             "structural_step_ns", "structural_error", "actions", "expected_step_ns", "expected_speedup", "alone", "inputs", "per_step"}
ALONE_KEYS = {"name", "expected_step_ns", "expected_speedup", "change"}
CHANGE_KEYS = {"items", "host_before_ns", "host_after_ns", "gpu_before_ns", "gpu_after_ns"}
INPUT_KEYS = {"host_lanes", "gpu_lanes", "host_calls", "host_segments", "gpu_ops",
              "blocking_waits", "stream_waits", "thread_waits", "clipped", "launch_latency_ns",
              "stream_gap_ns", "launch_latency_max_ns", "stream_gap_max_ns"}
STEP_KEYS = {"step", "measured_ns", "replay_ns", "changed_ns"}

problems = []


def whatif(exe, *args):
    got = subprocess.run([exe, "whatif", "--format", "json", *args], capture_output=True,
                         text=True)
    if got.returncode != 0:
        problems.append("whatif %s: exit %d: %s" % (" ".join(args), got.returncode, got.stderr))
        return {"ranks": []}
    return json.loads(got.stdout)


def want(what, got, expected):
    if got != expected:
        problems.append("%s: %r, want %r" % (what, got, expected))


def check_rank(r, chosen):
    want("rank %s keys" % r.get("rank"), set(r) - {"alone_product"}, RANK_KEYS)
    want("rank keys with actions", "alone_product" in r, bool(chosen))
    want("actions", r["actions"], chosen)
    for key in ("measured_step_ns", "replay_step_ns", "expected_step_ns", "expected_speedup"):
        if not r[key] > 0:
            problems.append("%s is %r, not positive" % (key, r[key]))
    if not chosen:
        want("speedup without an action", r["expected_speedup"], 1)
        want("expected step without an action", r["expected_step_ns"], r["measured_step_ns"])
    error = r["replay_step_ns"] / r["measured_step_ns"] - 1
    if abs(r["replay_error"] - error) > 1e-5 * max(1, abs(error)):
        problems.append("replay_error %r, want Replayed / Measured - 1 = %r"
                        % (r["replay_error"], error))
    want("alone", [a["name"] for a in r["alone"]] if chosen else sorted(
        a["name"] for a in r["alone"]), [a for a in ACTIONS if a in chosen] if chosen else
        sorted(ACTIONS))
    speedups = [a["expected_speedup"] for a in r["alone"]]
    if not chosen:
        want("alone best first", speedups, sorted(speedups, reverse=True))
    for a in r["alone"]:
        want("alone keys", set(a), ALONE_KEYS)
        want("change keys", set(a["change"]), CHANGE_KEYS)
        if not (a["expected_step_ns"] > 0 and a["expected_speedup"] > 0):
            problems.append("%s alone: %r" % (a["name"], a))
    want("inputs", set(r["inputs"]), INPUT_KEYS)
    want("one step per kept step", len(r["per_step"]), r["steps"])
    for s in r["per_step"]:
        want("step keys", set(s), STEP_KEYS)
        if not min(s["measured_ns"], s["replay_ns"], s["changed_ns"]) > 0:
            problems.append("step %r" % s)
    mean = sum(s["measured_ns"] for s in r["per_step"]) // len(r["per_step"])
    want("measured mean of the steps", r["measured_step_ns"], mean)


def main():
    exe = sys.argv[1]
    plain = whatif(exe, TRAIN)
    want("ranks of one trace", len(plain["ranks"]), 1)
    want("top actions", plain.get("actions"), [])
    for r in plain["ranks"]:
        check_rank(r, [])
        want("path", r["path"], TRAIN)
        want("steps of train.json.gz (12, warm-up step 1 left out)", r["steps"], 11)
    together = whatif(exe, "--action", "compile,cuda_graphs,compile", TRAIN)
    for r in together["ranks"]:
        check_rank(r, ["cuda_graphs", "compile"])
    warm = whatif(exe, "--keep-warmup", TRAIN)
    want("steps with --keep-warmup", [r["steps"] for r in warm["ranks"]], [12])
    want("workers", whatif(exe, "--workers", "16", TRAIN).get("dataloader_workers"), 16)
    ranks = whatif(exe, "tests/data/ranks/r4")
    want("ranks of r4", [r["rank"] for r in ranks["ranks"]], [0, 1, 2, 3])
    for r in ranks["ranks"]:
        check_rank(r, [])
    for p in problems:
        print("FAIL", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
