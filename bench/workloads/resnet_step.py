#!/usr/bin/env python3
"""A ResNet-18-style training step (defined here: torchvision is not needed) on random data with
a fixed seed: a batch copied from pinned CPU memory, forward, cross-entropy, backward, SGD with
momentum. Prints its median step time as one JSON line.

    python3 bench/workloads/resnet_step.py [--batch 64] [--size 112] [--steps 30] [--warmup 10]
                                           [--torch-profiler]
"""

import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import parser, run_steps  # noqa: E402


class Block(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.c1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.b1 = nn.BatchNorm2d(cout)
        self.c2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.b2 = nn.BatchNorm2d(cout)
        self.down = None
        if stride != 1 or cin != cout:
            self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                      nn.BatchNorm2d(cout))

    def forward(self, x):
        out = F.relu(self.b1(self.c1(x)))
        out = self.b2(self.c2(out))
        return F.relu(out + (x if self.down is None else self.down(x)))


class ResNet18ish(nn.Module):
    def __init__(self, classes=1000):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64),
                                  nn.ReLU(inplace=True), nn.MaxPool2d(3, 2, 1))
        layers, cin = [], 64
        for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
            layers += [Block(cin, cout, stride), Block(cout, cout, 1)]
            cin = cout
        self.layers = nn.Sequential(*layers)
        self.fc = nn.Linear(512, classes)

    def forward(self, x):
        x = self.layers(self.stem(x))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


def main():
    ap = parser(__doc__.split("\n\n")[0])
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--size", type=int, default=112, help="image height and width")
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    if not torch.cuda.is_available():
        raise SystemExit("resnet_step: torch.cuda.is_available() is False")
    dev = torch.device("cuda")
    model = ResNet18ish().to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x_cpu = torch.randn(a.batch, 3, a.size, a.size).pin_memory()
    y_cpu = torch.randint(0, 1000, (a.batch,)).pin_memory()

    def step():
        x = x_cpu.to(dev, non_blocking=True)
        y = y_cpu.to(dev, non_blocking=True)
        opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()

    run_steps("resnet_step", step, a)


if __name__ == "__main__":
    main()
