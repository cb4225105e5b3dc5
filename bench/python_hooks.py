"""What gpuscope run's Python hooks cost a PyTorch program (doc/run.md, doc/performance.md): a loop
of small CPU operators with an optimizer step per iteration and a DataLoader fetch per iteration
(what the hooks mark), timed by the program itself. Prints one JSON line: the median and the
spread of the per-iteration time over ROUNDS rounds. Run by bench/python_hooks.sh, with and without
the hooks; nothing of gpuscope in it.

    python python_hooks.py [--iters N] [--rounds R] [--ops K]
"""
import argparse
import json
import statistics
import time

import torch
from torch.utils.data import DataLoader, TensorDataset


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iters", type=int, default=200, help="iterations per round")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--ops", type=int, default=20, help="small operators per iteration")
    a = ap.parse_args()
    torch.set_num_threads(1)
    model = torch.nn.Linear(8, 8)
    opt = torch.optim.SGD(model.parameters(), lr=0.001)
    data = TensorDataset(torch.randn(a.iters, 8))
    x = torch.randn(8)
    per_iter = []
    for _ in range(a.rounds):
        loader = DataLoader(data, batch_size=1)
        t0 = time.perf_counter_ns()
        for (batch,) in loader:
            y = x
            for _ in range(a.ops):
                y = y * 1.0001 + 0.0001  # two small operators each
            opt.zero_grad()
            model(batch).sum().backward()
            opt.step()
        per_iter.append((time.perf_counter_ns() - t0) / a.iters)
    print(json.dumps({"median_ns": statistics.median(per_iter), "min_ns": min(per_iter),
                      "max_ns": max(per_iter), "ops_per_iter": 2 * a.ops}))


if __name__ == "__main__":
    main()
