#!/usr/bin/env python3
"""Writes a monitor log (doc/FORMAT.md) for tests/cli/test_monitor_trigger.sh: one sample a second
from t=1717000000, one GPU of 80 GiB and two watched agents (rank 1, process 4242 on node-7, the
slowest), with the values a scenario names.

usage: monitor_trigger_log.py OUT.jsonl SCENARIO [PID]: PID, a process of the GPU"""
import json
import sys

GIB = 1 << 30
T0 = 1717000000

# Each scenario: seconds, then (gpu_util %, GPU memory used in GiB, step ms) at second t.
SCENARIOS = {
    # the GPU idles from t=20 to 29; the step slows from 100 to 250 ms at t=50
    "two": (100, lambda t: (10 if 20 <= t < 30 else 90, 30, 100 if t < 50 else 250)),
    # the GPU's memory grows from 30 to 45 GiB at t=10
    "memory": (30, lambda t: (90, 30 if t < 10 else 45, 100)),
}


def main():
    out, name = sys.argv[1], sys.argv[2]
    procs = [{"pid": int(sys.argv[3]), "name": "python", "gpu_memory_bytes": 1 << 30}] \
        if len(sys.argv) > 3 else []
    seconds, values = SCENARIOS[name]
    with open(out, "w") as f:
        for t in range(seconds):
            util, mem, step = values(t)
            f.write(json.dumps({
                "ts": T0 + t, "hostname": "node-7", "gpu": 0, "name": "GPU", "uuid": "GPU-0",
                "pci_bus_id": "0", "gpu_util_pct": util, "gpu_mem_used_bytes": mem * GIB,
                "gpu_mem_total_bytes": 80 * GIB, "unavailable": {}, "processes": procs,
                "host_cpu_pct": 10, "host_mem_used_bytes": 1, "host_mem_total_bytes": 2,
                "agents": 2, "step_ns": step * 1000000, "step_rank": 1,
                "step_host": "node-7", "step_pid": 4242}) + "\n")


if __name__ == "__main__":
    main()
