#!/usr/bin/env python3
"""The advice fits the GPU (doc/diagnosis.md, "What the GPU can run"): the generated scenarios
tensor_cores_unused (fp32 matmuls without Tensor Cores) and compute_bound (fp32, GPU saturated)
of tests/gen/scenarios/, recorded on an H100, are rewritten to each GPU generation by their
deviceProperties (compute capability and name) or with none, and `report --format json` must
give the actions that GPU can run and none that it cannot:

  7.0 Volta, 7.5 Turing  autocast float16 with GradScaler; never bfloat16, TF32 or FP8
  8.0 Ampere            autocast bfloat16 and TF32; never float16-only advice or FP8
  9.0 Hopper            bfloat16, TF32, and FP8 (Transformer Engine / torchao) where compute-bound
  6.0 Pascal            no Tensor Cores: no mixed-precision advice at all
  no deviceProperties   the advice says what it depends on (Ampere or later / Volta/Turing)

usage: check_gpu_caps.py GPUSCOPE
Exit 0 all passed, 1 some failed."""
import gzip
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
failures = []

GPUS = {
    "volta": ("Tesla V100-SXM2-32GB", 7, 0),
    "turing": ("Tesla T4", 7, 5),
    "ampere": ("NVIDIA A100-SXM4-40GB", 8, 0),
    "hopper": ("NVIDIA H100 80GB HBM3", 9, 0),
    "pascal": ("Tesla P100-PCIE-16GB", 6, 0),
    "unknown": None,
}

BF16 = 'torch.autocast("cuda", dtype=torch.bfloat16) around'
TF32 = "torch.backends.cuda.matmul.allow_tf32 = True and"
FP16 = 'torch.autocast("cuda", dtype=torch.float16) around'
BY_GPU = "mixed precision, by GPU: on Ampere or later"
BF16_COMPUTE = "mixed precision (torch.autocast with bfloat16) so matmuls"
FP16_COMPUTE = "mixed precision (torch.autocast with float16; torch.amp.GradScaler"
BY_GPU_COMPUTE = "mixed precision so matmuls and convolutions use Tensor Cores: on Ampere"
FP8 = "Transformer Engine"

# scenario -> gpu -> (the finding whose actions are read, actions that must appear (prefixes),
# words no action of the whole verdict may hold)
EXPECT = {
    "tensor_cores_unused": {
        "volta": ("tensor_cores_unused", [FP16], ["bfloat16", "allow_tf32", "TF32", FP8]),
        "turing": ("tensor_cores_unused", [FP16], ["bfloat16", "allow_tf32", "TF32", FP8]),
        "ampere": ("tensor_cores_unused", ["mixed precision: " + BF16, "for fp32: " + TF32],
                   ["dtype=torch.float16", FP8, BY_GPU]),
        "hopper": ("tensor_cores_unused", ["mixed precision: " + BF16, "for fp32: " + TF32],
                   ["dtype=torch.float16", BY_GPU]),
        "unknown": ("tensor_cores_unused", [BY_GPU], ["mixed precision: " + BF16, "for fp32: "]),
    },
    "compute_bound": {
        "volta": ("compute_bound", [FP16_COMPUTE], ["bfloat16", "TF32", "allow_tf32", FP8]),
        "turing": ("compute_bound", [FP16_COMPUTE], ["bfloat16", "TF32", "allow_tf32", FP8]),
        "ampere": ("compute_bound", [BF16_COMPUTE], [FP16_COMPUTE, FP8, BY_GPU_COMPUTE]),
        "hopper": ("compute_bound", [BF16_COMPUTE, "FP8 for the largest matmuls: " + FP8],
                   [FP16_COMPUTE, BY_GPU_COMPUTE]),
        "pascal": ("compute_bound", [], ["autocast", "TF32", FP8, "Tensor Cores unused"]),
        "unknown": ("compute_bound", [BY_GPU_COMPUTE], [BF16_COMPUTE, FP16_COMPUTE, FP8]),
    },
}


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


def rewrite(trace, gpu, path):
    with gzip.open(trace, "rt") as f:
        doc = json.load(f)
    if gpu is None:
        doc.pop("deviceProperties", None)
    else:
        for d in doc.get("deviceProperties", []):
            d["name"], d["computeMajor"], d["computeMinor"] = gpu
    with open(path, "w") as f:
        json.dump(doc, f)


def main():
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        for scenario, gpus in EXPECT.items():
            trace = os.path.join(HERE, "scenarios", scenario + ".json.gz")
            for gpu, (cls, must, never) in gpus.items():
                path = os.path.join(tmp, f"{scenario}_{gpu}.json")
                rewrite(trace, GPUS[gpu], path)
                out = subprocess.run([exe, "report", "--format", "json", path],
                                     capture_output=True, text=True)
                what = f"{scenario} on {gpu}"
                if out.returncode != 0:
                    check(False, f"{what}: exit {out.returncode}: {out.stderr.strip()}")
                    continue
                verdict = json.loads(out.stdout)["diagnosis"][0]["verdict"]
                finding = next((v for v in verdict if v["class"] == cls), None)
                check(finding is not None,
                      f"{what}: {cls} fires ({[v['class'] for v in verdict]})")
                actions = finding["actions"] if finding else []
                for m in must:
                    check(any(a.startswith(m) or m in a for a in actions),
                          f"{what}: an action says {m!r}")
                every = [a for v in verdict for a in v["actions"]] + [v["title"] for v in verdict]
                for n in never:
                    bad = [a for a in every if n in a]
                    check(not bad, f"{what}: no action says {n!r} {bad[:1]}")
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
