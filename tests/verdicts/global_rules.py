"""What no verdict may advise, whatever the case expects (tests/verdicts/README.md): an action
the GPU cannot run (doc/diagnosis.md, "What the GPU can run": bf16 and TF32 from compute
capability 8.0, FP8 from 8.9, FP4 from 10.0, no Tensor Cores before 7.0; FP8 and FP4 never on a
GPU the trace does not name), a workload read wrong, training-only advice on inference, pipeline
advice without send/recv, channels_last without a convolution. An AMD GPU is read by its GFX
version: gfx942 (MI300) takes bf16 and FP8 on its matrix cores, not TF32; gfx90a (MI200) is
judged as a GPU the trace does not name."""
import re

# (words an action may not hold, the compute capability that can run them); matched without case
GPU_WORDS = (
    (("bfloat16", "bf16", "tf32"), 8.0),
    (("fp8", "float8", "transformer engine", "e4m3"), 8.9),
    (("fp4", "mxfp"), 10.0),
    (("autocast", "tensor core", "tensor-core", "gradscaler"), 7.0),
    (("torch.compile",), 7.0),  # Inductor's Triton kernels: "CUDA Capability >= 7.0"
)
# What only a training step has: optimizers, gradients, loss scaling, DDP's buckets, activation
# checkpointing, and any action that says it is for training.
TRAINING_WORDS = ("optimizer", "foreach=true", "fused=true", "gradient", "gradscaler",
                  "bucket_cap_mb", "no_sync", "backward", "activation checkpointing", "training")
PIPELINE_WORDS = ("pipeline bubble", "interleaved schedule")
SEND_RECV = re.compile(r"sendrecv|send|recv", re.I)
CONV = re.compile(r"conv|fprop|dgrad|wgrad|implicit_gemm|winograd", re.I)
CC = re.compile(r"\b(\d+\.\d+)\b")


# The NVIDIA capability whose advice an AMD GPU's matrix cores can take, by GFX version, with the
# words that capability allows but the AMD GPU does not (doc/diagnosis.md, AMD's rows).
AMD_AS = {"gfx942": (8.9, ("tf32",)), "gfx950": (10.0, ("tf32",))}


def compute_capability(gpu):
    """The case's "gpu" ("Volta 7.0", "NVIDIA H100 9.0") as a number; None when not a GPU with a
    known compute capability (MTIA, unknown, an AMD GPU not in AMD_AS)."""
    if gpu.startswith("AMD"):
        return next((cc for arch, (cc, _) in AMD_AS.items() if arch in gpu), None)
    m = CC.search(gpu)
    return float(m.group(1)) if m and not gpu.startswith(("MTIA", "unknown")) else None


def amd_problems(gpu, actions):
    lacks = next((words for arch, (_, words) in AMD_AS.items() if arch in gpu), ())
    return [f"global: {w!r} on {gpu}: {a[:80]!r}" for a in actions for w in lacks
            if w in a.lower()]


def gpu_problems(cc, actions):
    problems = []
    for words, needs in GPU_WORDS:
        if cc is not None and cc >= needs:
            continue
        if cc is None and needs < 8.9:
            continue            # an unknown GPU is told what the advice depends on
        for a in actions:
            hit = next((w for w in words if w in a.lower()), None)
            if hit:
                problems.append(f"global: {hit!r} on a GPU of compute capability "
                                f"{cc if cc is not None else 'unknown'}: {a[:80]!r}")
    return problems


def workload_problems(case, diag):
    """The workload the report says it read (its context) is the case's: training, inference
    that does not decode, or inference that decodes (the context's "decode")."""
    context = diag.get("context") or {}
    said = context.get("workload")
    if said is None:
        return []
    if said == "inference" and context.get("decode"):
        said = "decode"
    if said == case["workload"]:
        return []
    return [f"global: the report reads the workload as {said}, the trace is {case['workload']}"]


def global_problems(case, diag, kernels_csv):
    actions = [a for f in diag["verdict"] for a in f["actions"]]
    problems = gpu_problems(compute_capability(case["gpu"]), actions)
    problems += amd_problems(case["gpu"], actions)
    problems += workload_problems(case, diag)
    if case["workload"] in ("inference", "decode"):
        for a in actions:
            hit = next((w for w in TRAINING_WORDS if w in a.lower()), None)
            if hit:
                problems.append(f"global: training advice ({hit!r}) on {case['workload']}: "
                                f"{a[:80]!r}")
    if not SEND_RECV.search(kernels_csv):
        problems += [f"global: pipeline advice without send/recv: {a[:80]!r}" for a in actions
                     if any(w in a.lower() for w in PIPELINE_WORDS)]
    if not CONV.search(kernels_csv):
        problems += [f"global: channels_last without a convolution: {a[:80]!r}"
                     for a in actions if "channels_last" in a]
    return problems
