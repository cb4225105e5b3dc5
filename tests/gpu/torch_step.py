#!/usr/bin/env python3
"""A few training steps of a tiny CNN on the GPU, for `gpuscope run` (tests/gpu/run_gpu_tests.sh).

    python3 torch_step.py EXPECTED.json [--steps N] [--batch B]

Each step: a batch made on the CPU (fixed seed) is copied to the GPU (pageable HtoD), forward,
loss, backward, SGD step, loss.item() (a sync), all inside
torch.cuda.nvtx.range_push("ProfilerStep#N") / range_pop(). No DataLoader workers, so the
process is the only one that touches CUDA and the run writes one trace.

EXPECTED.json gets what check_trace.py checks: N ProfilerStep#i ranges (one each) that
`gpuscope steps` finds as N steps, at least one kernel per step, and at least the batches'
bytes copied host to device.
"""

import argparse
import json
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(32)
        self.fc = nn.Linear(32 * 8 * 8, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)  # 32 -> 16
        x = F.max_pool2d(F.relu(self.bn2(self.conv2(x))), 2)  # 16 -> 8
        return self.fc(torch.flatten(x, 1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("expected", help="where to write the expected values (JSON)")
    ap.add_argument("--steps", type=int, default=6)
    ap.add_argument("--batch", type=int, default=64)
    a = ap.parse_args()

    if not torch.cuda.is_available():
        print("torch_step: torch.cuda.is_available() is False", file=sys.stderr)
        return 1
    torch.manual_seed(0)
    dev = torch.device("cuda")
    model = TinyCNN().to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    gen = torch.Generator().manual_seed(1)
    batch_bytes = 0
    losses = []
    for step in range(a.steps):
        torch.cuda.nvtx.range_push(f"ProfilerStep#{step}")
        x_cpu = torch.randn(a.batch, 3, 32, 32, generator=gen)
        y_cpu = torch.randint(0, 10, (a.batch,), generator=gen)
        batch_bytes += x_cpu.numel() * x_cpu.element_size() + y_cpu.numel() * y_cpu.element_size()
        x, y = x_cpu.to(dev), y_cpu.to(dev)
        opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
        torch.cuda.nvtx.range_pop()
    torch.cuda.synchronize()

    expected = {
        "program": "torch_step",
        "torch": torch.__version__,
        "steps": a.steps,
        "nvtx_ranges": {f"ProfilerStep#{i}": 1 for i in range(a.steps)},
        "min_kernels_total": a.steps,
        "min_copy_bytes": {"HtoD": batch_bytes},
    }
    with open(a.expected, "w") as f:
        json.dump(expected, f, indent=2)
        f.write("\n")
    print(f"torch_step: {a.steps} steps, losses {', '.join(f'{v:.3f}' for v in losses)}; "
          f"expected values in {a.expected}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
