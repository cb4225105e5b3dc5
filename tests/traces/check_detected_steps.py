#!/usr/bin/env python3
"""Steps with no code change, on the real H100 captures in ../shared/gpu-captures
(GS_GPU_CAPTURES overrides; README.md there says what ran) and the real traces in ../shared/traces
(GS_SHARED_TRACES overrides):

  unmodified  `steps` on resnet50_unmodified.gst (8 training steps, nothing marked) detects 8 steps
              from the repeating kernel sequence, the steady ones (all but the warm-up) with the
              same number of GPU operations, a median within 5 % of the steady steps' own span
              per step; `report` shows the start-up phase and its length, and its verdict's time
              at stake per step is less than the median step (it is not the start-up's);
  marked      `steps --detect-steps` on gpt2_train.gst (whose script marks ProfilerStep#N NVTX
              ranges) ignores the ranges and finds the same 8 steps, each boundary within 1 % of
              the step's duration of the marked one;
  window      on shift_equivariant_vit (no step ranges, no loop found) the whole-trace window
              starts after the 5.5 s module-loading launch, so the verdict is not drawn from it.

usage: check_detected_steps.py GPUSCOPE
Exit 0 all passed, 1 some failed, 77 the captures folder is absent."""
import json
import os
import statistics
import subprocess
import sys

failures = []


def shared(env, name):
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return os.environ.get(env) or os.path.normpath(os.path.join(repo, "..", "shared", name))


def run(exe, *args):
    out = subprocess.run([exe, *args], capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        raise RuntimeError(f"gpuscope {' '.join(args)}: exit {out.returncode}: {out.stderr}")
    return out.stdout


def steps_of(exe, path, *opts):
    return json.loads(run(exe, "steps", *opts, "--format", "json", path))["traces"][0]


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


def check_unmodified(exe, root):
    path = os.path.join(root, "resnet50_unmodified.gst")
    t = steps_of(exe, path)
    rows = t["rows"]
    steady = [r for r in rows if r["warmup"] == "no"]
    ops = {r["gpu_ops"] for r in steady}
    check(t["source"] == "detected" and len(rows) == 8 and len(steady) >= 7 and len(ops) == 1,
          f"unmodified: {len(rows)} steps ({t['source']}), {len(steady)} steady with GPU ops "
          f"{sorted(ops)}")
    span = (steady[-1]["start_ns"] + steady[-1]["duration_ns"] - steady[0]["start_ns"]) / len(steady)
    med = statistics.median(r["duration_ns"] for r in steady)
    check(abs(med - span) <= 0.05 * span,
          f"unmodified: median step {med / 1e6:.3f} ms within 5 % of the steady span per step "
          f"{span / 1e6:.3f} ms")
    text = run(exe, "report", path)
    startup = [line for line in text.splitlines() if line.startswith("rank 0: start-up ")]
    check(len(startup) == 1 and "before the first step" in startup[0],
          f"unmodified: report shows the start-up phase: {startup[:1]}")
    report = json.loads(run(exe, "report", "--format", "json", path))
    findings = [f for f in report["diagnosis"][0]["verdict"] if f.get("at_stake_ns")]
    top = findings[0] if findings else None
    check(top is not None and top["at_stake_ns"] < med,
          f"unmodified: the verdict's time at stake per step "
          f"({top['at_stake_ns'] / 1e6 if top else 0:.3f} ms, {top['title'] if top else None}) "
          f"is less than the median step {med / 1e6:.3f} ms")


def check_marked(exe, root):
    path = os.path.join(root, "gpt2_train.gst")
    marked = steps_of(exe, path)["rows"]
    found = steps_of(exe, path, "--detect-steps")
    rows = found["rows"]
    check(found["source"] == "detected" and len(rows) == len(marked) == 8,
          f"marked: --detect-steps finds {len(rows)} steps ({found['source']}), the ranges "
          f"{len(marked)}")
    worst = 0.0
    for m, d in zip(marked, rows):
        for edge in ("start", "end"):
            me = m["start_ns"] + (m["duration_ns"] if edge == "end" else 0)
            de = d["start_ns"] + (d["duration_ns"] if edge == "end" else 0)
            worst = max(worst, abs(me - de) / m["duration_ns"])
    check(worst <= 0.01, f"marked: boundaries within {worst * 100:.2f} % of the step (1 % allowed)")


def check_window(exe, traces):
    path = os.path.join(traces, "shift_equivariant_vit", "trace.json.gz")
    if not os.path.exists(path):
        print("skip  window: shift_equivariant_vit is absent")
        return
    t = steps_of(exe, path)
    start = t["rows"][0]["start_ns"] if t["rows"] else 0
    check(t["source"] == "window" and start > 10.8e9,
          f"window: starts {start / 1e9:.3f} s into the trace ({t['source']}), after the 5.5 s "
          f"launch that ends at 10.88 s")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    exe = sys.argv[1]
    root = shared("GS_GPU_CAPTURES", "gpu-captures")
    if not os.path.isdir(root):
        print(f"skip: {root} is absent")
        return 77
    check_unmodified(exe, root)
    check_marked(exe, root)
    check_window(exe, shared("GS_SHARED_TRACES", "traces"))
    print(f"{len(failures)} failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
