"""Generated traces for the verdict corpus: a scenario of tests/gen/scenarios (made by
tests/gen/gen_trace.py, recorded on an H100) rewritten to another GPU generation, as
tests/gen/check_gpu_caps.py does, and to another software stack by the names its kernels and
launches carry:

  compile      elementwise and reduction kernels become Triton's (triton_poi_fused_*,
               triton_red_fused_*), launched by the driver (cuLaunchKernel), as torch.compile's
  cuda-graphs  each step's kernels come from one cudaGraphLaunch (captured once, in warm-up)
  fp8          matmul kernels become FP8 Tensor-Core GEMMs (sm90_xmma_gemm_e4m3..., cutlass3x e4m3)
  ep           the all-reduce kernels become DeepEP's dispatch and combine (expert-parallel
               all-to-all) and the collective operators c10d::alltoall_base_

spec: SCENARIO[@GPU][+STACK], GPU one of GPUS (none: no deviceProperties)."""
import gzip
import json
import os
import re

SCENARIOS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "gen",
                         "scenarios")
GPUS = {
    "pascal": ("Tesla P100-PCIE-16GB", 6, 0),
    "volta": ("Tesla V100-SXM2-32GB", 7, 0),
    "turing": ("Tesla T4", 7, 5),
    "ampere": ("NVIDIA A100-SXM4-40GB", 8, 0),
    "ada": ("NVIDIA L4", 8, 9),
    "hopper": ("NVIDIA H100 80GB HBM3", 9, 0),
    "blackwell": ("NVIDIA B200", 10, 0),
    # ROCm writes the gfx major and minor as computeMajor/Minor: gfx90a reads 9.0, as Hopper's
    "mi250": ("AMD Instinct MI250X / MI250", 9, 0),
    "none": None,
}
ELEMENTWISE = re.compile(r"elementwise|layer_norm|softmax|nll_loss|multi_tensor_apply", re.I)
REDUCTION = re.compile(r"reduce|norm|softmax|nll_loss", re.I)
GEMM = re.compile(r"gemm|sgemm", re.I)
FP8_GEMMS = ("sm90_xmma_gemm_e4m3bf16_e4m3f32_f32_tn_n_tilesize128x128x128_warpgroupsize1x1x1"
             "_execute_segment_k_off_kernel__5x_cublas",
             "void cutlass::device_kernel<cutlass3x_sm90_tensorop_gemm_e4m3_e4m3_f32_bf16_bf16"
             "_128x128x128_1x1x1_0_tnn_align16_warpspecialized_cooperative_epi_tma>"
             "(cutlass3x_sm90_tensorop_gemm_e4m3_e4m3_f32_bf16_bf16_128x128x128_1x1x1_0_tnn"
             "_align16_warpspecialized_cooperative_epi_tma::Params)")
DEEP_EP = ("void deep_ep::internode::dispatch<true, 8, 16, 2, 24, 8>(int4*, float*, int*, "
           "long*, float*, int*, int*, int*, int*, void*, int const*, int, int, int, int, int, "
           "int, int, int, int, bool)",
           "void deep_ep::internode::combine<__nv_bfloat16, 8, 16, 2, 24, 8>(int4*, float*, "
           "int const*, bool const*, void const*, int const*, int const*, int const*, int, int, "
           "int, int, int, int, int, int, int)")


def correlation(e):
    return (e.get("args") or {}).get("correlation")


def to_compile(events):
    names, launches = {}, set()
    for e in events:
        if e.get("cat") == "kernel" and ELEMENTWISE.search(e["name"]):
            kind = "red" if REDUCTION.search(e["name"]) else "poi"
            names.setdefault(e["name"], f"triton_{kind}_fused_{len(names)}")
            e["name"] = names[e["name"]]
            launches.add(correlation(e))
    for e in events:
        if e.get("name") == "cudaLaunchKernel" and correlation(e) in launches:
            e["name"], e["cat"] = "cuLaunchKernel", "cuda_driver"


def step_of(e, steps):
    return next((i for i, (lo, hi) in enumerate(steps) if lo <= e["ts"] < hi), None)


def to_cuda_graphs(events):
    steps = [(e["ts"], e["ts"] + e["dur"]) for e in events
             if e.get("ph") == "X" and e["name"].startswith("ProfilerStep#")]
    kept, dropped = {}, {}
    for e in events:
        if e.get("name") in ("cudaLaunchKernel", "cudaLaunchKernelExC"):
            s = step_of(e, steps)
            if s is None:
                continue
            if s in kept:
                dropped[correlation(e)] = correlation(kept[s])
            else:
                kept[s] = e
                e["name"] = "cudaGraphLaunch"
    first = min(steps)[0]
    out = [e for e in events if not (e.get("cat") == "ac2g" and e.get("id") in dropped)
           and not (e.get("cat") == "cuda_runtime" and correlation(e) in dropped)]
    for e in out:
        if e.get("cat") == "kernel" and correlation(e) in dropped:
            e["args"]["correlation"] = dropped[correlation(e)]
    capture = dict(kept[0], name="cudaGraphInstantiateWithFlags", ts=first - 2000, dur=900,
                   args={"correlation": 999999999})
    return out + [capture]


def to_fp8(events):
    names = {}
    for e in events:
        if e.get("cat") == "kernel" and GEMM.search(e["name"]):
            names.setdefault(e["name"], FP8_GEMMS[len(names) % len(FP8_GEMMS)])
            e["name"] = names[e["name"]]


def to_ep(events):
    n = 0
    for e in events:
        if e.get("cat") == "kernel" and e["name"].startswith("ncclDevKernel_AllReduce"):
            e["name"], n = DEEP_EP[n % 2], n + 1
        elif e.get("name") == "c10d::allreduce_":
            e["name"] = "c10d::alltoall_base_"
        elif e.get("name") == "nccl:all_reduce":
            e["name"] = "nccl:all_to_all"


STACKS = {"eager": None, "compile": to_compile, "cuda-graphs": to_cuda_graphs, "fp8": to_fp8,
          "ep": to_ep}


def make(spec, tmp):
    """Writes the trace spec names into tmp; returns its path."""
    m = re.fullmatch(r"([a-z_]+)(?:@([a-z0-9]+))?(?:\+([a-z0-9-]+))?", spec)
    if not m or (m.group(2) or "hopper") not in GPUS or (m.group(3) or "eager") not in STACKS:
        raise ValueError(f"gen:{spec}: not SCENARIO[@{'|'.join(GPUS)}][+{'|'.join(STACKS)}]")
    scenario, gpu, stack = m.group(1), m.group(2), m.group(3) or "eager"
    with gzip.open(os.path.join(SCENARIOS, scenario + ".json.gz"), "rt") as f:
        doc = json.load(f)
    if gpu == "none":
        doc.pop("deviceProperties", None)
    elif gpu:
        for d in doc.get("deviceProperties", []):
            d["name"], d["computeMajor"], d["computeMinor"] = GPUS[gpu]
    if STACKS[stack]:
        doc["traceEvents"] = STACKS[stack](doc["traceEvents"]) or doc["traceEvents"]
    path = os.path.join(tmp, f"{scenario}_{gpu or 'hopper'}_{stack}.json")
    with open(path, "w") as f:
        json.dump(doc, f)
    return path
