"""Traces whose GPU, software or accelerator rule some advice out (doc/diagnosis.md, "What the
advice is conditioned on"; run by tests/hostile/test_hostile.py): a Kineto trace of an MTIA
accelerator, whose device events gpuscope does not read, is told so and not told to profile
CUDA (20 000 device events, gzip'd), also after gpuscope's export; an inference step whose attention runs
TensorRT-LLM's generation-phase FMHA kernels reads as decoding."""

import gzip
import json
import os
import subprocess
import sys

from hostile_case import Case

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gen"))
import gen_inference as g  # noqa: E402

NO_GPU = r'\{"class": "no_gpu", "title": "No GPU activity", "severity": "note"'
K_FOR_GEN = "fmhaSm100aKernel_QkvE4m3OBfloat16H64PagedKvDenseP16VarSeqQ8Kv128PersistentSwapsAbForGen"


def mtia_trace(tmp, device_events=20000):
    """Operators, MTIA runtime calls and device events (DMA and operator executions), no CUDA:
    what a torch.profiler trace of an MTIA accelerator holds."""
    events, t = [], 1000.0
    for n in range(3):
        start = t
        for i in range(device_events // 3):
            events.append({"ph": "X", "cat": "cpu_op", "name": "aten::mul", "pid": 1, "tid": 1,
                           "ts": t, "dur": 2.0, "args": {"External id": n * 100000 + i}})
            events.append({"ph": "X", "cat": "mtia_runtime", "name": "runFunction - "
                           "job_prep_and_submit_for_execution", "pid": 1, "tid": 1,
                           "ts": t + 0.5, "dur": 1.0})
            events.append({"ph": "X", "cat": "mtia_ccp_events",
                           "name": "dma_request" if i % 2 else "aten::mul.out-dtype_Float",
                           "pid": 9, "tid": 801, "ts": t + 1.0, "dur": 3.0,
                           "args": {"size": 4096, "sqid": 1}})
            t += 4.0
        events.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % n,
                       "pid": 1, "tid": 1, "ts": start, "dur": t - start})
        t += 10.0
    path = os.path.join(tmp, "mtia_rank_0.json.gz")
    with gzip.open(path, "wt") as f:
        json.dump({"schemaVersion": 1, "deviceProperties": [{"id": 9, "name": "ARTEMIS"}],
                   "traceEvents": events}, f)
    return path


def mtia_exported(tmp):
    """The MTIA trace through gpuscope's chrome export: its device events come back as other
    ranges, their count in the export's header."""
    out = os.path.join(tmp, "mtia_export.json")
    subprocess.run([os.environ["HOSTILE_EXE"], "export", "--format", "chrome", "-o", out,
                    mtia_trace(tmp, 300)], check=True, capture_output=True)
    return out


def trtllm_decode(tmp):
    """Four inference steps of one GEMM and TensorRT-LLM's generation-phase attention."""
    tl = g.Timeline()
    for n in range(4):
        def body():
            tl.op("aten::mm", g.K_GEMM, 40_000, [[8, 4096], [4096, 4096]])
            tl.op("trtllm::attention", K_FOR_GEN, 20_000)
            tl.sync()
        tl.step(n, body)
    path = os.path.join(tmp, "trtllm_decode.json")
    tl.write(path)
    return path


def cases():
    return [
        Case("MTIA accelerator trace", mtia_trace, ["report", "--format", "json", "{}"], 0, "",
             secs=10, mb=120,
             # the verdict's note, with no action; the rule's full entry, the action left out
             out=NO_GPU + r'[^\n]*"evidence": "the trace records no GPU kernels, copies or sets '
                          r'but 19998 events of an MTIA accelerator \(mtia_ccp_events\)[^\n]*'
                          r'"actions": \[\], "actions_why": \[\]\}[\s\S]*' + NO_GPU +
                 r'[^\n]*"actions_left_out": \[\{"action": "profile with activities=\['
                 r'ProfilerActivity.CPU, ProfilerActivity.CUDA\] to see the GPU", "why": "a '
                 r'torch.profiler trace; 19998 events of an MTIA accelerator'),
        Case("MTIA accelerator trace, exported", mtia_exported, ["report", "{}"], 0, "",
             secs=10, mb=120, out=r"but 300 events of an MTIA accelerator \(mtia_ccp_events\)"),
        Case("TensorRT-LLM generation-phase attention", trtllm_decode,
             ["report", "--format", "json", "{}"], 0, "", secs=10, mb=120,
             out=r'"workload": "inference", "backward_events": 0, "optimizer_events": 0, '
                 r'"decode_events": 4, "decode": true'),
    ]
