#!/usr/bin/env python3
"""Inference traces get inference advice (doc/diagnosis.md, "What the advice is conditioned
on"): on real inference traces read in place from ../shared (exit 77 when absent) the context
says inference, SGLang's and vLLM's decode traces say decoding, and no action of the verdict is a
training-only one; a training trace stays training.

usage: check_inference_advice.py GPUSCOPE"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TRACES = os.path.join(ROOT, "..", "shared", "traces")

# (trace, workload, decode)
CASES = [
    ("tracelens/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz", "inference", False),
    ("tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz", "inference", False),
    ("tracelens/inference/sglang_decode/sglang_Qwen3-8B_decode.json.gz", "inference", True),
    # vLLM's Triton attention runs its split-KV 3d kernel only on decode batches
    ("tracelens/inference/vllm_decode_full/graph_execution.json.gz", "inference", True),
    ("tokenomics/llama_trace_4layers0_with_annotations.json.gz", "inference", False),
    ("hta/trace_file_list/inference_rank_1.json.gz", "inference", False),
    ("param/resnet_kineto.json.gz", "training", False),
]
TRAINING_ONLY = ("GradScaler", "fused optimizers", "convert_to_float8_training", "micro-batch",
                 "gradient", "checkpointing", "no_sync", "raise the batch size")


def main():
    exe = sys.argv[1]
    if not os.path.isdir(TRACES):
        print("skip: no ../shared/traces")
        return 77
    failures = []
    for rel, workload, decode in CASES:
        path = os.path.join(TRACES, rel)
        if not os.path.exists(path):
            failures.append("%s: missing" % rel)
            continue
        out = subprocess.run([exe, "report", "--format", "json", path], capture_output=True,
                             text=True, check=True).stdout
        d = json.loads(out)["diagnosis"][0]
        ctx = d["context"]
        if ctx["workload"] != workload or ctx.get("decode", False) != decode:
            failures.append("%s: workload %s, decode %s; expected %s, %s"
                            % (rel, ctx["workload"], ctx.get("decode", False), workload, decode))
        if workload != "inference":
            continue
        for f in d["verdict"]:
            for a in f["actions"]:
                if any(w in a for w in TRAINING_ONLY):
                    failures.append("%s: %s gives inference %r" % (rel, f["class"], a))
    for f in failures:
        print("FAIL " + f)
    print("%d traces, %d problems" % (len(CASES), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
