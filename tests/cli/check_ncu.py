"""Checks `gpuscope kernels --ncu EXPORT --format json TRACE` against the export itself: every
kernel of the export is a row, joined or listed as unmatched, and the percentages are ncu's own
values (read here with Python's csv module, independently of gpuscope's reader).

    python3 check_ncu.py GPUSCOPE EXPORT.csv TRACE [--all-joined]
"""
import csv
import json
import subprocess
import sys

SOL = "GPU Speed Of Light Throughput"
DETAILS = {
    (SOL, "Compute (SM) Throughput"): "compute_pct",
    (SOL, "Memory Throughput"): "memory_pct",
    ("Occupancy", "Achieved Occupancy"): "achieved_occupancy_pct",
    ("Occupancy", "Theoretical Occupancy"): "theoretical_occupancy_pct",
}
RAW = {
    "sm__throughput.avg.pct_of_peak_sustained_elapsed": "compute_pct",
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed": "memory_pct",
    "sm__warps_active.avg.pct_of_peak_sustained_active": "achieved_occupancy_pct",
    "sm__maximum_warps_per_active_cycle_pct": "theoretical_occupancy_pct",
}


def number(text):
    return float(text.replace(",", ""))


def expected(path):
    """ID -> {key: value}, and ID -> the largest estimated speedup of its findings."""
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("==")]
    header, rows = rows[0], rows[1:]
    col = {name: i for i, name in enumerate(header)}
    want, speedup = {}, {}
    if "Metric Name" in col:
        for r in rows:
            r = r + [""] * (len(header) - len(r))
            key = DETAILS.get((r[col["Section Name"]], r[col["Metric Name"]]))
            if key:
                want.setdefault(r[0], {})[key] = number(r[col["Metric Value"]])
            if r[col["Rule Name"]] and r[col["Estimated Speedup"]]:
                s = number(r[col["Estimated Speedup"]])
                speedup[r[0]] = max(speedup.get(r[0], s), s)
    else:
        for r in rows[1:]:  # after the units row
            want[r[0]] = {key: number(r[col[m]]) for m, key in RAW.items() if m in col}
    return want, speedup


def main():
    exe, export, trace = sys.argv[1:4]
    all_joined = "--all-joined" in sys.argv
    out = json.loads(subprocess.run([exe, "kernels", "--ncu", export, "--format", "json", trace],
                                    check=True, capture_output=True, text=True).stdout)
    want, speedup = expected(export)
    rows = out["ncu_kernels"]
    failed = 0
    if sorted(str(r["id"]) for r in rows) != sorted(want):
        print(f"FAIL {export}: ids {[r['id'] for r in rows]} != {sorted(want)}")
        failed += 1
    if out["matched"] + out["unmatched"] != len(want):
        print(f"FAIL {export}: {out['matched']} matched + {out['unmatched']} unmatched != {len(want)}")
        failed += 1
    for r in rows:
        if r["match"] not in ("name", "function", "unmatched"):
            failed += 1
            print(f"FAIL {export}: id {r['id']}: match {r['match']}")
        if all_joined and r["match"] == "unmatched":
            failed += 1
            print(f"FAIL {export}: id {r['id']} ({r['name'][:60]}) is not joined")
        if r["match"] != "unmatched" and not (r["instances"] > 0 and r["total_ns"] > 0):
            failed += 1
            print(f"FAIL {export}: id {r['id']} joined to no kernel time")
        for key, value in want[str(r["id"])].items():
            if abs(r[key] - value) > 1e-9:  # ncu writes 2 decimals, gpuscope too
                failed += 1
                print(f"FAIL {export}: id {r['id']}: {key} {r[key]} != ncu's {value}")
        s = speedup.get(str(r["id"]))
        if s is not None and abs(r["top_speedup_pct"] - s) > 0.005:
            failed += 1
            print(f"FAIL {export}: id {r['id']}: top speedup {r['top_speedup_pct']} != {s}")
    print(f"{export}: {len(rows)} kernels, {out['matched']} joined, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
