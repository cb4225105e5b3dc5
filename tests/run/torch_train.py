"""A small training loop with nothing of gpuscope in it, for tests/cli/test_torch_hooks.sh and
bench/python_hooks.sh: a tiny model, SGD, and a DataLoader whose dataset sleeps a planted time per
item. It measures itself what gpuscope's hooks should find: the steps (from the first batch fetch
to each optimizer step's end, doc/run.md) and the time spent waiting for batches, and writes them
as JSON to --truth.

    python torch_train.py --workers 2 --steps 8 --fetch-ms 20 --compute-ms 20 --truth t.json
"""
import argparse
import json
import time

import torch
from torch.utils.data import DataLoader, Dataset

BATCH = 4


class SleepyDataset(Dataset):
    def __init__(self, n, item_s):
        self.n, self.item_s = n, item_s

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        time.sleep(self.item_s)
        return torch.full((16,), float(i)), torch.ones(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, default=0)
    ap.add_argument("--steps", type=int, default=8)
    ap.add_argument("--fetch-ms", type=float, default=20.0, help="planted sleep per batch")
    ap.add_argument("--compute-ms", type=float, default=20.0, help="planted host time per step")
    ap.add_argument("--truth")
    a = ap.parse_args()
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    ds = SleepyDataset(a.steps * BATCH, a.fetch_ms / 1000 / BATCH)
    loader = DataLoader(ds, batch_size=BATCH, num_workers=a.workers)
    it = iter(loader)
    fetch_ns, step_ns = [], []
    start = time.time_ns()
    for _ in range(a.steps):
        t0 = time.time_ns()
        x, y = next(it)
        fetch_ns.append(time.time_ns() - t0)
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        time.sleep(a.compute_ms / 1000)
        opt.step()
        end = time.time_ns()
        step_ns.append(end - start)
        start = end
    del it
    print("iterations", len(step_ns))
    if a.truth:
        with open(a.truth, "w") as f:
            json.dump({"steps": len(step_ns), "step_ns": step_ns, "fetch_ns": fetch_ns,
                       "dataloader_share": sum(fetch_ns) / sum(step_ns)}, f)


if __name__ == "__main__":
    main()
