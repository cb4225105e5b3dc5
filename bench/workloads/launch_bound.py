#!/usr/bin/env python3
"""A launch-bound step: many tiny kernels (in-place adds and muls on a small tensor), the worst
case for a profiler's per-kernel cost. Prints its median step time as one JSON line.

    python3 bench/workloads/launch_bound.py [--ops 2000] [--numel 1024] [--steps 30]
                                            [--warmup 10] [--torch-profiler]
"""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import parser, run_steps  # noqa: E402


def main():
    ap = parser(__doc__.split("\n\n")[0])
    ap.add_argument("--ops", type=int, default=2000, help="kernels per step")
    ap.add_argument("--numel", type=int, default=1024, help="tensor size")
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    if not torch.cuda.is_available():
        raise SystemExit("launch_bound: torch.cuda.is_available() is False")
    x = torch.randn(a.numel, device="cuda")
    y = torch.randn(a.numel, device="cuda")

    def step():
        for i in range(a.ops // 2):
            x.add_(y)
            x.mul_(0.5)

    run_steps("launch_bound", step, a)


if __name__ == "__main__":
    main()
