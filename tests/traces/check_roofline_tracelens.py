#!/usr/bin/env python3
"""gpuscope's FLOPs and bytes per operator call against AMD's TraceLens on the same trace:
tracelens/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz of ../shared/traces (GS_SHARED_TRACES
overrides) and TraceLens's own report of it, tracelens/reference/h100_qwen_perf_report_csvs/
(AMD-AGI/TraceLens, MIT). For every row of its GEMM.csv, SDPA_fwd.csv, BinaryElementwise.csv,
UnaryElementwise.csv and Reduce_fwd.csv, the row of `gpuscope ops --roofline --group-by-shape` with
the same operator and Input Dims gives FLOPs and bytes per call (its flops and bytes / its calls);
TraceLens's per call are GFLOPS_first x 1e9 and "Data Moved (MB)_first" x 2^20 (its MB are MiB).

  same model   within 1 % (the rows not in DIFFERENT below);
  different    the rows in DIFFERENT: gpuscope's value is exactly the one the listed difference
               in model predicts from TraceLens's, so the test fails when either side changes.
The table of both is in doc/roofline.md, "against TraceLens".

usage: check_roofline_tracelens.py GPUSCOPE
Exit 0 all passed, 1 some failed, 77 the trace or the report is absent."""
import csv
import json
import os
import subprocess
import sys

from shared_checks import check, failures, traces_root

TRACE = "tracelens/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz"
REPORT = "tracelens/reference/h100_qwen_perf_report_csvs"
TABLES = ["GEMM", "SDPA_fwd", "BinaryElementwise", "UnaryElementwise", "Reduce_fwd"]
MIB = 1048576
SAME_MODEL_TOLERANCE = 0.01

SDPA_DIMS = "[[16, 16, 559, 64], [16, 16, 559, 64], [16, 16, 559, 64], [], [], [], []]"
# TraceLens names the attention call aten::_scaled_dot_product_flash_attention ([B, H, N, d]);
# the kernel is launched by the aten::_flash_attention_forward inside it ([B, N, H, d]), which is
# the row gpuscope's roofline has (an operator's GPU time is what it launched itself).
LAUNCHED_BY = {
    ("aten::_scaled_dot_product_flash_attention", SDPA_DIMS):
        ("aten::_flash_attention_forward", [[16, 559, 16, 64]] * 3 + [[]] * 12),
}

# (name, Input Dims) -> (gpuscope's FLOPs from TraceLens's, its bytes from TraceLens's, why)
COPY_FLOPS = (lambda f: 0, lambda b: b,
              "a copy or cast computes nothing: 0 FLOPs; TraceLens's UnaryElementwise counts one "
              "per element")
DIFFERENT = {
    ("aten::addmm", "[[1024], [8944, 1024], [1024, 1024], [], []]"):
        (lambda f: f - 8944 * 1024, lambda b: b,
         "the bias: TraceLens adds one FLOP per output element (M x N), gpuscope counts 2 M N K "
         "as torch.utils.flop_counter does (doc/flops.md)"),
    ("aten::_scaled_dot_product_flash_attention", SDPA_DIMS):
        (lambda f: 2 * f, lambda b: b,
         "causal attention: TraceLens halves the FLOPs (the masked half is skipped), gpuscope "
         "counts the whole QK^T and PV as torch.utils.flop_counter does (doc/flops.md)"),
    ("aten::mean", "[[16, 559, 1024], [], [], []]"):
        (lambda f: f, lambda b: b + (16 * 559 - 1) * 4,
         "mean over dim -1: TraceLens writes 1 output element (its aten_reduce reads dim and "
         "keepdim only as Python ints and bools, the trace's Concrete Inputs are strings, so it "
         "falls back to a full reduction); gpuscope writes the 16 x 559 means (fp32)"),
    ("aten::copy_", "[[16, 16, 559, 64], [16, 16, 559, 64], []]"): COPY_FLOPS,
    ("aten::copy_", "[[16, 559, 1024], [16, 559, 1024], []]"): COPY_FLOPS,
    ("aten::copy_", "[[16, 559, 16, 64], [16, 559, 16, 64], []]"): COPY_FLOPS,
    ("aten::copy_", "[[1, 559, 64], [1, 559, 64], []]"): COPY_FLOPS,
    ("aten::copy_", "[[1, 1, 559], [1, 1, 559], []]"): COPY_FLOPS,
}

def canonical(dims):
    return json.dumps(json.loads(dims) if isinstance(dims, str) else dims)


def gpuscope_rows(exe, trace):
    out = subprocess.run([exe, "ops", "--roofline", "--group-by-shape", "--format", "json", trace],
                         capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        raise RuntimeError(f"gpuscope ops --roofline: exit {out.returncode}: {out.stderr}")
    rows = {}
    for r in json.loads(out.stdout)["rows"]:
        if r["flops"] is None or not r["modelled_calls"]:
            continue
        key = (r["name"], canonical(r["input_dims"]))
        calls, flops, nbytes = rows.get(key, (0, 0, 0))
        rows[key] = (calls + r["modelled_calls"], flops + r["flops"], nbytes + r["bytes"])
    return {k: (f / c, b / c) for k, (c, f, b) in rows.items()}


def tracelens_rows(report):
    for table in TABLES:
        with open(os.path.join(report, table + ".csv"), newline="") as f:
            for r in csv.DictReader(f):
                yield (table, r["name"], r["Input Dims_first"], float(r["GFLOPS_first"]) * 1e9,
                       float(r["Data Moved (MB)_first"]) * MIB)


def relative(got, want):
    return abs(got - want) / want if want else abs(got)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    root = traces_root()
    trace, report = os.path.join(root, TRACE), os.path.join(root, REPORT)
    if not os.path.exists(trace) or not os.path.isdir(report):
        print(f"SKIP: {trace} or {report} absent (set GS_SHARED_TRACES)")
        return 77
    ours = gpuscope_rows(sys.argv[1], trace)
    seen_different = set()
    rows = 0
    for table, name, dims, tl_flops, tl_bytes in tracelens_rows(report):
        rows += 1
        key = (name, canonical(dims))
        target = LAUNCHED_BY.get((name, dims))
        target = (target[0], canonical(target[1])) if target else key
        if target not in ours:
            check(False, f"{table} {name} {dims}: no gpuscope row for {target}")
            continue
        flops, nbytes = ours[target]
        label = f"{table} {name} {dims}"
        if (name, dims) in DIFFERENT:
            seen_different.add((name, dims))
            want_flops_of, want_bytes_of, why = DIFFERENT[(name, dims)]
            want_flops, want_bytes = want_flops_of(tl_flops), want_bytes_of(tl_bytes)
            check(relative(flops, want_flops) < 1e-6 and relative(nbytes, want_bytes) < 1e-6 and
                  (flops, nbytes) != (tl_flops, tl_bytes),
                  f"{label}: FLOPs {flops:.0f} bytes {nbytes:.0f}, TraceLens {tl_flops:.0f} "
                  f"{tl_bytes:.0f}; expected {want_flops:.0f} {want_bytes:.0f} ({why})")
        else:
            df, db = relative(flops, tl_flops), relative(nbytes, tl_bytes)
            check(df <= SAME_MODEL_TOLERANCE and db <= SAME_MODEL_TOLERANCE,
                  f"{label}: FLOPs {flops:.0f} vs {tl_flops:.0f} ({df:.2e}), bytes {nbytes:.0f} "
                  f"vs {tl_bytes:.0f} ({db:.2e})")
    check(rows == 26, f"{rows} TraceLens rows read (26 in the reference report)")
    check(seen_different == {(n, d) for n, d in DIFFERENT},
          "every listed difference is a row of TraceLens's report")
    if failures:
        print(f"{len(failures)} failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
