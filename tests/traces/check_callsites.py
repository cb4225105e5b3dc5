#!/usr/bin/env python3
"""`gpuscope callsites` on the torch.profiler capture with Python stacks and modules
(gpt2_train_torchprofiler_flops_stack.json.gz in ../shared/gpu-captures; GS_GPU_CAPTURES
overrides), checked against the trace's own events, computed here independently:

  top      the outermost Python frame's GPU total is the sum of the durations of the kernels,
           copies and sets whose CUDA call (joined by correlation id) ran inside it on its
           thread; its launches are their count; over the whole trace (--all-steps) and over
           the kept steps (the default window: launches inside a ProfilerStep#N range);
  modules  the same for the outermost nn.Module path (--modules), over every call of it;
  thread   the GPU time gpuscope reports with no Python frame is that of the launches made on
           threads without Python frames (autograd's backward thread).

usage: check_callsites.py GPUSCOPE
Exit 0 all passed, 1 some failed, 77 the capture is absent."""
import collections
import decimal
import gzip
import json
import os
import subprocess
import sys

from shared_checks import captures_root, check, failures

NAME = "gpt2_train_torchprofiler_flops_stack.json.gz"


def run_json(exe, *args):
    out = subprocess.run([exe, "callsites", *args, "--format", "json"], capture_output=True,
                         text=True, timeout=300)
    if out.returncode != 0:
        raise RuntimeError(f"gpuscope callsites {' '.join(args)}: exit {out.returncode}: "
                           f"{out.stderr}")
    return json.loads(out.stdout)


def ns(value):
    """Microseconds as the trace writes them, to integer ns (exact: decimals, not floats)."""
    return int((decimal.Decimal(value) * 1000).to_integral_value())


def load(path):
    with gzip.open(path, "rt") as f:
        events = json.load(f, parse_float=decimal.Decimal)["traceEvents"]
    frames, calls, gpu, steps = [], {}, [], []
    for e in events:
        if e.get("ph") != "X":
            continue
        cat, start = e.get("cat"), ns(e["ts"])
        end = start + ns(e.get("dur", 0))
        args = e.get("args", {})
        if cat == "python_function":
            frames.append((e["pid"], e["tid"], start, end, e["name"]))
        elif cat in ("cuda_runtime", "cuda_driver") and args.get("correlation"):
            calls[args["correlation"]] = (e["pid"], e["tid"], start, end)
        elif cat in ("kernel", "gpu_memcpy", "gpu_memset"):
            gpu.append((args.get("correlation"), end - start))
        elif cat == "user_annotation" and e["name"].startswith("ProfilerStep#"):
            steps.append((start, end))
    return frames, calls, gpu, steps


def launched_inside(intervals, calls, gpu, window=None):
    """Σ GPU time and count of the launches whose call lies inside one of `intervals`
    ((pid, tid, start, end)) on its thread, and starts inside `window` when given."""
    total = count = 0
    for corr, dur in gpu:
        call = calls.get(corr)
        if not call:
            continue
        pid, tid, start, end = call
        if window is not None and not any(s <= start < e for s, e in window):
            continue
        if any(p == pid and t == tid and s <= start and end <= e for p, t, s, e in intervals):
            total += dur
            count += 1
    return total, count


def row(rows, key, name):
    return next((r for r in rows if r[key] == name), None)


def check_top(exe, path, frames, calls, gpu, steps):
    top = min(frames, key=lambda f: (f[2], -f[3]))
    top_name = top[4]
    instances = [f[:4] for f in frames if f[4] == top_name]
    for label, args, window in (("whole trace", ["--all-steps"], None), ("kept steps", [], steps)):
        out = run_json(exe, *args, path)
        if window is not None:
            kept = out.get("window", [{}])[0]
            check(kept.get("steps_kept") == len(steps),
                  f"top: the default window keeps every one of the {len(steps)} steps "
                  f"({kept.get('steps_kept')})")
        got = row(out["rows"], "frame", top_name)
        want, n = launched_inside(instances, calls, gpu, window)
        check(got is not None and out["rows"][0]["frame"] == top_name,
              f"top: {top_name} is the first row ({label})")
        if got:
            check(got["gpu_total_ns"] == want and got["launches"] == n and want > 0,
                  f"top: {top_name} GPU total {got['gpu_total_ns']} ns, {got['launches']} "
                  f"launches ({label}); the trace's kernels, copies and sets launched inside "
                  f"it: {want} ns, {n}")


def check_modules(exe, path, frames, calls, gpu):
    out = run_json(exe, "--modules", "--all-steps", path)
    first = out["rows"][0] if out["rows"] else None
    check(first is not None and "/" not in first["module"],
          f"modules: the first row is an outermost module ({first and first['module']})")
    if not first:
        return
    instances = [f[:4] for f in frames if f[4] == "nn.Module: " + first["module"]]
    want, n = launched_inside(instances, calls, gpu)
    check(first["gpu_total_ns"] == want and first["launches"] == n and first["calls"] ==
          len(instances),
          f"modules: {first['module']} GPU total {first['gpu_total_ns']} ns, {first['launches']} "
          f"launches, {first['calls']} calls; from the trace: {want} ns, {n}, {len(instances)}")


def check_threads(exe, path, frames, calls, gpu):
    with_frames = {(f[0], f[1]) for f in frames}
    want = sum(dur for corr, dur in gpu
               if corr not in calls or calls[corr][:2] not in with_frames)
    by_thread = collections.Counter(calls[c][:2] for c, _ in gpu if c in calls)
    out = run_json(exe, "--all-steps", path)
    check(out["unattributed_gpu_ns"] == want > 0,
          f"thread: {out['unattributed_gpu_ns']} ns launched with no Python frame; launched on "
          f"threads without any: {want} ns (launches per thread: {dict(by_thread)})")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    path = os.path.join(captures_root(), NAME)
    if not os.path.exists(path):
        print(f"skip: {path} is absent")
        return 77
    frames, calls, gpu, steps = load(path)
    check_top(sys.argv[1], path, frames, calls, gpu, steps)
    check_modules(sys.argv[1], path, frames, calls, gpu)
    check_threads(sys.argv[1], path, frames, calls, gpu)
    print(f"{len(failures)} failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
