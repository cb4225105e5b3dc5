#!/usr/bin/env python3
"""Parallelism read from operators and collectives (doc/diagnosis.md, "What the advice is
conditioned on"), and stragglers on every collective kind (doc/stragglers.md), on real traces
read in place from ../shared (exit 77 when absent): TorchRec recommendation models under DDP
whose all-to-alls NCCL runs as SendRecv kernels under c10d::alltoall_base_ are DDP with sharded
embedding tables, not pipeline parallel, and get the embedding exchange's advice, never the
pipeline's; a ResNet under DDP is data parallel; the two sampled ranks of hta/trace_filter are
matched at their all-to-alls.

usage: check_parallelism.py GPUSCOPE"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TRACES = os.path.join(ROOT, "..", "shared", "traces")

# trace: (parallel kinds, all-to-alls, send/recvs)
EXPECTED = {
    "hta/negative_queue_length_values_check/rank0.json.gz": (["data", "embedding"], 45, 0),
    "hta/trace_diff/test/test.json.gz": (["data", "embedding"], 42, 0),
    "hta/trace_filter/sampled_rank-0.json.gz": (["data", "embedding"], 4, 0),
    "tracelens/mi300/resnet_act_checkpoint.json.gz": (["data"], 0, 0),
}


def run_json(exe, *args):
    out = subprocess.run([exe] + list(args) + ["--format", "json"], capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)


def check_kinds(exe, failures):
    for name, (kinds, a2a, p2p) in EXPECTED.items():
        d = run_json(exe, "report", os.path.join(TRACES, name))["diagnosis"][0]
        ctx = d["context"]
        got = (ctx.get("parallel_kinds"), ctx.get("all_to_alls"), ctx.get("send_recvs"))
        print(f"  {name}: {ctx['parallelism']}; {got[1]} all-to-all, {got[2]} send/recv")
        if got != (kinds, a2a, p2p):
            failures.append(f"{name}: kinds, all-to-alls, send/recvs {got}, want "
                            f"{(kinds, a2a, p2p)}")
        comm = next(r for r in d["rules"] if r["class"] == "communication_bound")
        fired = [f for f in d["verdict"] if f["class"] == "communication_bound"]
        given = [a for f in fired for a in f["actions"]]
        left = [a["action"] for a in comm.get("actions_left_out", [])]
        if any("interleaved schedule" in a for a in given):
            failures.append(f"{name}: pipeline advice without a pipeline")
        if "data" in kinds and any("DDP bucket_cap_mb" in a for a in left):
            failures.append(f"{name}: DDP's advice left out of a DDP trace")
        if "embedding" in kinds and fired and not any("embedding all-to-all" in a for a in given):
            failures.append(f"{name}: no embedding all-to-all advice")


def check_stragglers(exe, failures):
    folder = os.path.join(TRACES, "hta", "trace_filter")
    s = run_json(exe, "stragglers", os.path.join(folder, "sampled_rank-0.json.gz"),
                 os.path.join(folder, "sampled_rank-1.json.gz"))
    by_kind = {k["kind"]: k["instances"] for k in s["skew"]}
    print(f"  trace_filter: {s['matched']} collectives matched, by kind {by_kind}")
    if by_kind.get("all_to_all") != 4 or s["matched"] != 10:
        failures.append(f"trace_filter: matched {s['matched']}, by kind {by_kind}; want 10 with "
                        "4 all-to-all")


def main():
    exe = sys.argv[1]
    if not os.path.isdir(TRACES):
        print("skip: ../shared/traces is absent")
        return 77
    failures = []
    check_kinds(exe, failures)
    check_stragglers(exe, failures)
    for f in failures:
        print("FAIL", f)
    print(f"{'ok' if not failures else 'FAIL'}: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
