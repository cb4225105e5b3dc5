#!/usr/bin/env python3
"""Runs HTA (Holistic Trace Analysis) on the shared traces with GPU kernels and writes what it
computes for the temporal breakdown and the per-stream idle time breakdown to hta_expected.json,
the anchor tests/anchors/check_hta_anchor.py compares `gpuscope idle --hta --format json` with.

usage: HTA_PYTHON tests/anchors/hta_expected.py [--traces ../shared/traces] [--out FILE]
(see tests/anchors/README-hta.md for the versions and the command that produced the JSON)."""
import argparse
import importlib.metadata
import json
import logging
import os
import sys
import tempfile

# Each case is one HTA trace_dir: the files in it are the ranks of one run (the tokenomics pairs
# say rank 0 and rank 1). Single files get a folder of their own.
CASES = [
    ("hta/trace_filter", ["hta/trace_filter/sampled_rank-0.json.gz",
                          "hta/trace_filter/sampled_rank-1.json.gz"]),
    ("tokenomics/trace0+1", ["tokenomics/trace0.json", "tokenomics/trace1.json"]),
    ("tokenomics/llama0+1", ["tokenomics/llama_trace_4layers0_with_annotations.json.gz",
                             "tokenomics/llama_trace_4layers1_with_annotations.json.gz"]),
    ("hta/cuda_event_sync_multi_stream",
     ["hta/critical_path/cuda_event_sync_multi_stream/event_sync_trace.json.gz"]),
    ("hta/alexnet", ["hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz"]),
    ("hta/ns_resolution", ["hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz"]),
    ("hta/nccl_data", ["hta/nccl_parser_config/nccl_data.json.gz"]),
    ("hta/triton_example", ["hta/triton_example/triton_example.json.gz"]),
    ("hta/amd_mi250", ["hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz"]),
    ("param/resnet", ["param/resnet_kineto.json.gz"]),
    ("param/linear", ["param/linear_kineto.json.gz"]),
    ("switch_transformers", ["switch_transformers/result/trace.json.gz"]),
    ("tracelens/h100_bert", ["tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz"]),
]

CATEGORIES = ("host_wait", "kernel_wait", "other")


def run_case(root, files):
    from hta.trace_analysis import TraceAnalysis

    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            os.symlink(os.path.abspath(os.path.join(root, f)), os.path.join(tmp, os.path.basename(f)))
        ta = TraceAnalysis(trace_dir=tmp)
        temporal = []
        for _, r in ta.get_temporal_breakdown(visualize=False).iterrows():
            temporal.append({
                "rank": int(r["rank"]),
                "idle_time_us": float(r["idle_time(us)"]),
                "compute_time_us": float(r["compute_time(us)"]),
                "non_compute_time_us": float(r["non_compute_time(us)"]),
                "kernel_time_us": float(r["kernel_time(us)"]),
                "idle_pct": float(r["idle_time_pctg"]),
                "compute_pct": float(r["compute_time_pctg"]),
                "non_compute_pct": float(r["non_compute_time_pctg"]),
            })
        ranks = sorted(ta.t.traces.keys())
        idle_df, _ = ta.get_idle_time_breakdown(ranks=ranks, visualize=False,
                                                show_idle_interval_stats=False)
        streams = {}
        for _, r in idle_df.iterrows():
            key = (int(r["rank"]), int(r["stream"]))
            row = streams.setdefault(key, {"rank": key[0], "stream": key[1],
                                           **{c + "_us": 0.0 for c in CATEGORIES},
                                           **{c + "_pct": 0.0 for c in CATEGORIES}})
            row[str(r["idle_category"]) + "_us"] = float(r["idle_time"])
        # HTA rounds idle_time_ratio to two decimals (whole percent), too coarse for a 0.5 pp
        # check; the shares are recomputed from the times, which it rounds to 0.01 µs.
        for row in streams.values():
            total = sum(row[c + "_us"] for c in CATEGORIES)
            for c in CATEGORIES:
                row[c + "_pct"] = round(100.0 * row[c + "_us"] / total, 4) if total else 0.0
        return temporal, [streams[k] for k in sorted(streams)]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--traces", default=os.path.join(here, "..", "..", "..", "shared", "traces"))
    ap.add_argument("--out", default=os.path.join(here, "hta_expected.json"))
    args = ap.parse_args()
    logging.disable(logging.WARNING)
    out = {
        "hta_version": importlib.metadata.version("HolisticTraceAnalysis"),
        "pandas_version": importlib.metadata.version("pandas"),
        "python_version": sys.version.split()[0],
        "idle_consecutive_kernel_delay_us": 30,
        "cases": [],
    }
    for name, files in CASES:
        print(f"{name} ...", file=sys.stderr, flush=True)
        temporal, idle = run_case(args.traces, files)
        out["cases"].append({"name": name, "files": files, "temporal": temporal, "idle": idle})
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
