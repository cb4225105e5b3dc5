#!/usr/bin/env python3
"""`gpuscope diff` across collectors, on the real H100 captures in ../shared/gpu-captures
(GS_GPU_CAPTURES overrides; README.md there says what ran):

  twins    gpt2_train.gst (gpuscope run) and gpt2_train_torchprofiler.json.gz (the same script
           under torch.profiler), both ways round: the steps differ by about 14.6 ms, which is the
           profilers' own cost, not the code (the README: 46 ms under gpuscope run, 60 ms under
           torch.profiler, 39.7 ms with neither). The verdict rests on the GPU work, the same
           within 0.2 %, and says the step-time change is within what the collectors' own cost
           explains, torch.profiler's the larger; never "faster" or "slower". The GPU work per step
           it compares is within 1 % of the kernels and copies per step its own tables list.
  nvtx     resnet50_unmodified.gst against resnet50_emit_nvtx.gst (the same steps, the second under
           emit_nvtx): the setup says emit_nvtx no against yes, and the verdict is again on the
           GPU work, the same, with the step-time change within the collectors' cost.
  same     a capture against itself: same collectors, the verdict on the step time as before.

usage: check_diff_captures.py GPUSCOPE
Exit 0 all passed, 1 some failed, 77 the captures folder is absent."""
import json
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CAPTURES = os.environ.get("GS_GPU_CAPTURES") or os.path.join(REPO, "..", "shared", "gpu-captures")
GST, TWIN = "gpt2_train.gst", "gpt2_train_torchprofiler.json.gz"
PLAIN, NVTX = "resnet50_unmodified.gst", "resnet50_emit_nvtx.gst"
errors = []


def want(cond, what):
    if not cond:
        errors.append(what)


def diff(exe, base, new):
    out = subprocess.run([exe, "diff", "--format", "json", "--limit", "0",
                          os.path.join(CAPTURES, base), os.path.join(CAPTURES, new)],
                         capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        errors.append("diff %s %s exits %d: %s" % (base, new, out.returncode, out.stderr.strip()))
        return None
    return json.loads(out.stdout)


def gpu_per_step(d, side):
    """Kernel time per kept step from the kernel and added/removed tables, and the copies and sets
    of the breakdown (exclusive time: a lower bound of their own)."""
    ns = sum(r[side + "_ns"] for r in d["kernels"])
    gone = "removed" if side == "base" else "added"
    ns += sum(r["time_ns"] for r in d["added_removed"] if r["kind"] == "kernel" and r["change"] == gone)
    bd = {r["category"]: r for r in d["breakdown"]}
    return ns + bd["Memcpy"][side + "_ns"] + bd["Memset"][side + "_ns"]


def check_on_gpu_work(d, what):
    v, g, c = d["verdict"], d.get("gpu_work", {}), d.get("collectors", {})
    want(v.get("basis") == "gpu_work" and v.get("direction") == "none", "%s: verdict %s" % (what, v))
    want(g.get("ci_low_pct", 1) <= 0 <= g.get("ci_high_pct", -1), "%s: GPU work interval %s" % (what, g))
    want(c.get("differ") is True and c.get("explains_step_change") is True,
         "%s: collectors %s" % (what, c))
    want("is within what the collectors' own cost explains" in v["text"]
         and "faster" not in v["text"] and "slower" not in v["text"], "%s: text %s" % (what, v["text"]))
    for side in ("base", "new"):
        listed = gpu_per_step(d, side)
        want(abs(g.get(side + "_med_ns", 0) - listed) <= 0.01 * listed,
             "%s: %s GPU work %s against %d listed" % (what, side, g.get(side + "_med_ns"), listed))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    exe = sys.argv[1]
    if not all(os.path.isfile(os.path.join(CAPTURES, f)) for f in (GST, TWIN, PLAIN, NVTX)):
        print("skip: %s is absent" % CAPTURES)
        return 77
    for base, new in ((GST, TWIN), (TWIN, GST)):
        d = diff(exe, base, new)
        if not d:
            continue
        what = "%s -> %s" % (base, new)
        check_on_gpu_work(d, what)
        g, c = d.get("gpu_work", {}), d.get("collectors", {})
        want(abs(g.get("change_pct", 1)) < 0.2, "%s: GPU work change %s" % (what, g.get("change_pct")))
        own = {c.get("base"): c.get("base_own_ns", 0), c.get("new"): c.get("new_own_ns", 0)}
        want(set(own) == {"gpuscope run", "torch.profiler"} and
             own["torch.profiler"] > own["gpuscope run"] + 5e6, "%s: own cost %s" % (what, own))
    d = diff(exe, PLAIN, NVTX)
    if d:
        check_on_gpu_work(d, "emit_nvtx")
        setup = {i["item"]: i for i in d["setup"]["items"]}
        want(setup["emit_nvtx"]["base"] == "no" and setup["emit_nvtx"]["new"] == "yes",
             "emit_nvtx row %s" % setup["emit_nvtx"])
        c = d.get("collectors", {})
        want(c.get("new_own_ns", 0) > c.get("base_own_ns", 0) + 10e6, "emit_nvtx own cost %s" % c)
    d = diff(exe, GST, GST)
    if d:
        want(d["verdict"].get("basis") == "step_time" and d["verdict"]["direction"] == "none" and
             d.get("collectors", {}).get("differ") is False, "self: %s" % d["verdict"])
    for e in errors:
        print("FAIL:", e)
    print("%s" % ("failed" if errors else "passed"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
