"""Shared by the bench/workloads scripts: the step loop, timing, and the torch.profiler mode.

Each workload builds its state, then calls run_steps(name, step_fn, args): warm-up steps, then
timed steps, each inside torch.cuda.nvtx.range_push("ProfilerStep#N") (a no-op unless a tool is
injected), each timed from its start to torch.cuda.synchronize() after it. It prints one JSON line:
{"workload", "mode", "median_step_ms", "min_step_ms", "max_step_ms", "steps", "warmup"}.

--torch-profiler wraps the loop in torch.profiler.profile(activities=[CPU, CUDA],
schedule=schedule(wait=1, warmup=1, active=N)): the first two steps are the profiler's wait and
warm-up steps and the N active (recorded) ones are the timed steps. prof.step() runs after a step
is timed, so the trace processing at the end of the active window is not in any step time.
"""

import argparse
import json
import statistics
import time

import torch


def parser(description, steps=30, warmup=10):
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--steps", type=int, default=steps, help="timed steps")
    ap.add_argument("--warmup", type=int, default=warmup, help="untimed steps before them")
    ap.add_argument("--torch-profiler", action="store_true",
                    help="run under torch.profiler (CPU+CUDA, wait=1 warmup=1 active=STEPS)")
    ap.add_argument("--seed", type=int, default=0)
    return ap


def run_steps(name, step_fn, a):
    if not torch.cuda.is_available():
        raise SystemExit(f"{name}: torch.cuda.is_available() is False")
    times = []
    n = 0

    def one(timed):
        nonlocal n
        torch.cuda.nvtx.range_push(f"ProfilerStep#{n}")
        t0 = time.perf_counter()
        step_fn()
        torch.cuda.synchronize()
        dt = time.perf_counter() - t0
        torch.cuda.nvtx.range_pop()
        n += 1
        if timed:
            times.append(dt * 1e3)

    for _ in range(a.warmup):
        one(False)
    if a.torch_profiler:
        from torch.profiler import ProfilerActivity, profile, schedule
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                     schedule=schedule(wait=1, warmup=1, active=a.steps)) as prof:
            for i in range(a.steps + 2):
                one(i >= 2)  # steps 0, 1: the profiler's wait and warm-up
                prof.step()
    else:
        for _ in range(a.steps):
            one(True)
    print(json.dumps({
        "workload": name,
        "mode": "torch-profiler" if a.torch_profiler else "plain",
        "median_step_ms": round(statistics.median(times), 4),
        "min_step_ms": round(min(times), 4),
        "max_step_ms": round(max(times), 4),
        "steps": len(times),
        "warmup": a.warmup,
        "device": torch.cuda.get_device_name(0),
        "torch": torch.__version__,
    }), flush=True)
