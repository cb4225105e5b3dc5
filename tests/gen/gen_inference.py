#!/usr/bin/env python3
"""Inference traces with known answers (torch.profiler's Kineto JSON on one H100), for
tests/gen/check_inference.py:

- `inference`: a launch-bound bf16 forward loop (a small model, ~260 tiny kernels per step, each
  behind a ~6 us launch), no backward pass; its own record_function ranges hold the letters of
  "optimizer" (`kv_cache_optimizer.prepare`) and its kernels PyTorch's lambdas, which once made it
  "training".
- `decode_new_shapes`: two generate() calls of 16 tokens each, one ProfilerStep#N per token.
  Attention runs vLLM's paged_attention kernel over a KV cache that grows by one token per step,
  so every token of the first call meets a new shape (aten::bmm's input dims) and pays a
  first-use cost on the host with no CUDA call (lazy loading, heuristics: 4x the token's own
  time); the second call meets only shapes seen before. The answers say which steps met new
  shapes and what they cost, computed from the timeline written here.

usage: gen_inference.py OUTDIR  (writes NAME.json and NAME.answers.json for each)
"""
import json
import os
import sys

H100 = {"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85045339648,
        "computeMajor": 9, "computeMinor": 0, "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,
        "regsPerBlock": 65536, "regsPerMultiprocessor": 65536, "warpSize": 32,
        "sharedMemPerBlock": 49152, "sharedMemPerMultiprocessor": 233472, "numSms": 132,
        "sharedMemPerBlockOptin": 232448}

K_GEMM = ("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment"
          "_k_off_kernel__5x_cublas")
K_GELU = ("void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, "
          "at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::"
          "{lambda(c10::BFloat16)#1}, at::detail::Array<char*, 2> >(int, ...)")
K_PAGED = ("void vllm::paged_attention_v1_kernel<__nv_bfloat16, __nv_bfloat16, 128, 16, 128, "
           "(vllm::Fp8KVCacheDataType)0, false>(__nv_bfloat16*, __nv_bfloat16 const*, ...)")

STREAM = 7


class Timeline:
    """Host events on one thread and kernels on one stream, in ns; written in us."""

    def __init__(self):
        self.events = []
        self.t = 1_000_000  # host cursor, ns
        self.gpu_free = 0
        self.corr = 1
        self.ext = 1

    def x(self, cat, name, start, dur, args=None, pid=1, tid=1):
        ev = {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
              "ts": start / 1000.0, "dur": dur / 1000.0}
        if args:
            ev["args"] = args
        self.events.append(ev)
        return ev

    def op(self, name, kernel, kernel_ns, dims=None, host_ns=0):
        """An operator: host_ns of its own work (no CUDA call), then one launch."""
        start, ext = self.t, self.ext
        self.ext += 1
        self.t += 2_000 + host_ns
        launch = self.t
        self.t += 6_000  # cudaLaunchKernel
        self.x("cuda_runtime", "cudaLaunchKernel", launch, 6_000,
               {"External id": ext, "correlation": self.corr})
        k_start = max(launch + 3_000, self.gpu_free + 1_000)
        self.x("kernel", kernel, k_start, kernel_ns,
               {"External id": ext, "correlation": self.corr, "device": 0, "stream": STREAM,
                "context": 1, "grid": [132, 1, 1], "block": [128, 1, 1]}, pid=0, tid=STREAM)
        self.gpu_free = k_start + kernel_ns
        self.corr += 1
        self.t += 1_000
        args = {"External id": ext}
        if dims is not None:
            args["Input Dims"] = dims
            args["Input type"] = ["c10::BFloat16"] * len(dims)
        self.x("cpu_op", name, start, self.t - start, args)

    def sync(self):
        """cudaDeviceSynchronize: returns when the stream is idle."""
        start = self.t
        end = max(start + 3_000, self.gpu_free + 2_000)
        self.x("cuda_runtime", "cudaDeviceSynchronize", start, end - start,
               {"correlation": self.corr})
        self.corr += 1
        self.t = end + 1_000

    def step(self, n, body):
        start = self.t
        body()
        self.x("user_annotation", "ProfilerStep#%d" % n, start, self.t - start)
        dur = self.t - start
        self.t += 5_000
        return dur

    def write(self, path):
        doc = {"schemaVersion": 1, "deviceProperties": [H100], "traceEvents": self.events}
        with open(path, "w") as f:
            json.dump(doc, f)


def inference(out):
    tl = Timeline()

    def forward():
        start = tl.t
        tl.t += 20_000
        tl.x("user_annotation", "kv_cache_optimizer.prepare", start, 20_000)
        for layer in range(26):
            tl.op("aten::addmm", K_GEMM, 4_000, [[64, 512], [64, 512], [512, 512]])
            for _ in range(9):
                tl.op("aten::gelu", K_GELU, 2_500, [[64, 512]])
        tl.sync()

    for n in range(8):
        tl.step(n, forward)
    tl.write(os.path.join(out, "inference.json"))
    return {"workload": "inference", "decode": False, "verdict_has": "launch_bound",
            "gives": {"launch_bound": ["batch requests together"]},
            "never": ["fused optimizers", "GradScaler", "convert_to_float8_training",
                      "raise the batch size", "micro-batch", "checkpointing"]}


def decode_new_shapes(out, tokens=16, prompt=128, first_use_factor=4.0):
    tl = Timeline()
    seen = set()
    durations = []  # per step: (duration ns, met a new shape)

    def token(length):
        def body():
            new = length not in seen
            seen.add(length)
            own = 200_000  # a token's time: its launches, small kernels and sampling
            tl.op("aten::mm", K_GEMM, 40_000, [[1, 4096], [4096, 4096]])
            # the first use of this length: host time without a CUDA call
            tl.op("aten::bmm", K_PAGED, 30_000, [[32, 1, 128], [32, 128, length]],
                  host_ns=int(first_use_factor * own) if new else 0)
            tl.op("aten::mm", K_GEMM, 40_000, [[1, 4096], [4096, 4096]])
            tl.t += 150_000  # sampling
            tl.sync()
            return new
        return body

    n = 0
    for _ in range(2):  # two generate() calls over the same lengths
        for t in range(tokens):
            length = prompt + t
            new = length not in seen
            durations.append((tl.step(n, token(length)), new))
            n += 1
    tl.write(os.path.join(out, "decode_new_shapes.json"))

    compared = durations[1:]  # the first step is new in everything
    new = [d for d, is_new in compared if is_new]
    old = sorted(d for d, is_new in compared if not is_new)
    med = old[(len(old) - 1) // 2]
    extra = sum(max(0, d - med) for d in new)
    return {"workload": "inference", "decode": True, "first": "first_use_per_shape",
            "not_fired": ["warmup"],
            "inputs": {"steps_compared": len(compared), "first_use_steps": len(new),
                       "new_shape_steps": len(new), "code_load_steps": 0,
                       "seen_step_ns": med},
            "extra_per_step_ns": extra // len(compared),
            "gives": {"first_use_per_shape": ["keep input shapes static", "static KV cache",
                                              "warm every shape"]},
            "never": ["fused optimizers", "GradScaler", "CUDA_MODULE_LOADING"]}


SCENARIOS = {"inference": inference, "decode_new_shapes": decode_new_shapes}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, make in SCENARIOS.items():
        with open(os.path.join(out, name + ".answers.json"), "w") as f:
            json.dump(make(out), f, indent=1)


if __name__ == "__main__":
    main()
