#!/usr/bin/env python3
"""Agreement with the TensorBoard profiler plugin (tests/anchors/tb_expected.json, made by
tests/anchors/tb_expected.py): `gpuscope breakdown --format json --keep-warmup --tb-compat` on
each trace must give the plugin's step count, its average per category to 1 µs and 0.1
percentage point of the step, and its GPU utilization, est. SM efficiency and est. achieved
occupancy per device to 0.1 percentage point.

--keep-warmup because the plugin averages over every step; --tb-compat because the plugin's
communication detection misses modern NCCL kernels and gpuscope's default does not (the one
deliberate difference, doc/breakdown.md). Traces listed in EXCEPTIONS differ for a documented
reason; the check verifies that exactly the listed fields differ there.

usage: check_tb_anchor.py GPUSCOPE   (exit 77 when ../shared/traces is absent)
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TRACES = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "traces"))
US_TOL = 1.0     # µs per category
PP_TOL = 0.1     # percentage points

WINDOW = "no steps: gpuscope's window is the whole trace, the plugin's its operators' span"

# trace -> {field: why}; fields that differ from the plugin on purpose (doc/breakdown.md).
EXCEPTIONS = {
    # The plugin keeps times as float64 µs since the epoch: at 1.7e15 µs that has a resolution of
    # 0.25 µs, so each kernel and copy of this ns-resolution trace loses up to 0.125 µs per end
    # and the per-step sums drift by a few µs (its averages are multiples of 0.25 µs / 5 steps).
    "hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz": {
        "kernel": "plugin rounds ns-resolution timestamps to 0.25 µs",
        "memcpy": "plugin rounds ns-resolution timestamps to 0.25 µs",
    },
    # Without ProfilerStep the one window is the whole trace in gpuscope (doc/design.md §10) and
    # [first operator start, last operator end (or the end of the GPU work it launched)] in the
    # plugin, so runtime calls and idle time before the first or after the last operator count
    # in gpuscope only: the step and the Runtime or Other row are longer by the same amount.
    "tokenomics/trace0.json": {
        "step_us": WINDOW, "runtime": WINDOW, "other": WINDOW},
    "param/linear_kineto.json.gz": {"step_us": WINDOW, "runtime": WINDOW},
    "switch_transformers/result/trace.json.gz": {
        "step_us": WINDOW, "runtime": WINDOW, "other": WINDOW},
    "particle_transformer/gpu_working_chrome_trace.json.gz": {
        "step_us": WINDOW, "runtime": WINDOW},
}


def ours(gpuscope, path):
    out = subprocess.run([gpuscope, "breakdown", "--format", "json", "--keep-warmup",
                          "--tb-compat", path], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)["traces"][0]


def compare(rel, want, got):
    """Yields (field, plugin, gpuscope) for every field out of tolerance."""
    if want["steps"] != got["kept_steps"]:
        yield "steps", want["steps"], got["kept_steps"]
    avg = got["average"]
    total_want, total_got = want["step_us"], avg["step_ns"] / 1000
    if abs(total_want - total_got) > US_TOL:
        yield "step_us", total_want, total_got
    for cat, us in want["avg_us"].items():
        mine = avg[cat + "_ns"] / 1000
        pct_want = 100 * us / total_want if total_want else 0
        if abs(us - mine) > US_TOL or abs(pct_want - avg[cat + "_pct"]) > PP_TOL:
            yield cat, us, mine
    gpus = {str(g["device"]): g for g in got["gpus"]}
    for dev, m in want["gpus"].items():
        g = gpus.get(dev)
        if g is None:
            yield "gpu%s" % dev, m, None
            continue
        pairs = [("utilization", 100 * m["utilization"], g["utilization_pct"]),
                 ("sm_efficiency", None if m["sm_efficiency"] is None
                  else 100 * m["sm_efficiency"], g["sm_efficiency_pct"]),
                 ("occupancy", m["occupancy_pct"], g["occupancy_pct"])]
        for name, w, o in pairs:
            if (w is None) != (o is None) or (w is not None and abs(w - o) > PP_TOL):
                yield "gpu%s.%s" % (dev, name), w, o


def window_invariant(want, got, allowed):
    """For a WINDOW exception: gpuscope's window only adds time, so every excepted category is
    longer (never shorter) and together they add exactly what the step gained."""
    if WINDOW not in allowed.values():
        return []
    avg = got["average"]
    extra_step = avg["step_ns"] / 1000 - want["step_us"]
    extra = [avg[c + "_ns"] / 1000 - want["avg_us"][c] for c in allowed if c != "step_us"]
    if min(extra + [extra_step]) < -US_TOL or abs(sum(extra) - extra_step) > US_TOL:
        return [("window", "step +%.1f µs" % extra_step, "categories +%.1f µs" % sum(extra))]
    return []


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    if not os.path.isdir(TRACES):
        print("skip: %s is absent" % TRACES)
        return 77
    with open(os.path.join(HERE, "tb_expected.json")) as f:
        expected = json.load(f)
    failures = 0
    for rel, want in sorted(expected.items()):
        got = ours(sys.argv[1], os.path.join(TRACES, rel))
        diffs = list(compare(rel, want, got))
        allowed = EXCEPTIONS.get(rel, {})
        bad = [d for d in diffs if d[0] not in allowed] + window_invariant(want, got, allowed)
        unused = sorted(set(allowed) - {d[0] for d in diffs})
        status = "ok" if not bad and not unused else "FAIL"
        note = " (documented: %s)" % ", ".join(sorted(allowed)) if allowed else ""
        print("%-4s %s%s" % (status, rel, note))
        for field, w, o in bad:
            print("     %s: plugin %s, gpuscope %s" % (field, w, o))
        for field in unused:
            print("     %s: listed as an exception but agrees now; remove it" % field)
        failures += status != "ok"
    print("%d of %d traces agree" % (len(expected) - failures, len(expected)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
