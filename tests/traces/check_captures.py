#!/usr/bin/env python3
"""What a user reads from `gpuscope run` traces, checked on the real H100 captures in
../shared/gpu-captures (GS_GPU_CAPTURES overrides; README.md there says what ran):

  names    `kernels` of gpt2_train.gst and of gpt2_train_torchprofiler.json.gz (the same script
           under torch.profiler) list the same kernel names, verbatim, and `diff` of the two adds
           or removes no kernel;
  gpus     `report` lists one row per GPU on every capture, with its SM count, and so does
           `report` on the capture's `export --format chrome`;
  nvtx     `ops` on resnet50_emit_nvtx.gst lists each operator of PyTorch's emit_nvtx ranges as
           one row (no "seq = " or "op_id = " left in a name), aten::convolution with as many
           calls in every step;
  steps    each ProfilerStep#N's CUDA total in `ops` is within 1 % of the step's kernel, copy and
           set time in `breakdown` on the ResNet-50 and GPT-2 captures (GPU work launched by every
           thread while the step was open);
  memory   `memory` on gpt2_train.gst shows a non-zero peak of CUDA's allocations on the GPU and
           the step it happened in;
  parts    the host-bound rule's parts (CPU operators + runtime calls + untraced host time, less
           the GPU idle after synchronizing calls) add up to the host wait it states, to the
           printed precision, on compile_reduce_overhead.gst, gpt2_train.gst and HTA's nccl_data
           (../shared/traces, GS_SHARED_TRACES);
  exposed  `report` and `comm` state the same exposed communication per step for each rank of
           HTA's trace_filter pair (../shared/traces), as JSON and as printed;
  graphs   compile_reduce_overhead.gst (torch.compile reduce-overhead, one graph instantiated and
           never launched): `launch` counts the graph, `report` puts "CUDA graphs captured but not
           replayed" first, also from its .gsum, and its Synchronization claims no more than the
           host was blocked (speed-up <= step / max(GPU work, host work)); gpt2_train.gst has no
           graph and no such finding;
  window   on gpt2_train.gst the views look at the kept steps 1-7 by default: `memcpy` leaves
           out the model's loading (156 HtoD copies, 496 MB, with --all-steps), `sync`'s top
           row is not the loading's pageable copies, `kernels` counts 7 of the 8 large GEMMs,
           report's largest idle gaps and its Idle (%) are of the kept steps (Idle + Compute +
           Non-compute over the same time as Utilization), and --from/--to and --range narrow
           the views;

  kernelop `kernels` on gpt2_train_torchprofiler.json.gz names the launching operator of its
           GEMM kernels (aten::mm, as the TensorBoard plugin's kernel view), and on
           resnet50_emit_nvtx.gst the emit_nvtx operators of its convolutions; `ops`' Self CPU %
           and Self CUDA % add up to 100 (key_averages' shares);
  eligible gpt2_train.gst and compile_reduce_overhead.gst record no operator (NVTX steps and
           CUB's ranges only): the share of Tensor-Core-eligible operators is unknown (null,
           printed "-"), not 0; resnet50_emit_nvtx.gst's operators (emit_nvtx) make it known;

usage: check_captures.py GPUSCOPE
Exit 0 all passed, 1 some failed, 77 the captures folder is absent."""
import json
import os
import re
import subprocess
import sys
import tempfile

CAPTURES = ["compile_reduce_overhead.gst", "gpt2_train.gst", "resnet50_emit_nvtx.gst",
            "resnet50_unmodified.gst"]
failures = []


def captures_root():
    env = os.environ.get("GS_GPU_CAPTURES")
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return env or os.path.normpath(os.path.join(repo, "..", "shared", "gpu-captures"))


def run(exe, *args):
    out = subprocess.run([exe, *args], capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        raise RuntimeError(f"gpuscope {' '.join(args)}: exit {out.returncode}: {out.stderr}")
    return out.stdout


def run_json(exe, *args):
    return json.loads(run(exe, *args, "--format", "json"))


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


def check_names(exe, root):
    gst = os.path.join(root, "gpt2_train.gst")
    kineto = os.path.join(root, "gpt2_train_torchprofiler.json.gz")
    ours = {r["name"] for r in run_json(exe, "kernels", "--all-steps", gst)["rows"]}
    theirs = {r["name"] for r in run_json(exe, "kernels", "--all-steps", kineto)["rows"]}
    for name in sorted(ours - theirs)[:5]:
        print("      only in gpt2_train.gst: " + name[:120])
    for name in sorted(theirs - ours)[:5]:
        print("      only in the torch.profiler trace: " + name[:120])
    check(ours == theirs and len(ours) > 0,
          f"names: {len(ours)} kernel names of gpt2_train.gst, {len(theirs)} of the "
          f"torch.profiler trace, {len(ours & theirs)} in both")
    diff = run_json(exe, "diff", "--limit", "100000", kineto, gst)
    kernels = [r for r in diff["added_removed"] if r["kind"] == "kernel"]
    check(not kernels and diff["kernels"],
          f"names: diff adds or removes {len(kernels)} kernels, matches "
          f"{len(diff['kernels'])} by name")


def check_gpus(exe, root):
    for name in CAPTURES:
        path = os.path.join(root, name)
        devices = run_json(exe, "report", path)["profile"]["devices"]
        check(len(devices) == 1 and devices[0]["sms"] == 132,
              f"gpus: report on {name} lists {len(devices)} GPU(s), SMs "
              f"{[d['sms'] for d in devices]}")
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "export.json")
            run(exe, "export", "--format", "chrome", "-o", out, path)
            props = json.load(open(out))["deviceProperties"]
            back = run_json(exe, "report", out)["profile"]["devices"]
            check(len(props) == 1 and props[0]["numSms"] == 132 and back == devices,
                  f"gpus: export --format chrome of {name} has numSms "
                  f"{[p['numSms'] for p in props]}, and reads back as the same GPU")


def check_emit_nvtx(exe, root):
    path = os.path.join(root, "resnet50_emit_nvtx.gst")
    rows = run_json(exe, "ops", "--all-steps", path)["rows"]
    left = [r["name"] for r in rows if "seq = " in r["name"] or "op_id = " in r["name"]]
    conv = [r for r in rows if r["name"] == "aten::convolution"]
    check(not left and len(conv) == 1,
          f"nvtx: {len(rows)} rows, {len(left)} still named with seq/op_id, "
          f"{len(conv)} aten::convolution row(s)")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "export.json")
        run(exe, "export", "--format", "chrome", "-o", out, path)
        events = json.load(open(out))["traceEvents"]
    steps = sorted((e["ts"], e["ts"] + e["dur"]) for e in events
                   if e.get("ph") == "X" and e["name"].startswith("ProfilerStep#"))
    per_step = [sum(1 for e in events if e.get("cat") == "cpu_op" and
                    e["name"] == "aten::convolution" and a <= e["ts"] < b) for a, b in steps]
    calls = conv[0]["calls"] if conv else -1
    check(len(set(per_step)) == 1 and per_step[0] > 0 and calls == sum(per_step),
          f"nvtx: aten::convolution calls per step {per_step}, {calls} in all")


def check_step_cuda(exe, root):
    for name in ["resnet50_emit_nvtx.gst", "gpt2_train.gst"]:
        path = os.path.join(root, name)
        ops = {r["name"]: r["cuda_total_ns"]
               for r in run_json(exe, "ops", "--keep-warmup", path)["rows"]}
        rows = run_json(exe, "breakdown", "--keep-warmup", path)["traces"][0]["rows"]
        worst = 0.0
        for r in rows:
            gpu = r["kernel_ns"] + r["memcpy_ns"] + r["memset_ns"]
            cuda = ops.get(f"ProfilerStep#{r['step']}", 0)
            worst = max(worst, abs(cuda - gpu) / gpu if gpu else 1.0)
        check(rows and worst <= 0.01,
              f"steps: {name}: ProfilerStep#N CUDA total vs the step's kernel + copy + set "
              f"time, {len(rows)} steps, worst {100 * worst:.3f} %")


def check_memory(exe, root):
    rows = run_json(exe, "memory", os.path.join(root, "gpt2_train.gst"))["rows"]
    gpu = [r for r in rows if r["device_type"] == "cuda"]
    ok = len(gpu) == 1 and gpu[0]["peak_allocated_bytes"] > 0 and gpu[0]["peak_step"] is not None
    check(ok and gpu[0]["allocator"] == "cuda",
          "memory: gpt2_train.gst: " + (f"peak {gpu[0]['peak_allocated_bytes']} bytes in step "
                                       f"{gpu[0]['peak_step']}" if gpu else "no GPU row"))


HOST_PARTS = re.compile(r"waits on host work ([\d.]+) ms per step \([\d.]+ %\): CPU operators "
                        r"([\d.]+) ms \+ runtime calls ([\d.]+) ms \+ untraced host time "
                        r"([\d.]+) ms(?:, less ([\d.]+) ms after synchronizing calls)?")


def check_host_parts(exe, root):
    traces = os.environ.get("GS_SHARED_TRACES") or os.path.join(os.path.dirname(root), "traces")
    for path in [os.path.join(root, "compile_reduce_overhead.gst"),
                 os.path.join(root, "gpt2_train.gst"),
                 os.path.join(traces, "hta", "nccl_parser_config", "nccl_data.json.gz")]:
        if not os.path.exists(path):
            print("skip  parts: " + path + " is absent")
            continue
        rules = run_json(exe, "report", path)["diagnosis"][0]["rules"]
        evidence = next(r["evidence"] for r in rules if r["class"] == "host_bound")
        m = HOST_PARTS.search(evidence)
        if not m:
            check(False, f"parts: {os.path.basename(path)}: evidence '{evidence}'")
            continue
        total, cpu, runtime, other, less = (float(v) if v else 0.0 for v in m.groups())
        parts = cpu + runtime + other - less
        # each of the five numbers is rounded to 0.001 ms
        check(abs(parts - total) <= 0.0026,
              f"parts: {os.path.basename(path)}: {cpu:.3f} + {runtime:.3f} + {other:.3f} - "
              f"{less:.3f} = {parts:.3f} ms, the host wait {total:.3f} ms")


def one_line(text):
    """The report's sentences unwrapped: it wraps them within 120 columns, each new line indented
    (doc/report.md, "Width")."""
    return re.sub(r"\n {4,}(?:why: )?", " ", text)


def check_exposed(exe, root):
    traces = os.environ.get("GS_SHARED_TRACES") or os.path.join(os.path.dirname(root), "traces")
    path = os.path.join(traces, "hta", "trace_filter")
    if not os.path.isdir(path):
        print("skip  exposed: " + path + " is absent")
        return
    comm = {r["rank"]: r["exposed_per_step_ns"] for r in run_json(exe, "comm", path)["ranks"]}
    report, fired = {}, set()
    for rank in run_json(exe, "report", path)["diagnosis"]:
        rule = next(r for r in rank["rules"] if r["class"] == "communication_bound")
        report[rank["rank"]] = rule["inputs"]["comm_exposed_ns"]
        if any(v["class"] == "communication_bound" for v in rank["verdict"]):
            fired.add(rank["rank"])
    text = one_line(run(exe, "report", path))
    # ranks whose verdicts say the same share one block, their values as a range (doc/report.md)
    printed = sorted(v for m in re.findall(r"communication not overlapped with compute takes "
                                           r"([\d.]+)(?:-([\d.]+))? ms", text) for v in m if v)
    # the ranks whose verdict holds the finding (on rank 0 the straggler's finding takes the
    # time it waits for rank 1 at the all-to-alls)
    comm_ms = sorted(f"{comm[r] / 1e6:.3f}" for r in comm if r in fired)
    check(comm == report and printed == comm_ms,
          f"exposed: comm {comm}, report {report}; printed {printed}, comm's {comm_ms}")


def check_graphs(exe, root):
    path = os.path.join(root, "compile_reduce_overhead.gst")
    row = run_json(exe, "launch", path)["rows"][0]
    check(row["graph_instantiations"] == 1 and row["graph_captures"] == 1
          and row["trace_graph_launches"] == 0 and row["graph_kernel_pct"] == 0
          and row["kernels_per_graph_launch"] is None,
          f"graphs: launch: {row['graph_captures']} captured, {row['graph_instantiations']} "
          f"instantiated, {row['trace_graph_launches']} launched, {row['graph_kernel_pct']} % "
          "of kernels from a graph (want 1, 1, 0, 0)")
    text = one_line(run(exe, "report", path))
    check("rank 0: CUDA graphs: 1 captured (0 kernel launches recorded), 1 instantiated, "
          "0 launched; 0 of 323 kernels (0.0 %) ran from a graph" in text,
          "graphs: report's What was profiled names the graph")
    with tempfile.TemporaryDirectory() as tmp:
        gsum = os.path.join(tmp, "rank0.gsum")
        run(exe, "summarize", path, "-o", gsum)
        for source in [path, gsum]:
            diag = run_json(exe, "report", source)["diagnosis"][0]
            rules = {r["class"]: r for r in diag["rules"]}
            first = diag["verdict"][0]
            graph = rules["graphs_unreplayed"]
            check(first["class"] == "graphs_unreplayed" and graph["severity"] == "bottleneck"
                  and "1 CUDA graph instantiated" in graph["evidence"]
                  and "0 graph launches" in graph["evidence"],
                  f"graphs: {os.path.basename(source)}: first finding {first['class']}: "
                  f"{graph['evidence']}")
            sync = rules["sync_bound"]
            inputs = sync["inputs"]
            step = inputs["step_ns"]
            bound = step / max(inputs["gpu_work_ns"], step - inputs["sync_blocked_ns"])
            check(sync["severity"] == "none" and sync["speedup_bound"] <= bound + 1e-3,
                  f"graphs: {os.path.basename(source)}: Synchronization {sync['severity']}, up "
                  f"to {sync['speedup_bound']:.2f}x (bound {bound:.2f}x; was 3.24x)")
    rules = run_json(exe, "report", os.path.join(root, "gpt2_train.gst"))["diagnosis"][0]["rules"]
    graph = next(r for r in rules if r["class"] == "graphs_unreplayed")
    check(graph["severity"] == "none", f"graphs: gpt2_train.gst: {graph['evidence']}")
def check_window(exe, root):
    path = os.path.join(root, "gpt2_train.gst")
    htod = lambda rows: [(r["count"], r["total_bytes"]) for r in rows if r["kind"] == "HtoD"]
    default = run_json(exe, "memcpy", path)
    whole = run_json(exe, "memcpy", "--all-steps", path)
    window = default.get("window", [{}])[0]
    check(htod(whole["rows"]) == [(156, 496448512)] and htod(default["rows"])
          and htod(default["rows"])[0][0] == 7 and window.get("first_step") == 1
          and window.get("last_step") == 7 and window.get("warmup_steps_left_out") == 1,
          f"window: memcpy HtoD {htod(default['rows'])} by default (steps "
          f"{window.get('first_step')}-{window.get('last_step')}), {htod(whole['rows'])} with "
          f"--all-steps")
    printed = run(exe, "memcpy", path).splitlines()[0]
    check(printed.startswith("Over steps 1-7 of 8 (ProfilerStep#N); warm-up step 0"),
          f"window: memcpy says {printed!r}")
    top = run_json(exe, "sync", path)["rows"][0]
    per_step = run_json(exe, "sync", "--per-step", "--keep-warmup", path)["rows"]
    kept = sum(r["blocked_ns"] for r in per_step if r["warmup"] != "yes")
    check(top["kind"] == "stream sync" and top["calls"] == 14 and top["blocked_ns"] <= kept,
          f"window: sync's top row {top['kind']} {top['api']} x{top['calls']} "
          f"{top['blocked_ns']} ns, kept steps block {kept} ns")
    gemm = [r["instances"] for r in run_json(exe, "kernels", path)["rows"]
            if "s1688gemm_bf16_128x128_tn" in r["name"]]
    check(gemm == [7], f"window: kernels counts the 128x128 GEMM {gemm} times (8 steps, 1 "
                       "left out)")
    report = run_json(exe, "report", path)
    steps = sorted({g["step"] for g in report["gaps"]})
    temporal = report["temporal"][0]
    util = [b["pct"] for b in report["diagnosis"][0]["breakdown"] if b["category"] == "Kernel"][0]
    check(report["gaps"] and 0 not in steps and abs(temporal["compute_pct"] - util) < 1.0,
          f"window: report's largest gaps in steps {steps}; Compute {temporal['compute_pct']} % "
          f"of the GPU window, kernels {util} % of the average kept step")
    narrowed = run_json(exe, "kernels", "--from", "900", "--to", "1s", path)
    w = narrowed["window"][0]
    n_from_to = sum(r["instances"] for r in narrowed["rows"])
    n_kept = sum(r["instances"] for r in run_json(exe, "kernels", path)["rows"])
    check(w["kind"] == "time" and w["from_ns"] == 900000000 and w["to_ns"] == 1000000000 and
          0 < n_from_to < n_kept,
          f"window: kernels --from 900 --to 1s: {n_from_to} kernels, {n_kept} in the kept steps")
    step3 = run_json(exe, "kernels", "--range", "ProfilerStep#3", path)
    gemm3 = [r["instances"] for r in step3["rows"] if "s1688gemm_bf16_128x128_tn" in r["name"]]
    check(gemm3 == [1] and step3["window"][0]["ranges"] == 1,
          f"window: kernels --range ProfilerStep#3 counts the GEMM {gemm3} time(s)")


def check_kernel_operator(exe, root):
    rows = run_json(exe, "kernels", "--limit", "0",
                    os.path.join(root, "gpt2_train_torchprofiler.json.gz"))["rows"]
    gemms = [r for r in rows if "gemm" in r["name"]]
    ops = {r["operator"] for r in gemms}
    check(gemms and ops <= {"aten::mm", "aten::addmm", "aten::bmm"}
          and all(r["operator_pct"] > 50 for r in gemms),
          f"kernelop: {len(gemms)} GEMM kernels launched by {sorted(ops)}")
    rows = run_json(exe, "kernels", "--limit", "0",
                    os.path.join(root, "resnet50_emit_nvtx.gst"))["rows"]
    conv = {r["operator"] for r in rows if "implicit_gemm" in r["name"] or "conv" in r["name"]}
    check(conv and all(o and o.startswith("aten::") and "seq =" not in o for o in conv),
          f"kernelop: emit_nvtx convolution kernels launched by {sorted(conv)[:4]}")
    for name in ("gpt2_train_torchprofiler.json.gz", "resnet50_emit_nvtx.gst"):
        rows = run_json(exe, "ops", "--limit", "0", os.path.join(root, name))["rows"]
        cpu = sum(r["self_cpu_pct"] or 0 for r in rows)
        cuda = sum(r["self_cuda_pct"] or 0 for r in rows)
        # The CPU shares are of the profiled CPU time, the CUDA calls' included (doc/ops.md): the
        # operators' add up to less than 100, every row's share has that one base, none is over.
        bases = [r["self_cpu_ns"] * 100 / r["self_cpu_pct"] for r in rows
                 if (r["self_cpu_pct"] or 0) >= 1]
        top = max(r["cpu_total_pct"] or 0 for r in rows)
        check(50 < cpu <= 100.05 and abs(cuda - 100) < 0.5 and top <= 100.0
              and max(bases) - min(bases) <= 0.01 * max(bases),
              f"kernelop: {name}: ops Self CPU % adds up to {cpu:.2f}, Self CUDA % to {cuda:.2f}, "
              f"largest CPU total % {top}, bases {min(bases):.0f}-{max(bases):.0f} ns")


def check_eligible(exe, root):
    for name, known in (("gpt2_train.gst", False), ("compile_reduce_overhead.gst", False),
                        ("resnet50_emit_nvtx.gst", True)):
        compute = run_json(exe, "report", os.path.join(root, name))["diagnosis"][0]["compute"]
        share = compute["tc_eligible_share"]
        check((share is not None and share > 0) if known else share is None,
              f"eligible: {name}: tc_eligible_share {share}")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    exe, root = sys.argv[1], captures_root()
    if not os.path.isdir(root):
        print(f"skip: {root} is absent (the real GPU captures)")
        return 77
    check_names(exe, root)
    check_gpus(exe, root)
    check_emit_nvtx(exe, root)
    check_step_cuda(exe, root)
    check_memory(exe, root)
    check_host_parts(exe, root)
    check_exposed(exe, root)
    check_graphs(exe, root)
    check_window(exe, root)
    check_kernel_operator(exe, root)
    check_eligible(exe, root)
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
