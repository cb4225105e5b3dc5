#!/usr/bin/env python3
"""Two synthetic PyTorch-profiler (Kineto, modern dialect) traces of the same small training loop,
BASE and NEW, with known differences, for `gpuscope diff`:

  - NEW's GEMM kernel is slower: NEW's step is about --slowdown % longer (default 20);
  - the Triton kernel was renamed (triton_poi_fused_add_0 -> triton_poi_fused_add_1), same launch
    shape: diff must pair them by shape;
  - aten::dropout and its kernel are gone from NEW (removed); aten::layer_norm and its kernel are
    new (added);
  - NEW allocates 500 MB more per step: peak allocated and reserved grow by 500 MB.

Every step: the ops launch their kernels one after another (cudaLaunchKernel inside each op),
then cudaDeviceSynchronize waits for the GPU; so a step lasts as long as its GPU work. Kernel
durations carry +-2 % of seeded noise; step 1 is a 3x slower warm-up step.

With --pair collectors, the same loop twice with the same GPU work, recorded differently: NEW
under record_shapes and with_stack, whose Python function events (PY_EVENTS a step, PY_EVENT_NS
apart) hold the host back before the step's first launch, so NEW's step is longer by what the
profiler itself costs, and no kernel changed. Its answers add each side's GPU work per kept step
and the profiler's own host time per kept step at the unit costs of doc/diagnosis.md.

Writes OUT/base.json, OUT/new.json and OUT/answers.json (the kept steps' durations, their
nearest-rank medians and change, the kernels per kept step, the memory peaks), computed from the
timeline, never from the written text. SYNTHETIC: no GPU ran it. Python 3 standard library only;
deterministic for given options.
"""

import argparse
import json
import math
import os
import random

BASE_NS = 1751410836000000000
PID, TID, DEVICE, STREAM = 4242, 4242, 0, 7
MB = 1000 * 1000

GEMM = "sm90_xmma_gemm_f32f32_tf32f32_f32_nt_n_tilesize128x128x32_warpgroupsize1x1x1_execute_kernel"
H100 = {"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85018279936, "computeMajor": 9,
        "computeMinor": 0, "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,
        "regsPerBlock": 65536, "warpSize": 32, "sharedMemPerBlock": 49152, "numSms": 132,
        "regsPerMultiprocessor": 65536, "sharedMemPerBlockOptin": 232448,
        "sharedMemPerMultiprocessor": 233472}

# (operator, kernel, grid, block, nominal kernel ns) in launch order; None = absent on that side.
def model(side, gemm_ns):
    rows = [
        ("aten::mm", GEMM, (128, 1, 1), (256, 1, 1), gemm_ns),
        ("aten::relu", "void at::native::vectorized_elementwise_kernel<4, relu>", (64, 1, 1),
         (128, 1, 1), 2000000),
        ("aten::_softmax", "void softmax_warp_forward<float, float, float, 4>", (96, 1, 1),
         (128, 1, 1), 1000000),
        ("CompiledFunction", "triton_poi_fused_add_0" if side == "base" else "triton_poi_fused_add_1",
         (32, 1, 1), (64, 1, 1), 500000),
    ]
    if side == "base":
        rows.append(("aten::dropout", "void fused_dropout_kernel<float>", (16, 1, 1), (512, 1, 1),
                     300000))
    else:
        rows.append(("aten::layer_norm", "void layer_norm_kernel<float>", (8, 1, 1), (1024, 1, 1),
                     200000))
    return rows


def us(ns):
    """Relative microseconds with 3 decimals, as PyTorch >= 2.4 writes them."""
    return "%d.%03d" % (ns // 1000, ns % 1000)


class Trace:
    def __init__(self):
        self.events = []
        self.ext = 0
        self.corr = 0

    def x(self, cat, name, pid, tid, start, dur, args):
        self.events.append('{"ph": "X", "cat": "%s", "name": %s, "pid": %d, "tid": %d, "ts": %s, '
                           '"dur": %s, "args": %s}' % (cat, json.dumps(name), pid, tid, us(start),
                                                       us(dur), json.dumps(args)))

    def memory(self, ts, nbytes, allocated, reserved, addr):
        self.events.append('{"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", '
                           '"pid": %d, "tid": %d, "ts": %s, "args": %s}'
                           % (PID, TID, us(ts), json.dumps({
                               "Total Reserved": reserved, "Total Allocated": allocated,
                               "Bytes": nbytes, "Addr": addr, "Device Id": DEVICE,
                               "Device Type": 1})))

    def next_ext(self):
        self.ext += 1
        return self.ext


# --pair collectors: NEW's Python function events a step, each this long with the gap after it;
# and the unit costs of doc/diagnosis.md ("The profiler's own cost") they are estimated at.
PY_EVENTS, PY_EVENT_NS, PY_GAP_NS = 200, 6000, 500
COST_TORCH_OP_NS, COST_PYTHON_EVENT_NS, COST_CUDA_ACTIVITY_NS = 2050, 6500, 6150


def build(side, steps, slowdown, seed, collectors=False):
    """The trace text and its answers. collectors: the --pair collectors loop (the same GPU work
    on both sides; NEW recorded with shapes and Python stacks)."""
    rng = random.Random("%s-%d" % (side, seed))
    stacks = collectors and side == "new"
    if collectors:
        side = "base"  # the same operators, kernels and memory on both sides
    base_step = 5000000 + 2000000 + 1000000 + 500000 + 300000
    gemm_ns = 5000000 if side == "base" else 5000000 + int(round(base_step * slowdown / 100.0))
    tr = Trace()
    t = 1000000  # 1 ms after the trace origin
    static, reserved0 = 500 * MB, 2000 * MB
    per_step = 1000 * MB if side == "base" else 1500 * MB
    answers = {"steps": [], "kernels": {}, "peak_allocated": static + per_step,
               "peak_reserved": reserved0 + (0 if side == "base" else 500 * MB),
               "gpu_work": [], "own_ns": 0}
    python_id = 0
    tr.memory(t - 500000, static, static, reserved0, 0x7f0000000000)
    for k in range(1, steps + 1):
        warm = 3.0 if k == 1 else 1.0
        step_start = t
        step_ext = tr.next_ext()
        host = t + 20000
        reserved = answers["peak_reserved"]
        tr.memory(host, per_step, static + per_step, reserved, 0x7f1000000000)
        for _ in range(PY_EVENTS if stacks else 0):
            python_id += 1
            tr.x("python_function", "train.py(%d): forward" % (10 + python_id % 7), PID, TID, host,
                 PY_EVENT_NS, {"Python id": python_id, "Python parent id": 0})
            host += PY_EVENT_NS + PY_GAP_NS
        gpu_free = host
        gpu_work = 0
        launched = model(side, gemm_ns)
        for op, kernel, grid, block, nominal in launched:
            ext = tr.next_ext()
            tr.corr += 1
            op_start, launch_start = host, host + 3000
            launch_end = launch_start + 5000
            op_end = launch_end + 2000
            dur = int(round(nominal * warm * (1 + rng.uniform(-0.02, 0.02))))
            kstart = max(gpu_free + 1500, launch_end + 4000)
            op_args = {"External id": ext, "Record function id": 0}
            if stacks:
                op_args["Input Dims"] = [[64, 64], [64, 64]]
            tr.x("cpu_op", op, PID, TID, op_start, op_end - op_start, op_args)
            tr.x("cuda_runtime", "cudaLaunchKernel", PID, TID, launch_start,
                 launch_end - launch_start, {"External id": ext, "cbid": 211,
                                             "correlation": tr.corr})
            tr.x("kernel", kernel, DEVICE, STREAM, kstart, dur,
                 {"External id": ext, "queued": 0, "device": DEVICE, "context": 1,
                  "stream": STREAM, "correlation": tr.corr, "registers per thread": 64,
                  "shared memory": 0, "blocks per SM": 0.5, "warps per SM": 4.0,
                  "grid": list(grid), "block": list(block), "est. achieved occupancy %": 6})
            gpu_free = kstart + dur
            gpu_work += dur
            host = op_end + 1000
            if k > 1:
                a = answers["kernels"].setdefault(kernel, {"count": 0, "total_ns": 0})
                a["count"] += 1
                a["total_ns"] += dur
        tr.corr += 1
        sync_start, sync_end = host, gpu_free + 3000
        tr.x("cuda_runtime", "cudaDeviceSynchronize", PID, TID, sync_start, sync_end - sync_start,
             {"External id": 0, "cbid": 165, "correlation": tr.corr})
        tr.memory(sync_end + 1000, -per_step, static, reserved, 0x7f1000000000)
        step_end = sync_end + 5000
        tr.x("user_annotation", "ProfilerStep#%d" % k, PID, TID, step_start, step_end - step_start,
             {"External id": step_ext, "Record function id": 0})
        if k > 1:
            answers["steps"].append(step_end - step_start)
            answers["gpu_work"].append(gpu_work)
            # each operator; each kernel at most its launch call (5 us); each Python event
            answers["own_ns"] += len(launched) * (COST_TORCH_OP_NS + min(COST_CUDA_ACTIVITY_NS, 5000))
            answers["own_ns"] += (PY_EVENTS if stacks else 0) * COST_PYTHON_EVENT_NS
        t = step_end + 50000
    head = {"schemaVersion": 1, "deviceProperties": [H100],
            "synthetic": "SYNTHETIC trace written by gpuscope tests/gen/gen_diff_pair.py; "
                         "no GPU ran it",
            "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 1},
            "displayTimeUnit": "ms", "baseTimeNanoseconds": BASE_NS}
    text = json.dumps(head, indent=1)[:-2] + ',\n "traceEvents": [\n' + ",\n".join(tr.events) + "\n]}\n"
    return text, answers


def nearest_rank_median(v):
    s = sorted(v)
    return s[max(1, math.ceil(0.5 * len(s))) - 1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--output", required=True, help="folder for base.json, new.json, answers.json")
    ap.add_argument("--steps", type=int, default=16)
    ap.add_argument("--slowdown", type=float, default=20.0, help="percent of a BASE step added to the GEMM")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pair", choices=("changes", "collectors"), default="changes",
                    help="changes: the code changed (default); collectors: the same GPU work, "
                         "NEW recorded with record_shapes and with_stack")
    a = ap.parse_args()
    os.makedirs(a.output, exist_ok=True)
    answers = {}
    collectors = a.pair == "collectors"
    for side in ("base", "new"):
        text, ans = build(side, a.steps, a.slowdown, a.seed, collectors)
        with open(os.path.join(a.output, side + ".json"), "w") as f:
            f.write(text)
        ans["median_ns"] = nearest_rank_median(ans["steps"])
        if collectors:
            ans["gpu_work_median_ns"] = nearest_rank_median(ans["gpu_work"])
            ans["own_per_step_ns"] = ans["own_ns"] // len(ans["steps"])
        else:
            del ans["gpu_work"], ans["own_ns"]
        answers[side] = ans
    b, n = answers["base"]["median_ns"], answers["new"]["median_ns"]
    answers["change_ns"] = n - b
    answers["change_pct"] = (n / b - 1) * 100
    with open(os.path.join(a.output, "answers.json"), "w") as f:
        json.dump(answers, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
