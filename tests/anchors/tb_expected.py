#!/usr/bin/env python3
"""Runs the TensorBoard profiler plugin's loader headlessly on real traces and writes what its
Overview page would show: the step-time breakdown averages per category (µs) and, per device,
GPU utilization, est. SM efficiency and est. achieved occupancy.

    python3 -m venv /tmp/tbvenv && /tmp/tbvenv/bin/pip install torch-tb-profiler==0.4.3
    /tmp/tbvenv/bin/python tests/anchors/tb_expected.py ../shared/traces \
        > tests/anchors/tb_expected.json

Two adjustments, both documented in doc/breakdown.md and tests/anchors/README-tb.md:
  1. Category table of the plugin's last source (kineto master before its removal): PyPI 0.4.3
     predates `cuda_runtime` and friends, so on any trace newer than 2021 it sees no runtime call,
     no step extension and no Runtime row. Master also keeps non-step `user_annotation` ranges as
     operators (CPU Exec), which 0.4.3 drops; the wrapper below does the same.
  2. `gpu_user_annotation` events are removed before the plugin sees them: it takes the GPU-side
     copy of `ProfilerStep#N` for a second step (and master counts GPU annotations as CPU time).
"""
import gzip
import json
import logging
import os
import sys

from torch_tb_profiler.profiler import trace as tb_trace
from torch_tb_profiler.profiler.data import RunProfileData
from torch_tb_profiler.profiler.event_parser import ProfileRole

# The traces of ../shared/traces with host ProfilerStep#N ranges and GPU kernels, then four
# with GPU kernels and no steps.
TRACES = [
    "hta/trace_filter/sampled_rank-0.json.gz",
    "hta/trace_filter/sampled_rank-1.json.gz",
    "hta/nccl_parser_config/nccl_data.json.gz",
    "hta/trace_diff/control/control.json.gz",
    "hta/trace_diff/test/test.json.gz",
    "hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
    "hta/negative_queue_length_values_check/rank0.json.gz",
    "hta/df_index_resolver/df_index_resolver.json.gz",
    "hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz",
    "hta/critical_path/cuda_event_sync/event_sync_trace.json.gz",
    "tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz",
    "tracelens/h100/Falconsai_nsfw_image_detection__1016002.json.gz",
    "tracelens/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz",
    "tracelens/h100/facebook_timesformer-base-finetuned-k400__1016002.json.gz",
    "tracelens/mi300/resnet_act_checkpoint.json.gz",
    # No ProfilerStep: one window (gpuscope: the whole trace; the plugin: its operators' span).
    "tokenomics/trace0.json",
    "param/linear_kineto.json.gz",
    "switch_transformers/result/trace.json.gz",
    "particle_transformer/gpu_working_chrome_trace.json.gz",
]

# Adjustment 1: the runtime categories kineto master maps, missing from 0.4.3.
MASTER_RUNTIME_CATS = ["cuda_runtime", "mtia_runtime", "glow_runtime", "xpu_runtime",
                       "privateuse1_runtime"]

CATEGORIES = {
    "kernel": ProfileRole.Kernel, "memcpy": ProfileRole.Memcpy, "memset": ProfileRole.Memset,
    "communication": ProfileRole.Communication, "runtime": ProfileRole.Runtime,
    "dataloader": ProfileRole.DataLoader, "cpu_exec": ProfileRole.CpuOp,
    "other": ProfileRole.Other,
}


def patch_plugin():
    for cat in MASTER_RUNTIME_CATS:
        tb_trace.EventTypeMap[cat] = tb_trace.EventTypes.RUNTIME
    original = tb_trace.create_trace_event

    def create_trace_event(event, is_pytorch_lightning):
        name = event.get("name") or ""
        if (event.get("cat") or "").lower() == "user_annotation" and \
                not name.startswith("ProfilerStep#"):
            return tb_trace.OperatorEvent(tb_trace.EventTypes.USER_ANNOTATION, event)
        return original(event, is_pytorch_lightning)

    tb_trace.create_trace_event = create_trace_event


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".gz"):
        data = gzip.decompress(data)
    doc = json.loads(data, strict=False)
    if isinstance(doc, list):
        doc = {"traceEvents": doc}
    # Adjustment 2.
    doc["traceEvents"] = [e for e in doc["traceEvents"]
                          if e.get("cat") != "gpu_user_annotation"]
    return doc


def expected(path):
    profile = RunProfileData.from_json("worker", "span", load(path))
    costs = profile.avg_costs.costs
    out = {
        "steps": len(profile.steps_costs),
        "step_us": costs[ProfileRole.Total],
        "avg_us": {key: costs[role] for key, role in CATEGORIES.items()},
        "gpus": {},
    }
    gm = profile.gpu_metrics_parser
    for gpu in sorted(gm.gpu_ids):
        out["gpus"][str(gpu)] = {
            "utilization": gm.gpu_utilization[gpu],
            "sm_efficiency": gm.avg_approximated_sm_efficiency_per_device[gpu],
            "occupancy_pct": gm.avg_occupancy_per_device[gpu],
        }
    return out


def main():
    logging.disable(logging.WARNING)
    root = sys.argv[1] if len(sys.argv) > 1 else "../shared/traces"
    only = sys.argv[2:]
    patch_plugin()
    result = {}
    for rel in TRACES:
        if only and rel not in only:
            continue
        result[rel] = expected(os.path.join(root, rel))
        print(rel, file=sys.stderr)
    json.dump(result, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
