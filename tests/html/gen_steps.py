#!/usr/bin/env python3
"""A small synthetic Kineto trace with many steps, for the HTML report's tests (tests/gen/gen_trace.py
writes richer traces but takes a minute for 10 000 steps). SYNTHETIC: no GPU ran it.

Each step: ProfilerStep#N, a DataLoader range, an operator that launches a kernel, a host-to-device
copy, and allocator records; step times vary slowly so that the step chart has a shape. The first
step is a slow warm-up. --hostile names the kernel and the operator with markup, to check escaping.

usage: gen_steps.py [--steps N] [--rank R --world-size W] [--hostile] -o OUT(.json|.json.gz)"""
import argparse
import gzip
import json
import math

HOSTILE_KERNEL = "<script>alert('kernel')</script> & \"quoted\" <img src=x onerror=alert(1)>"
HOSTILE_OP = "aten::<b>bold</b>&amp;op"


def events(steps, rank, kernel, op):
    pid, tid = 4242 + rank, 4242 + rank
    out, corr, t = [], 1, 1000.0  # µs
    allocated, reserved = 0, 512 << 20
    for n in range(1, steps + 1):
        warm = n == 1
        load = 300 + 200 * (math.sin(n / 40.0) + 1) + (rank * 150)
        compute = 2000 + 400 * math.sin(n / 250.0) + (6000 if warm else 0)
        dur = load + compute + 120
        out.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % n,
                    "pid": pid, "tid": tid, "ts": round(t, 3), "dur": round(dur, 3),
                    "args": {"External id": corr}})
        out.append({"ph": "X", "cat": "user_annotation",
                    "name": "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
                    "pid": pid, "tid": tid, "ts": round(t + 5, 3), "dur": round(load - 10, 3),
                    "args": {"External id": corr + 1}})
        o = t + load + 5
        out.append({"ph": "X", "cat": "cpu_op", "name": op, "pid": pid, "tid": tid,
                    "ts": round(o, 3), "dur": 60.0, "args": {"External id": corr + 2}})
        for i, (cat, name, gdur, extra) in enumerate((
                ("gpu_memcpy", "Memcpy HtoD (Pinned -> Device)", 40.0, {"bytes": 4 << 20}),
                ("kernel", kernel, compute - 60, {"grid": [1024, 1, 1], "block": [256, 1, 1],
                                                  "blocks per SM": 7.5,
                                                  "est. achieved occupancy %": 50}))):
            c = corr + 3 + i
            launch = o + 10 + 20 * i
            api = "cudaMemcpyAsync" if cat == "gpu_memcpy" else "cudaLaunchKernel"
            out.append({"ph": "X", "cat": "cuda_runtime", "name": api, "pid": pid, "tid": tid,
                        "ts": round(launch, 3), "dur": 8.0,
                        "args": {"External id": corr + 2, "correlation": c}})
            gstart = o + 20 + (0 if i == 0 else 50)
            args = {"External id": corr + 2, "device": 0, "stream": 7, "correlation": c}
            args.update(extra)
            out.append({"ph": "X", "cat": cat, "name": name, "pid": 0, "tid": 7,
                        "ts": round(gstart, 3), "dur": round(gdur, 3), "args": args})
        # Activations allocated in the step and freed at its end, a little kept each step.
        act = (900 << 20) + (n % 7) * (16 << 20)
        for ts, delta in ((o + 15, act), (t + dur - 5, -act + (64 << 10))):
            allocated += delta
            reserved = max(reserved, allocated + (256 << 20))
            out.append({"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]",
                        "pid": pid, "tid": tid, "ts": round(ts, 3),
                        "args": {"Total Reserved": reserved, "Total Allocated": allocated,
                                 "Bytes": delta, "Addr": 140000000000 + n * 4096,
                                 "Device Id": 0, "Device Type": 1}})
        corr += 5
        t += dur + 30
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--rank", type=int, default=0)
    ap.add_argument("--world-size", type=int, default=1)
    ap.add_argument("--hostile", action="store_true")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    kernel = HOSTILE_KERNEL if a.hostile else "ampere_sgemm_128x64_tn"
    op = HOSTILE_OP if a.hostile else "aten::mm"
    trace = {
        "schemaVersion": 1,
        "deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB",
                              "totalGlobalMem": 85899345920, "computeMajor": 8,
                              "computeMinor": 0, "numSms": 108,
                              "maxThreadsPerMultiprocessor": 2048}],
        "distributedInfo": {"backend": "nccl", "rank": a.rank, "world_size": a.world_size},
        "traceEvents": events(a.steps, a.rank, kernel, op),
    }
    text = json.dumps(trace).encode()
    if a.output.endswith(".gz"):
        with gzip.open(a.output, "wb", compresslevel=1) as f:
            f.write(text)
    else:
        with open(a.output, "wb") as f:
            f.write(text)


if __name__ == "__main__":
    main()
