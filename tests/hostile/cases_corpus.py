"""Hostile stacks for the verdict corpus (tests/verdicts/README.md; run by
tests/hostile/test_hostile.py): the generated traces of tests/verdicts/stack_rewrite.py whose
names and launches no eager PyTorch step has. Every kernel of a step on one cudaGraphLaunch's
correlation id, DeepEP's templated dispatch/combine kernels as the only collectives, and a ROCm
GPU whose gfx version reads as compute capability 9.0 must be read, counted and reported, never
crash."""

import os
import sys

from hostile_case import Case

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "verdicts"))
import stack_rewrite  # noqa: E402


def generated(spec):
    def make(tmp):
        return stack_rewrite.make(spec, tmp)
    return make


def cases():
    return [
        # 12 steps of 94 kernels, each step's kernels on the correlation id of one graph launch
        Case("every kernel of a step from one cudaGraphLaunch",
             generated("compute_bound+cuda-graphs"), ["report", "{}"], 0, "", secs=10, mb=120,
             out=r"1 instantiated, 12 launched \(94\.0 kernels per launch\); 1128 of 1128 kernels "
                 r"\(100\.0 %\) ran from a graph"),
        # DeepEP's kernels are the collectives: 36 all-to-alls over the 8 ranks of the scenario
        Case("DeepEP dispatch and combine as the only collectives",
             generated("communication_bound+ep"), ["comm", "{}"], 0, "", secs=10, mb=120,
             out=r"\n\s+0\s+all_to_all\s+36\s"),
        # Triton kernels launched by the driver: of the 1280 kernels of each of the 3 kept steps,
        # the 1200 elementwise ones are driver launches (3600), none from a graph
        Case("Triton kernels launched by cuLaunchKernel",
             generated("launch_bound@ampere+compile"), ["launch", "--format", "csv", "{}"], 0, "",
             secs=10, mb=120, out=r"\n0,3,1280,[^\n]*,0,3600,0\.00,,0\n"),
    ]
