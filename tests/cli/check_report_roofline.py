#!/usr/bin/env python3
"""gpuscope report's roofline (doc/roofline.md, "In the report") against counts by hand.

The synthetic low_mfu scenario (tests/gen/gen_trace.py: bf16 [8192, 1024] x [1024, 1024] matmuls
on an H100, 430 us each) in text, JSON, HTML and through a .gsum; then the GPT-2 capture of the
shared captures, where the far_below_roof finding fires (skipped without them).
Usage: check_report_roofline.py GPUSCOPE SHARED_CAPTURES_DIR"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIO = os.path.join(HERE, "..", "gen", "scenarios", "low_mfu.json.gz")
H100_BF16_TFLOPS, H100_TBPS = 989.4, 3.35
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL " + msg)


def near(got, want, rel=1e-4):
    return got is not None and abs(got - want) <= rel * abs(want)


def report(exe, *args):
    return subprocess.run([exe, "report", *args], capture_output=True, text=True, check=True).stdout


def rank_of(exe, trace):
    return json.loads(report(exe, "--format", "json", trace))["diagnosis"][0]


def placed(rows):
    return [r for r in rows if (r["intensity"] or 0) > 0 and (r["tflops"] or 0) > 0]


def html_points(exe, trace, tmp):
    page = os.path.join(tmp, "page.html")
    subprocess.run([exe, "report", "--html", page, trace], capture_output=True, check=True)
    text = open(page, encoding="utf-8").read()
    return text, len(re.findall(r'<circle class="roofpt ', text))


def check_scenario(exe, tmp):
    rank = rank_of(exe, SCENARIO)
    roof = rank["roofline"]
    m, k, n = 8192, 1024, 1024
    flops, nbytes = 2 * m * k * n, 2 * (m * k + k * n + m * n)  # bf16 A, B read, C written
    mm = roof["rows"][0]
    calls = mm["calls"]
    if mm["name"] != "aten::mm" or mm["class"] != "gemm" or mm["dtype"] != "bf16":
        fail(f"scenario: largest group {mm['name']} {mm['class']} {mm['dtype']}")
    if calls != 240 or not near(mm["flops"], calls * flops) or not near(mm["bytes"], calls * nbytes):
        fail(f"scenario: aten::mm {calls} calls, {mm['flops']} FLOPs, {mm['bytes']} B; "
             f"by hand 240, {240 * flops}, {240 * nbytes}")
    tflops = calls * flops / mm["gpu_ns"] / 1e3
    if not near(mm["intensity"], flops / nbytes, 1e-5) or not near(mm["tflops"], tflops, 1e-5):
        fail(f"scenario: intensity {mm['intensity']}, {mm['tflops']} TFLOP/s; by hand "
             f"{flops / nbytes:.3f}, {tflops:.3f}")
    if mm["bound"] != "compute" or not near(mm["roof_share"], tflops / H100_BF16_TFLOPS, 1e-5):
        fail(f"scenario: {mm['bound']}-bound at {mm['roof_share']} of the roof; by hand compute "
             f"at {tflops / H100_BF16_TFLOPS:.5f}")
    if (roof["peak_tbps"], roof["tensor_core_tflops"], roof["tensor_core_dtype"]) != \
            (H100_TBPS, H100_BF16_TFLOPS, "bf16") or roof["fp32_tflops"] != 67:
        fail(f"scenario: roofs {roof['peak_tbps']} TB/s, {roof['tensor_core_tflops']} "
             f"{roof['tensor_core_dtype']}, fp32 {roof['fp32_tflops']}")
    if roof["gpu_ns"] != roof["modelled_ns"] + roof["unmodelled_ns"]:
        fail("scenario: modelled and unmodelled GPU time do not add up")
    # low_mfu says it of the same kernels: the roofline rule stays silent
    classes = [v["class"] for v in rank["verdict"]]
    if classes != ["low_mfu"]:
        fail(f"scenario: verdict {classes}, expected low_mfu alone")
    text = report(exe, SCENARIO)
    want = (f"rank 0: roofline, {100 * roof['modelled_ns'] / roof['gpu_ns']:.0f} % of operator "
            f"GPU time modelled; aten::mm {100 * mm['gpu_ns'] / roof['gpu_ns']:.0f} % of it, "
            f"compute-bound at {flops / nbytes:.1f} FLOP/byte, {100 * mm['roof_share']:.0f} % of")
    if want not in text:
        fail(f"scenario: the text lacks '{want}'")
    page, points = html_points(exe, SCENARIO, tmp)
    if points != 2 or len(placed(roof["rows"])) != 2:
        fail(f"scenario: {points} points on the chart, {len(placed(roof['rows']))} placeable "
             f"groups; expected 2 (aten::mm, aten::addmm)")
    for needle in ('<path class="roof"', '<path class="roof fp32"', "bf16 Tensor 989 TFLOP/s",
                   "fp32 cores 67 TFLOP/s", ">aten::mm</text>", ">aten::addmm</text>"):
        if needle not in page:
            fail(f"scenario: the chart lacks {needle}")
    gsum = os.path.join(tmp, "rank.gsum")
    subprocess.run([exe, "summarize", SCENARIO, "-o", gsum], capture_output=True, check=True)
    back = json.loads(report(exe, "--format", "json", gsum))["diagnosis"][0]["roofline"]
    if back != roof:
        fail("scenario: the roofline read back from its .gsum differs from the trace's")


def check_gpt2(exe, shared, tmp):
    trace = os.path.join(shared, "gpt2_train_torchprofiler_flops_stack.json.gz")
    if not os.path.exists(trace):
        print(f"skip: no {trace}")
        return
    rank = rank_of(exe, trace)
    roof = rank["roofline"]
    top = roof["rows"][0]
    found = [v for v in rank["verdict"] if v["class"] == "far_below_roof"]
    if not found:
        fail(f"gpt2: far_below_roof does not fire ({top['name']} at {top['roof_share']})")
        return
    f = found[0]
    steps = rank["steps"]["kept"] if isinstance(rank["steps"], dict) and "kept" in rank["steps"] \
        else None
    per_step = f["at_stake_ns"]
    # the gain: the group's kernels at half their roof
    want_gain = per_step * (1 - top["roof_share"] / 0.5)
    if abs(f["gain_ns"] - want_gain) > 2 or f["gain_basis"] != "roof_target":
        fail(f"gpt2: gain {f['gain_ns']} ns ({f['gain_basis']}), by hand {want_gain:.0f}")
    # the expected step is the replay's (whatif's roof_target): the host, not the GPU, sets
    # this capture's step, so the group's kernels at half their roof buy almost nothing
    mean = rank["steps"]["mean_ns"]
    if f["expected_by"] != "roof_target" or not mean - f["gain_ns"] <= f["expected_step_ns"] <= mean \
            or f["expected_speedup"] >= 1.01:
        fail(f"gpt2: expected step {f['expected_step_ns']} ({f['expected_speedup']}x) by "
             f"{f['expected_by']}, not between {mean - f['gain_ns']} and {mean}, under 1.01x")
    if steps and abs(per_step - top["gpu_ns"] / steps) > 1:
        fail(f"gpt2: {per_step} ns per step at stake, {top['gpu_ns']} / {steps} steps by hand")
    if top["name"] not in f["evidence"] or f"{top['bound']}-bound" not in f["evidence"]:
        fail(f"gpt2: evidence '{f['evidence']}'")
    _, points = html_points(exe, trace, tmp)
    if points != len(placed(roof["rows"])) or points < 4:
        fail(f"gpt2: {points} points on the chart, {len(placed(roof['rows']))} placeable groups")


def main():
    exe, shared = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        check_scenario(exe, tmp)
        check_gpt2(exe, shared, tmp)
    if failures:
        return 1
    print("ok: report's roofline on the low_mfu scenario" +
          (" and the GPT-2 capture" if os.path.isdir(shared) else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
