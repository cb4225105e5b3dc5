"""Hostile cases for what is counted once: an operator inside one of its own name (autocast's
aten::addmm, doc/ops.md "Recursion") and memory records that carry only their size (doc/memory.md;
run by tests/hostile/test_hostile.py)."""

import os

import hostile_inputs as h
from hostile_case import Case

# 2 x 64 x 128 x 32: aten::addmm of a [64, 128] by a [128, 32] matrix
ADDMM_DIMS = '"Input Dims": [[32], [64, 128], [128, 32], [], []]'
ADDMM_FLOPS = 2 * 64 * 128 * 32


def autocast_addmm(tmp):
    """Autocast's aten::addmm: the fp32 call [10, 110) casts an input (aten::to, a 5 us copy
    kernel) and runs the bf16 aten::addmm [50, 100) (a 40 us GEMM) inside it. One call: CPU
    total 100 us, CUDA total 45 us, its FLOPs once."""
    def op(name, ts, dur, types):
        return h.event(name, ts, dur,
                       extra=', "args": {%s, "Input type": %s}' % (ADDMM_DIMS, types))

    def launch(ts, corr, kernel, kts, kdur):
        return [h.event("cudaLaunchKernel", ts, 2, cat="cuda_runtime",
                        extra=', "args": {"correlation": %d}' % corr),
                h.event(kernel, kts, kdur, cat="kernel", pid=0, tid=7,
                        extra=', "args": {"device": 0, "stream": 7, "correlation": %d}' % corr)]
    return h.write(os.path.join(tmp, "autocast.json"), h.trace(
        [op("aten::addmm", 10, 100, '["float", "float", "float", "Scalar", "Scalar"]'),
         h.event("aten::to", 20, 20)] + launch(25, 1, "copy", 120, 5) +
        [op("aten::addmm", 50, 50,
            '["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"]')] +
        launch(60, 2, "gemm", 130, 40)))


def sizes_only_memory(tmp):
    """[memory] records as PyTorch 1.9 and earlier wrote them: Device Type, Device Id and Bytes
    only. Allocated after each, in time order: 300, 700, 1200, 800, 500; peak 1200 in aten::mm
    (summed by address, every record at address 0, it read 500 and was called CUDA's)."""
    events = [h.event("ProfilerStep#1", 1000, 1000, cat="user_annotation"),
              h.event("aten::empty", 1100, 100), h.event("aten::mm", 1300, 100),
              h.event("aten::add", 1500, 100)]
    for ts, size in ((1110, 300), (1310, 400), (1510, -300), (1320, 500), (1330, -400)):
        events.append('{"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": %d, '
                      '"args": {"Device Type": 1, "Device Id": 0, "Bytes": %d}}' % (ts, size))
    return h.write(os.path.join(tmp, "sizes_only.json"), h.trace(sorted(
        events, key=lambda e: int(e.split('"ts": ')[1].split(",")[0]))))


def nested_in_itself(tmp, depth=50000):
    """aten::a inside aten::a, 50 000 deep on one thread: one call, found in linear time (walking
    each range up to its outermost took seconds)."""
    return h.write(os.path.join(tmp, "nested_in_itself.json"), h.trace(
        [h.event("aten::a", i, 2 * (depth - i)) for i in range(depth)]))


def cases():
    return [
        Case("autocast addmm inside addmm: one call, its FLOPs and GPU time once", autocast_addmm,
             ["ops", "--format", "csv", "{}"], 0, "",
             out=r"\naten::addmm,1,78000,[0-9.]+,100000,[0-9.]+,100000,40000,[0-9.]+,45000,45000,"
                 r"%d," % ADDMM_FLOPS),
        Case("memory records with only Bytes: running sum, PyTorch's allocator", sizes_only_memory,
             ["memory", "--format", "json", "{}"], 0, "",
             out=r'"allocator": "pytorch", "peak_allocated_bytes": 1200, .*"peak_operator": '
                 r'"aten::mm"'),
        Case("an operator nested in itself 50 000 deep: one call", nested_in_itself,
             ["ops", "--format", "csv", "{}"], 0, "", secs=2, mb=100,
             out=r"\naten::a,1,100000000,100\.00,100000000,100\.00,100000000,"),
    ]
