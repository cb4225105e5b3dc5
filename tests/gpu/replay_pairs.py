#!/usr/bin/env python3
"""What the replay predicts against what a change measures (doc/whatif.md, "Predicted against
measured"), on a GPU: for each pair below, the same small PyTorch workload before and after one
change, each run without any tool (median step time), the "before" run once more under
`gpuscope run`, and `gpuscope whatif` on that trace:

  predicted = speedup(ACTION + no_profiler) / speedup(no_profiler)   (the replay, unprofiled)
  measured  = median step before / median step after                 (both without a tool)
  error     = predicted / measured - 1                               (the goal: within 15 %)

  pair                before                                 after                        action
  cuda_graphs         eager forward of a 16-layer MLP        the same forward, captured   cuda_graphs
                                                             once and replayed (CUDAGraph)
  compile             a chain of 12 elementwise ops          torch.compile of the chain   compile
  dataloader_workers  DataLoader, num_workers=0, CPU work    num_workers=4                dataloader_workers
                      per sample
  pinned_memory       a 64 MB pageable tensor copied in      pinned, non_blocking=True    pinned_memory
  remove_syncs        loss.item() between forward and        no .item()                   remove_syncs
                      backward
  mixed_precision     fp32 GEMMs, TF32 off                   bf16 autocast                mixed_precision
  fused_optimizer     Adam(foreach=False), 256 small params  Adam(fused=True)             fused_optimizer

usage: tests/gpu/replay_pairs.py [--gpuscope BIN] [--pairs a,b] [--steps N] [--workdir DIR]
Prints a Markdown table for doc/whatif.md. Exit 0 every pair within 15 %, 1 some pair outside it,
2 setup error, 77 no GPU. Not part of CTest: run it by hand on a GPU machine.
(Internally: replay_pairs.py --workload PAIR --variant before|after runs one workload.)"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

GOAL = 0.15
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PAIRS = ["cuda_graphs", "compile", "dataloader_workers", "pinned_memory", "remove_syncs",
         "mixed_precision", "fused_optimizer"]


# ---- the workloads: each returns (step function, optional per-step input iterator) -------------

def mlp(torch, width, depth):
    layers = []
    for _ in range(depth):
        layers += [torch.nn.Linear(width, width), torch.nn.ReLU()]
    return torch.nn.Sequential(*layers).cuda()


def make_step(torch, pair, after):
    if pair == "cuda_graphs":
        net = mlp(torch, 256, 16).eval()
        x = torch.randn(32, 256, device="cuda")
        if not after:
            return lambda: net(x)
        with torch.no_grad():
            s = torch.cuda.Stream()
            s.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(s):
                for _ in range(3):
                    net(x)
            torch.cuda.current_stream().wait_stream(s)
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g):
                net(x)
        return g.replay
    if pair == "compile":
        x = torch.randn(1 << 20, device="cuda")

        def chain(t):
            for _ in range(4):
                t = torch.sigmoid(t) * t + 0.5
            return t
        fn = torch.compile(chain) if after else chain
        return lambda: fn(x)
    if pair == "dataloader_workers":
        loader = torch.utils.data.DataLoader(CpuHeavy(), batch_size=32,
                                             num_workers=4 if after else 0)
        net = mlp(torch, 256, 4)
        batches = iter(loader)

        def step():
            nonlocal batches
            try:
                b = next(batches)
            except StopIteration:
                batches = iter(loader)
                b = next(batches)
            net(b.cuda())
        return step
    if pair == "pinned_memory":
        host = torch.randn(16 << 20)
        if after:
            host = host.pin_memory()
        w = torch.randn(4096, 4096, device="cuda")
        return lambda: (host.cuda(non_blocking=after).view(4096, 4096) @ w)
    if pair == "remove_syncs":
        net = mlp(torch, 1024, 8)
        opt = torch.optim.SGD(net.parameters(), lr=1e-3)
        x = torch.randn(256, 1024, device="cuda")

        def step():
            loss = net(x).square().mean()
            if not after:
                loss.item()
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
        return step
    if pair == "mixed_precision":
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        a = torch.randn(4096, 4096, device="cuda")
        b = torch.randn(4096, 4096, device="cuda")

        def step():
            with torch.autocast("cuda", dtype=torch.bfloat16, enabled=after):
                for _ in range(4):
                    a @ b
        return step
    if pair == "fused_optimizer":
        net = torch.nn.Sequential(*[torch.nn.Linear(64, 64) for _ in range(128)]).cuda()
        opt = torch.optim.Adam(net.parameters(), **({"fused": True} if after else {"foreach": False}))
        x = torch.randn(64, 64, device="cuda")

        def step():
            net(x).sum().backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
        return step
    raise SystemExit(f"unknown pair {pair}")


class CpuHeavy:
    """A dataset whose samples cost about 0.2 ms of Python and NumPy each (decoding, augmenting)."""

    def __len__(self):
        return 1 << 20

    def __getitem__(self, i):
        import numpy as np
        import torch
        a = np.random.default_rng(i).standard_normal((64, 64))
        for _ in range(8):
            a = np.tanh(a @ a.T / 64)
        return torch.from_numpy(a[0].astype(np.float32).repeat(4))


def run_workload(pair, variant, steps, warmup):
    """One workload's steps, timed and marked as the benchmarks' (bench/workloads/_common.py)."""
    import torch
    sys.path.insert(0, os.path.join(ROOT, "bench", "workloads"))
    from _common import run_steps
    args = argparse.Namespace(steps=steps, warmup=warmup, torch_profiler=False)
    run_steps(f"{pair}:{variant}", make_step(torch, pair, variant == "after"), args)


# ---- the driver --------------------------------------------------------------------------------

def median_ms(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])["median_step_ms"]


def speedup(gpuscope, trace, actions):
    out = subprocess.run([gpuscope, "whatif", "--format", "json", "--action", actions, trace],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)["ranks"][0]["expected_speedup"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gpuscope", default=os.environ.get("GPUSCOPE",
                                                         os.path.join(ROOT, "build", "gpuscope")))
    ap.add_argument("--pairs", default=",".join(PAIRS))
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--workdir")
    ap.add_argument("--workload", help=argparse.SUPPRESS)
    ap.add_argument("--variant", choices=["before", "after"], help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.workload:
        return run_workload(a.workload, a.variant, a.steps, a.warmup)
    try:
        has_gpu = subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode == 0
    except OSError:
        has_gpu = False
    if not has_gpu:
        print("SKIP: no GPU ('nvidia-smi -L' fails or is not installed)")
        return 77
    if not os.access(a.gpuscope, os.X_OK):
        print(f"ERROR: no gpuscope at {a.gpuscope} (--gpuscope or GPUSCOPE)")
        return 2
    work = a.workdir or tempfile.mkdtemp(prefix="replay_pairs.")
    rows, misses = [], 0
    for pair in a.pairs.split(","):
        if pair not in PAIRS:
            print(f"ERROR: unknown pair {pair} (known: {', '.join(PAIRS)})")
            return 2
        me = [sys.executable, os.path.abspath(__file__), "--workload", pair,
              "--steps", str(a.steps), "--warmup", str(a.warmup)]
        before = median_ms(me + ["--variant", "before"])
        after = median_ms(me + ["--variant", "after"])
        trace = os.path.join(work, pair + ".gst")
        subprocess.run([a.gpuscope, "run", "-f", "--python-hooks", "off", "-o", trace, "--"] + me +
                       ["--variant", "before"], check=True, capture_output=True)
        predicted = speedup(a.gpuscope, trace, pair + ",no_profiler") / \
            speedup(a.gpuscope, trace, "no_profiler")
        measured = before / after
        error = predicted / measured - 1
        misses += abs(error) > GOAL
        rows.append((pair, before, after, predicted, measured, error))
        print(f"{pair}: {before:.3f} -> {after:.3f} ms, predicted {predicted:.2f}x, measured "
              f"{measured:.2f}x ({100 * error:+.1f} %)", file=sys.stderr)
    print("| pair | step before | step after | predicted | measured | error |")
    print("|---|---:|---:|---:|---:|---:|")
    for pair, before, after, predicted, measured, error in rows:
        print(f"| `{pair}` | {before:.3f} ms | {after:.3f} ms | {predicted:.2f}x | "
              f"{measured:.2f}x | {100 * error:+.1f} % |")
    print(f"traces in {work}; {misses} of {len(rows)} pairs outside {100 * GOAL:.0f} %")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
