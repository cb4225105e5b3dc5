#!/usr/bin/env python3
"""Runs HTA (Holistic Trace Analysis) on the shared 2-rank sets and writes what it computes for
communication per rank to comm_expected.json, the anchor tests/anchors/check_comm_hta.py compares
`gpuscope comm --hta --format json` with: get_comm_comp_overlap() (the share of communication
kernel time that overlaps computation kernels) and, from get_gpu_kernel_breakdown(), the summed
duration of each rank's communication kernels.

usage: HTA_PYTHON tests/anchors/comm_expected.py [--traces ../shared/traces] [--out FILE]
(see tests/anchors/README-comm.md for the versions and the command that produced the JSON)."""
import argparse
import importlib.metadata
import json
import logging
import os
import sys
import tempfile

# Each case is one HTA trace_dir: the files in it are the ranks of one run.
CASES = [
    ("hta/trace_filter", ["hta/trace_filter/sampled_rank-0.json.gz",
                          "hta/trace_filter/sampled_rank-1.json.gz"]),
    ("tokenomics/trace0+1", ["tokenomics/trace0.json", "tokenomics/trace1.json"]),
    ("tokenomics/llama0+1", ["tokenomics/llama_trace_4layers0_with_annotations.json.gz",
                             "tokenomics/llama_trace_4layers1_with_annotations.json.gz"]),
]


def run_case(root, files):
    from hta.trace_analysis import TraceAnalysis

    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            os.symlink(os.path.abspath(os.path.join(root, f)), os.path.join(tmp, os.path.basename(f)))
        ta = TraceAnalysis(trace_dir=tmp)
        ranks = {}
        overlap = ta.get_comm_comp_overlap(visualize=False)
        for _, r in overlap.iterrows():
            pct = float(r["comp_comm_overlap_pctg"])
            ranks[int(r["rank"])] = {"rank": int(r["rank"]),
                                     "comp_comm_overlap_pct": None if pct != pct else pct}
        # The per-rank sums survive HTA's "others" regrouping (only max/min/mean/std do not).
        _, kernels = ta.get_gpu_kernel_breakdown(visualize=False, num_kernels=1000000,
                                                 duration_ratio=1.0)
        for rank, row in ranks.items():
            comm = kernels[(kernels["rank"] == rank) & (kernels["kernel_type"] == "COMMUNICATION")]
            row["comm_kernel_sum_us"] = round(float(comm["sum (us)"].sum()), 3)
            row["comm_kernel_names"] = int(len(comm))
        return [ranks[k] for k in sorted(ranks)]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--traces", default=os.path.join(here, "..", "..", "..", "shared", "traces"))
    ap.add_argument("--out", default=os.path.join(here, "comm_expected.json"))
    args = ap.parse_args()
    logging.disable(logging.WARNING)
    out = {
        "hta_version": importlib.metadata.version("HolisticTraceAnalysis"),
        "pandas_version": importlib.metadata.version("pandas"),
        "python_version": sys.version.split()[0],
        "cases": [],
    }
    for name, files in CASES:
        print(f"{name} ...", file=sys.stderr, flush=True)
        out["cases"].append({"name": name, "files": files, "ranks": run_case(args.traces, files)})
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
