#!/usr/bin/env python3
"""Compare a trace recorded by `gpuscope run` with what the traced program says it did.

    check_trace.py --gpuscope BIN --trace X.gst --expected EXPECTED.json [--save-dir DIR]
    check_trace.py --self-test

The program (tests/gpu/streams_copies.cu, tests/gpu/torch_step.py) writes EXPECTED.json; this
script runs `gpuscope VIEW X.gst --format json` for the views it needs (kernels, memcpy, api,
sync, ops, steps), saves each output under --save-dir when given, and checks each section of
EXPECTED.json that is present:

  kernels          {name: instances}: every name present with exactly that many instances, and
                   no kernel name that is not expected
  kernel_min_ns    {name: ns}: every instance lasts at least 90 % of it, minus 2 us (busy waits
                   on %globaltimer: catches a unit or clock mix-up)
  phases           [{name, nvtx, ns, serial, copies, kernels}]: ns is the phase's CUDA-event
                   time. Each kernel of the phase: longest instance and its summed time <= ns;
                   a serial phase: the sum over all its kernels <= ns; a phase with copies: the
                   longest copy and set <= ns; the NVTX range `nvtx` (host) lasts >= ns.
                   (Tolerance: 2 % + 5 us.)
  copies           [{kind, src, dst, count, bytes}]: one row per (kind, src, dst) with exactly
                   that count and bytes, and no other copy rows. (A DtoD row may leave src/dst
                   unsaid; a pageable copy split in more records than calls, bytes exact, is a
                   WARN.)
  memset           {count, bytes}: over all Memset rows, exact
  graph            {launches, kernels_per_launch}: instances of each graph kernel = launches x
                   per launch; cudaGraphLaunch calls = launches
  api_calls        {name: calls}: exact, version suffixes (_v3020) dropped; cudaLaunchKernel
                   counts cudaLaunchKernel, cudaLaunchKernelExC and cudaLaunchKernelEx together
  sync_calls       {api: calls}: the sync view's calls summed by api, exact
  nvtx_ranges      {name: ranges}: the ops view's row of that name has exactly that many calls
                   (a row named DOMAIN<sep>name is accepted, with a note)
  min_kernels_total  the kernels view's instances summed >= it
  min_copy_bytes   {kind: bytes}: the copy rows of that kind hold >= bytes in all
  steps            N: `gpuscope steps --step 'ProfilerStep#[0-9]+' --keep-warmup` finds N steps

Prints one PASS / FAIL / WARN line per check and a summary; exit 0 when nothing failed, 1 when a
check failed, 2 on usage or when gpuscope could not be run.

--self-test feeds the checks fabricated expected values and view outputs, matching and then
broken one way at a time, and asserts that they pass and fail as they should (no GPU needed).
"""

import argparse
import copy
import json
import os
import re
import subprocess
import sys

TOL_REL = 0.02  # phase checks: 2 % ...
TOL_ABS = 5000  # ... + 5 us
LAUNCH_NAMES = ("cudaLaunchKernel", "cudaLaunchKernelExC", "cudaLaunchKernelEx")


class Result:
    def __init__(self, quiet=False):
        self.passed = 0
        self.failed = 0
        self.warned = 0
        self.quiet = quiet
        self.failures = []

    def _say(self, tag, what, detail):
        if not self.quiet:
            print(f"{tag} {what}: {detail}", flush=True)

    def ok(self, what, detail):
        self.passed += 1
        self._say("PASS", what, detail)

    def fail(self, what, detail):
        self.failed += 1
        self.failures.append(what)
        self._say("FAIL", what, detail)

    def info(self, what, detail):
        self._say("INFO", what, detail)

    def warn(self, what, detail):
        self.warned += 1
        self._say("WARN", what, detail)

    def check(self, cond, what, detail):
        (self.ok if cond else self.fail)(what, detail)


def api_base(name):
    """cudaMemcpy_v3020 -> cudaMemcpy; cudaLaunchKernel_ptsz -> cudaLaunchKernel."""
    name = re.sub(r"_v\d+$", "", name)
    name = re.sub(r"_(ptsz|ptds)$", "", name)
    return name


def within(x, limit):
    return x <= limit * (1 + TOL_REL) + TOL_ABS


def fmt_ns(ns):
    return f"{ns / 1e3:.2f} us"


# ---- views ---------------------------------------------------------------------------------

class GpuscopeViews:
    """Runs `gpuscope VIEW TRACE --format json`, once per view, and keeps the parsed output."""

    def __init__(self, gpuscope, trace, save_dir=None):
        self.gpuscope = gpuscope
        self.trace = trace
        self.save_dir = save_dir
        self.cache = {}

    def get(self, view):
        if view in self.cache:
            return self.cache[view]
        argv = [self.gpuscope, view, self.trace, "--format", "json"]
        if view == "steps":
            argv += ["--step", "ProfilerStep#[0-9]+", "--keep-warmup"]
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if self.save_dir:
            with open(os.path.join(self.save_dir, f"{view}.json"), "w") as f:
                f.write(p.stdout)
            if p.stderr:
                with open(os.path.join(self.save_dir, f"{view}.stderr"), "w") as f:
                    f.write(p.stderr)
        if p.returncode != 0:
            raise ViewError(f"`{' '.join(argv)}` exited {p.returncode}: {p.stderr.strip()[:500]}")
        try:
            obj = json.loads(p.stdout)
        except ValueError as e:
            raise ViewError(f"`{' '.join(argv)}` printed no valid JSON ({e})")
        self.cache[view] = obj
        return obj


class FakeViews:
    def __init__(self, outputs):
        self.outputs = outputs

    def get(self, view):
        if view not in self.outputs:
            raise ViewError(f"no {view} output")
        return self.outputs[view]


class ViewError(Exception):
    pass


def rows(views, view, res):
    try:
        obj = views.get(view)
    except ViewError as e:
        res.fail(f"{view} view", str(e))
        return None
    if view == "steps":
        return obj.get("traces", [])
    r = obj.get("rows")
    if not isinstance(r, list):
        res.fail(f"{view} view", "no \"rows\" list in its JSON")
        return None
    return r


# ---- checks --------------------------------------------------------------------------------

def check_kernels(exp, views, res):
    krows = rows(views, "kernels", res)
    if krows is None:
        return {}
    by = {}
    for r in krows:
        d = by.setdefault(r["name"], {"instances": 0, "total_ns": 0, "min_ns": None, "max_ns": 0})
        d["instances"] += r["instances"]
        d["total_ns"] += r["total_ns"]
        d["min_ns"] = r["min_ns"] if d["min_ns"] is None else min(d["min_ns"], r["min_ns"])
        d["max_ns"] = max(d["max_ns"], r["max_ns"])

    if "kernels" in exp:
        want = exp["kernels"]
        for name, n in want.items():
            got = by.get(name, {}).get("instances", 0)
            res.check(got == n, f"kernel count {name}", f"expected {n}, trace has {got}")
        extra = sorted(set(by) - set(want))
        res.check(not extra, "no unexpected kernels",
                  "none" if not extra else "trace has " + ", ".join(
                      f"{k} x{by[k]['instances']}" for k in extra))
        tot_want = sum(want.values())
        tot_got = sum(d["instances"] for d in by.values())
        res.check(tot_got == tot_want, "kernel total", f"expected {tot_want}, trace has {tot_got}")

    for name, lo in exp.get("kernel_min_ns", {}).items():
        d = by.get(name)
        if d is None:
            res.fail(f"kernel min duration {name}", "kernel not in the trace")
            continue
        bound = 0.9 * lo - 2000
        res.check(d["min_ns"] >= bound, f"kernel min duration {name}",
                  f"shortest instance {fmt_ns(d['min_ns'])}, busy-waits {fmt_ns(lo)} "
                  f"(must be >= {fmt_ns(bound)})")

    if "min_kernels_total" in exp:
        tot = sum(d["instances"] for d in by.values())
        res.check(tot >= exp["min_kernels_total"], "kernels recorded",
                  f"{tot} instances, {len(by)} names (at least {exp['min_kernels_total']} expected)")
    return by


def group_copies(mrows):
    copies, memset = {}, {"count": 0, "bytes": 0, "max_ns": 0}
    for r in mrows:
        if r["kind"] == "Memset":
            memset["count"] += r["count"]
            memset["bytes"] += r["total_bytes"]
            memset["max_ns"] = max(memset["max_ns"], r["max_ns"])
            continue
        key = (r["kind"], r.get("src"), r.get("dst"))
        d = copies.setdefault(key, {"count": 0, "bytes": 0, "max_ns": 0})
        d["count"] += r["count"]
        d["bytes"] += r["total_bytes"]
        d["max_ns"] = max(d["max_ns"], r["max_ns"])
    return copies, memset


def copy_label(kind, src, dst):
    return f"{kind} ({src or '?'} -> {dst or '?'})"


def check_copies(exp, views, res):
    if not any(k in exp for k in ("copies", "memset", "min_copy_bytes", "phases")):
        return {}, None
    mrows = rows(views, "memcpy", res)
    if mrows is None:
        return {}, None
    copies, memset = group_copies(mrows)

    if "copies" in exp:
        seen = set()
        for c in exp["copies"]:
            kind, src, dst = c["kind"], c["src"], c["dst"]
            label = copy_label(kind, src, dst)
            key = (kind, src, dst)
            if key not in copies and kind == "DtoD":
                # the trace may leave the memory of a device-to-device copy unsaid
                for alt in ((kind, None, None), (kind, "Device", None), (kind, None, "Device")):
                    if alt in copies:
                        key = alt
                        res.warn(f"copy {label}", "trace leaves its memory kinds unsaid: "
                                 + copy_label(*alt))
                        break
            d = copies.get(key)
            if d is None:
                res.fail(f"copy {label}", "no such row; trace has: " + (", ".join(
                    f"{copy_label(*k)} x{v['count']} {v['bytes']} B" for k, v in sorted(
                        copies.items(), key=str)) or "no copies"))
                continue
            seen.add(key)
            res.check(d["bytes"] == c["bytes"], f"copy bytes {label}",
                      f"expected {c['bytes']} B, trace has {d['bytes']} B")
            if d["count"] == c["count"]:
                res.ok(f"copy count {label}", f"{d['count']}")
            elif "Pageable" in (src, dst) and d["count"] > c["count"] and d["bytes"] == c["bytes"]:
                res.warn(f"copy count {label}",
                         f"expected {c['count']} calls, trace has {d['count']} records with the "
                         "same bytes (the driver split a pageable copy)")
            else:
                res.fail(f"copy count {label}", f"expected {c['count']}, trace has {d['count']}")
        extra = [k for k in copies if k not in seen]
        res.check(not extra, "no unexpected copies", "none" if not extra else ", ".join(
            f"{copy_label(*k)} x{copies[k]['count']} {copies[k]['bytes']} B" for k in extra))

    if "memset" in exp:
        m = exp["memset"]
        res.check(memset["count"] == m["count"], "memset count",
                  f"expected {m['count']}, trace has {memset['count']}")
        res.check(memset["bytes"] == m["bytes"], "memset bytes",
                  f"expected {m['bytes']} B, trace has {memset['bytes']} B")

    for kind, lo in exp.get("min_copy_bytes", {}).items():
        got = sum(d["bytes"] for k, d in copies.items() if k[0] == kind)
        res.check(got >= lo, f"{kind} copy bytes", f"{got} B (at least {lo} B expected)")
    return copies, memset


def check_api(exp, views, res):
    if "api_calls" not in exp and "graph" not in exp:
        return
    arows = rows(views, "api", res)
    if arows is None:
        return
    calls = {}
    for r in arows:
        calls[api_base(r["name"])] = calls.get(api_base(r["name"]), 0) + r["calls"]
    for name, n in exp.get("api_calls", {}).items():
        if name == "cudaLaunchKernel":
            got = sum(calls.get(x, 0) for x in LAUNCH_NAMES)
            what = "+".join(x for x in LAUNCH_NAMES if x in calls) or name
        else:
            got, what = calls.get(name, 0), name
        res.check(got == n, f"api calls {name}", f"expected {n}, trace has {got} ({what})")
    g = exp.get("graph")
    if g:
        got = calls.get("cudaGraphLaunch", 0)
        res.check(got == g["launches"], "graph launches (cudaGraphLaunch calls)",
                  f"expected {g['launches']}, trace has {got}")


def check_graph_kernels(exp, kernels, res):
    g = exp.get("graph")
    if not g:
        return
    for name, per in g["kernels_per_launch"].items():
        want = per * g["launches"]
        got = kernels.get(name, {}).get("instances", 0)
        res.check(got == want, f"graph kernel {name}",
                  f"expected {per} per launch x {g['launches']} launches = {want}, trace has {got}")


def check_sync(exp, views, res):
    if "sync_calls" not in exp:
        return
    srows = rows(views, "sync", res)
    if srows is None:
        return
    calls = {}
    for r in srows:
        calls[api_base(r["api"])] = calls.get(api_base(r["api"]), 0) + r["calls"]
    for name, n in exp["sync_calls"].items():
        got = calls.get(name, 0)
        res.check(got == n, f"sync calls {name}", f"expected {n}, trace has {got}")


def check_nvtx(exp, views, res):
    if "nvtx_ranges" not in exp and "phases" not in exp:
        return {}
    orows = rows(views, "ops", res)
    if orows is None:
        return {}
    by = {}
    for r in orows:
        d = by.setdefault(r["name"], {"calls": 0, "cpu_total_ns": 0})
        d["calls"] += r["calls"]
        d["cpu_total_ns"] += r["cpu_total_ns"]
    want = exp.get("nvtx_ranges", {})
    used = set()
    for name, n in want.items():
        row = name
        if name not in by:
            alts = [k for k in by if k != name and k.endswith(name) and not k[-len(name) - 1]
                    .isalnum()]
            if len(alts) == 1:
                row = alts[0]
                res.warn(f"nvtx range {name}", f"found as \"{row}\" (domain prefix?)")
        got = by.get(row, {}).get("calls", 0)
        used.add(row)
        res.check(got == n, f"nvtx range {name}", f"expected {n}, trace has {got}")
    if exp.get("program") == "streams_copies":
        extra = sorted(set(by) - used)
        if extra:
            res.warn("unexpected ops rows", ", ".join(f"{k} x{by[k]['calls']}" for k in extra))
    return by


def check_phases(exp, kernels, copies, memset, ranges, res):
    for ph in exp.get("phases", []):
        name, ns = ph["name"], ph["ns"]
        if ns <= 0:
            res.fail(f"phase {name}", f"CUDA-event time is {ns} ns (a --dry-run file?)")
            continue
        tot = 0
        for k in ph["kernels"]:
            d = kernels.get(k)
            if d is None:
                res.fail(f"phase {name}: kernel {k}", "not in the trace")
                continue
            tot += d["total_ns"]
            res.check(within(d["max_ns"], ns) and within(d["total_ns"], ns),
                      f"phase {name}: kernel {k} duration",
                      f"longest {fmt_ns(d['max_ns'])}, sum {fmt_ns(d['total_ns'])} "
                      f"vs phase {fmt_ns(ns)} (CUDA events)")
        if ph["kernels"] and ph.get("serial"):
            res.check(within(tot, ns), f"phase {name}: serial kernels fit",
                      f"sum of kernel time {fmt_ns(tot)} vs phase {fmt_ns(ns)} (CUDA events)")
        elif ph["kernels"]:
            res.info(f"phase {name}: concurrency",
                   f"sum of kernel time {fmt_ns(tot)} in a {fmt_ns(ns)} phase "
                   f"({tot / ns:.2f}x overlapped)")
        if ph.get("copies") and copies is not None:
            longest = max([d["max_ns"] for d in copies.values()] +
                          [memset["max_ns"] if memset else 0])
            res.check(0 < longest and within(longest, ns), f"phase {name}: copy durations",
                      f"longest copy or set {fmt_ns(longest)} vs phase {fmt_ns(ns)} (CUDA events)")
        rng = ph.get("nvtx")
        if rng:
            d = ranges.get(rng)
            if d is None or d["calls"] != 1:
                res.fail(f"phase {name}: NVTX range covers it",
                         f"range \"{rng}\" " + ("missing" if d is None else f"x{d['calls']}"))
            else:
                res.check(d["cpu_total_ns"] >= ns * 0.99 - 2000,
                          f"phase {name}: NVTX range covers it",
                          f"host range {fmt_ns(d['cpu_total_ns'])} >= phase {fmt_ns(ns)} "
                          "(CUDA events)")


def check_steps(exp, views, res):
    if "steps" not in exp:
        return
    traces = rows(views, "steps", res)
    if traces is None:
        return
    got = sum(len(t.get("rows", [])) for t in traces)
    res.check(got == exp["steps"], "steps (ProfilerStep#N NVTX ranges)",
              f"expected {exp['steps']}, `gpuscope steps` finds {got}")


def run_checks(exp, views, res):
    if exp.get("dry_run"):
        res.fail("expected values", "written by --dry-run: no CUDA-event times")
    kernels = check_kernels(exp, views, res) if any(
        k in exp for k in ("kernels", "kernel_min_ns", "min_kernels_total", "phases", "graph")) \
        else {}
    copies, memset = check_copies(exp, views, res)
    check_graph_kernels(exp, kernels, res)
    check_api(exp, views, res)
    check_sync(exp, views, res)
    ranges = check_nvtx(exp, views, res)
    check_phases(exp, kernels, copies, memset, ranges, res)
    check_steps(exp, views, res)
    return res


# ---- self-test -----------------------------------------------------------------------------

def fabricate():
    """Expected values shaped as streams_copies writes them, and view outputs that match."""
    exp = {
        "program": "streams_copies", "dry_run": False,
        "device": {"name": "fake", "cc": "9.0"},
        "kernels": {"gs_warmup": 1, "gs_fill": 1, "gs_axpy": 20, "gs_scale": 10,
                    "gs_spin_a": 4, "gs_spin_b": 4, "gs_spin_c": 4,
                    "gs_graph_spin": 5, "gs_graph_scale": 10, "gs_graph_add": 5},
        "kernel_min_ns": {"gs_spin_a": 200000, "gs_spin_b": 200000, "gs_spin_c": 200000,
                          "gs_graph_spin": 20000},
        "phases": [
            {"name": "copies", "nvtx": "phase:copies", "ns": 3000000, "serial": True,
             "copies": True, "kernels": []},
            {"name": "single_stream", "nvtx": "phase:single_stream", "ns": 1000000,
             "serial": True, "copies": False, "kernels": ["gs_fill", "gs_axpy", "gs_scale"]},
            {"name": "multi_stream", "nvtx": "phase:multi_stream", "ns": 820000,
             "serial": False, "copies": False, "kernels": ["gs_spin_a", "gs_spin_b", "gs_spin_c"]},
            {"name": "graph", "nvtx": "phase:graph", "ns": 600000, "serial": True,
             "copies": False, "kernels": ["gs_graph_spin", "gs_graph_scale", "gs_graph_add"]},
        ],
        "copies": [
            {"kind": "HtoD", "src": "Pageable", "dst": "Device", "count": 2, "bytes": 8388608},
            {"kind": "HtoD", "src": "Pinned", "dst": "Device", "count": 3, "bytes": 6291456},
            {"kind": "DtoH", "src": "Device", "dst": "Pinned", "count": 2, "bytes": 2097152},
            {"kind": "DtoH", "src": "Device", "dst": "Pageable", "count": 2, "bytes": 3670016},
            {"kind": "DtoD", "src": "Device", "dst": "Device", "count": 1, "bytes": 8388608},
        ],
        "memset": {"count": 3, "bytes": 5767168},
        "graph": {"launches": 5,
                  "kernels_per_launch": {"gs_graph_spin": 1, "gs_graph_scale": 2, "gs_graph_add": 1}},
        "sync_calls": {"cudaStreamSynchronize": 4, "cudaDeviceSynchronize": 2,
                       "cudaEventSynchronize": 4},
        "api_calls": {"cudaLaunchKernel": 48, "cudaDeviceSynchronize": 2, "cudaMemcpy": 3,
                      "cudaMemcpyAsync": 7, "cudaMemset": 1, "cudaMemsetAsync": 2,
                      "cudaStreamSynchronize": 4, "cudaEventSynchronize": 4,
                      "cudaStreamWaitEvent": 6, "cudaGraphLaunch": 5},
        "nvtx_ranges": {"gs_main": 1, "phase:warmup": 1, "phase:copies": 1,
                        "phase:single_stream": 1, "iter": 20, "phase:multi_stream": 1,
                        "phase:graph_capture": 1, "phase:graph": 1, "gs_colored_range": 3,
                        "gs_start_end": 2, "gs_start_end_ex": 1, "gs_domain_range": 3,
                        "gs_domain_start_end": 2},
    }

    def krow(name, n, each):
        return {"time_pct": 1.0, "total_ns": n * each, "instances": n, "avg_ns": each,
                "med_ns": each, "min_ns": each, "max_ns": each, "stddev_ns": 0, "name": name}

    kdur = {"gs_warmup": 2000, "gs_fill": 20000, "gs_axpy": 30000, "gs_scale": 25000,
            "gs_spin_a": 201000, "gs_spin_b": 201000, "gs_spin_c": 200500,
            "gs_graph_spin": 21000, "gs_graph_scale": 25000, "gs_graph_add": 30000}
    kernels = {"command": "kernels",
               "rows": [krow(n, c, kdur[n]) for n, c in exp["kernels"].items()]}

    def mrow(kind, src, dst, count, nbytes, each):
        op = kind if src is None and kind != "Memset" else (
            f"Memset ({dst})" if kind == "Memset" else f"{kind} ({src} -> {dst})")
        return {"time_pct": 1.0, "total_ns": count * each, "count": count, "avg_ns": each,
                "med_ns": each, "min_ns": each, "max_ns": each, "total_bytes": nbytes,
                "bandwidth_gbps": 1.0, "operation": op, "kind": kind, "src": src, "dst": dst}

    memcpy = {"command": "memcpy", "rows": [
        mrow(c["kind"], c["src"], c["dst"], c["count"], c["bytes"], 100000) for c in exp["copies"]
    ] + [mrow("Memset", None, "Device", 1, 5242880, 20000),
         mrow("Memset", None, "Device", 2, 524288, 3000)]}
    # the real view has one Memset row; two rows check that they are summed

    api_names = {"cudaLaunchKernel": "cudaLaunchKernel_v7000", "cudaMemcpy": "cudaMemcpy_v3020",
                 "cudaMemcpyAsync": "cudaMemcpyAsync_v3020"}
    api = {"command": "api", "rows": [
        {"time_pct": 1.0, "total_ns": 1000 * n, "calls": n, "avg_ns": 1000, "med_ns": 1000,
         "min_ns": 1000, "max_ns": 1000, "stddev_ns": 0, "name": api_names.get(name, name)}
        for name, n in exp["api_calls"].items()] + [
        {"time_pct": 1.0, "total_ns": 1000, "calls": 1, "avg_ns": 1000, "med_ns": 1000,
         "min_ns": 1000, "max_ns": 1000, "stddev_ns": 0, "name": "cudaEventRecord"}]}

    kinds = {"cudaStreamSynchronize": "stream sync", "cudaDeviceSynchronize": "device sync",
             "cudaEventSynchronize": "event sync"}
    sync = {"command": "sync", "rows": [
        {"step_pct": 1.0, "blocked_ns": 1000, "calls": 1, "avg_ns": 1000, "max_ns": 1000,
         "gpu_wait_ns": 0, "kind": kinds[name], "api": name, "operator": "phase:copies"}
        for name, n in exp["sync_calls"].items() for _ in range(n)] + [
        {"step_pct": 1.0, "blocked_ns": 1000, "calls": 3, "avg_ns": 1000, "max_ns": 1000,
         "gpu_wait_ns": 0, "kind": "sync memcpy", "api": "cudaMemcpy", "operator": "phase:copies"}]}

    phase_ns = {p["nvtx"]: p["ns"] for p in exp["phases"]}
    ops = {"command": "ops", "rows": [
        {"name": name, "calls": n, "self_cpu_ns": 1000, "cpu_total_ns": phase_ns.get(name, 0)
         + 50000, "self_cuda_ns": 0, "cuda_total_ns": 0}
        for name, n in exp["nvtx_ranges"].items()]}
    return exp, {"kernels": kernels, "memcpy": memcpy, "api": api, "sync": sync, "ops": ops}


def self_test():
    def outcome(exp, views):
        res = Result(quiet=True)
        run_checks(exp, views, res)
        return res

    failures = []

    def expect(label, exp, views, should_fail, must_name=None, warns=None):
        res = outcome(exp, FakeViews(views))
        bad = (res.failed > 0) != should_fail
        if must_name and not any(must_name in f for f in res.failures):
            bad = True
        if warns is not None and res.warned != warns:
            bad = True
        tag = "ok  " if not bad else "BAD "
        print(f"self-test {tag} {label}: {res.passed} passed, {res.failed} failed "
              f"({', '.join(res.failures[:3]) or '-'}), {res.warned} warned")
        if bad:
            failures.append(label)

    exp, views = fabricate()
    expect("matching trace passes", exp, views, False, warns=0)

    def mutated(label, fn, must_name=None, should_fail=True, warns=None):
        e, v = fabricate()
        fn(e, v)
        expect(label, e, v, should_fail, must_name, warns)

    def krow(v, name):
        return next(r for r in v["kernels"]["rows"] if r["name"] == name)

    def mrow(v, kind, src):
        return next(r for r in v["memcpy"]["rows"] if r["kind"] == kind and r["src"] == src)

    def orow(v, name):
        return next(r for r in v["ops"]["rows"] if r["name"] == name)

    mutated("a kernel launch missing", lambda e, v: krow(v, "gs_axpy").update(instances=19),
            "kernel count gs_axpy")
    mutated("a kernel absent", lambda e, v: v["kernels"]["rows"].remove(krow(v, "gs_fill")),
            "kernel count gs_fill")
    mutated("an unexpected kernel", lambda e, v: v["kernels"]["rows"].append(
        dict(krow(v, "gs_fill"), name="memset_kernel")), "no unexpected kernels")
    mutated("a mangled kernel name", lambda e, v: krow(v, "gs_scale").update(name="_Z8gs_scalePffi"),
            "kernel count gs_scale")
    mutated("graph kernels recorded once per graph",
            lambda e, v: krow(v, "gs_graph_scale").update(instances=2), "graph kernel gs_graph_scale")
    mutated("spin kernel too short (us read as ns?)",
            lambda e, v: krow(v, "gs_spin_b").update(min_ns=201), "kernel min duration gs_spin_b")
    mutated("kernel longer than its phase",
            lambda e, v: krow(v, "gs_spin_c").update(max_ns=2000000), "phase multi_stream")
    mutated("serial kernels longer than their phase",
            lambda e, v: krow(v, "gs_axpy").update(total_ns=2000000), "phase single_stream")
    mutated("pinned reported as pageable",
            lambda e, v: mrow(v, "HtoD", "Pinned").update(src="Pageable"), "copy HtoD (Pinned")
    mutated("copy bytes off by one",
            lambda e, v: mrow(v, "DtoH", "Device").update(total_bytes=2097153), "copy bytes")
    mutated("copy count off", lambda e, v: mrow(v, "DtoH", "Device").update(count=3), "copy count")
    mutated("pageable copy split in two records (warn only)",
            lambda e, v: mrow(v, "HtoD", "Pageable").update(count=4), should_fail=False, warns=1)
    mutated("DtoD with no memory kinds (warn only)",
            lambda e, v: mrow(v, "DtoD", "Device").update(src=None, dst=None),
            should_fail=False, warns=1)
    mutated("an unexpected copy", lambda e, v: v["memcpy"]["rows"].append(
        dict(mrow(v, "DtoD", "Device"), kind="HtoH", src="Pinned", dst="Pinned")),
        "no unexpected copies")
    mutated("memset bytes off",
            lambda e, v: next(r for r in v["memcpy"]["rows"] if r["kind"] == "Memset").update(
                total_bytes=1), "memset bytes")
    mutated("memset missing", lambda e, v: v["memcpy"].update(rows=[
        r for r in v["memcpy"]["rows"] if r["kind"] != "Memset"]), "memset count")
    mutated("copy longer than its phase",
            lambda e, v: mrow(v, "DtoD", "Device").update(max_ns=5000000), "phase copies")
    mutated("nvtx count off", lambda e, v: orow(v, "iter").update(calls=19), "nvtx range iter")
    mutated("nvtx start/end ranges missing",
            lambda e, v: v["ops"]["rows"].remove(orow(v, "gs_start_end")), "nvtx range gs_start_end")
    mutated("domain range shown with its domain (warn only)",
            lambda e, v: orow(v, "gs_domain_range").update(name="gpuscope_test::gs_domain_range"),
            should_fail=False, warns=1)
    mutated("nvtx range shorter than the GPU phase (clock/unit bug)",
            lambda e, v: orow(v, "phase:graph").update(cpu_total_ns=4000), "phase graph: NVTX")
    mutated("graph launch calls missing",
            lambda e, v: v["api"]["rows"].remove(next(
                r for r in v["api"]["rows"] if r["name"] == "cudaGraphLaunch")), "graph launches")
    mutated("launch calls off",
            lambda e, v: next(r for r in v["api"]["rows"] if r["name"].startswith(
                "cudaLaunchKernel")).update(calls=44), "api calls cudaLaunchKernel")
    mutated("launches split over Ex and plain",
            lambda e, v: (next(r for r in v["api"]["rows"] if r["name"].startswith(
                "cudaLaunchKernel")).update(calls=40), v["api"]["rows"].append(
                dict(v["api"]["rows"][0], name="cudaLaunchKernelExC_v11060", calls=8))),
            should_fail=False)
    mutated("event sync missing from the sync view",
            lambda e, v: v["sync"].update(rows=[r for r in v["sync"]["rows"]
                                                if r["api"] != "cudaEventSynchronize"]),
            "sync calls cudaEventSynchronize")
    mutated("dry-run expected file", lambda e, v: e.update(dry_run=True), "expected values")
    mutated("phase not timed", lambda e, v: e["phases"][1].update(ns=0), "phase single_stream")
    mutated("kernels view fails", lambda e, v: v.pop("kernels"), "kernels view")

    # torch_step's expected file
    texp = {"program": "torch_step", "steps": 3,
            "nvtx_ranges": {"ProfilerStep#0": 1, "ProfilerStep#1": 1, "ProfilerStep#2": 1},
            "min_kernels_total": 3, "min_copy_bytes": {"HtoD": 1000}}
    _, tv = fabricate()
    tv["ops"]["rows"] = [{"name": f"ProfilerStep#{i}", "calls": 1, "self_cpu_ns": 1,
                          "cpu_total_ns": 10, "self_cuda_ns": 0, "cuda_total_ns": 0}
                         for i in range(3)]
    tv["steps"] = {"command": "steps", "traces": [{"rows": [{"step": i} for i in range(3)]}]}
    expect("torch: matching trace passes", texp, tv, False)
    tv2 = copy.deepcopy(tv)
    tv2["steps"]["traces"][0]["rows"].pop()
    expect("torch: a step missing", texp, tv2, True, "steps")
    tv3 = copy.deepcopy(tv)
    tv3["memcpy"]["rows"] = [r for r in tv3["memcpy"]["rows"] if r["kind"] != "HtoD"]
    expect("torch: no HtoD copies", texp, tv3, True, "HtoD copy bytes")
    tv4 = copy.deepcopy(tv)
    tv4["kernels"]["rows"] = []
    expect("torch: no kernels", texp, tv4, True, "kernels recorded")

    # and once loud, so the output format can be eyeballed
    print("--- one full run on matching data ---")
    res = Result()
    run_checks(exp, FakeViews(views), res)
    print(f"check_trace: {res.passed} passed, {res.failed} failed, {res.warned} warnings")
    if failures:
        print(f"SELF-TEST FAIL: {len(failures)} case(s) wrong: {', '.join(failures)}")
        return 1
    print("SELF-TEST PASS")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gpuscope", help="the gpuscope binary")
    ap.add_argument("--trace", help="the .gst file")
    ap.add_argument("--expected", help="the program's expected-values JSON")
    ap.add_argument("--save-dir", help="write each view's JSON output here")
    ap.add_argument("--self-test", action="store_true", help="check the checks (no GPU needed)")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    if not (a.gpuscope and a.trace and a.expected):
        ap.error("--gpuscope, --trace and --expected are required (or --self-test)")
    try:
        with open(a.expected) as f:
            exp = json.load(f)
    except (OSError, ValueError) as e:
        print(f"FAIL expected values: cannot read {a.expected}: {e}")
        return 1
    if not os.path.isfile(a.trace):
        print(f"FAIL trace: {a.trace} does not exist")
        return 1
    if a.save_dir:
        os.makedirs(a.save_dir, exist_ok=True)
    res = Result()
    run_checks(exp, GpuscopeViews(a.gpuscope, a.trace, a.save_dir), res)
    print(f"check_trace: {exp.get('program', '?')}: {res.passed} passed, {res.failed} failed, "
          f"{res.warned} warnings")
    return 1 if res.failed else 0


if __name__ == "__main__":
    sys.exit(main())
