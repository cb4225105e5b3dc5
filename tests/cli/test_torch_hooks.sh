#!/bin/bash
# gpuscope run's Python hooks on a real PyTorch training loop (tests/run/torch_train.py: a tiny
# model, SGD, a DataLoader whose dataset sleeps a planted time), with no change to the program,
# on the CPU: `steps` finds exactly the loop's iterations, each as long as the loop itself
# measured it, and breakdown's DataLoader share is the share the loop measured waiting for its
# batches (within 10 %), with num_workers 0 and 2. --torch-ops lists the operators; --python-hooks
# off marks nothing. PyTorch comes from scripts/torch_venv.sh (installed once, outside the work
# tree); skipped (77) when it cannot be installed.
#
#   bash tests/cli/test_torch_hooks.sh path/to/gpuscope        # run from the source root
set -u
exe=${1:?usage: test_torch_hooks.sh GPUSCOPE}
bin=$(dirname "$exe")
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
if [ ! -f "$bin/libgpuscope_agent.so" ] || [ ! -f "$bin/python-hooks/sitecustomize.py" ]; then
    echo "skip: the agent was not built (no CUDA toolkit headers: set CUDA_HOME)"
    exit 77
fi
# A sanitized agent cannot be loaded into an unsanitized Python (the runtime must come first):
# gcc links the sanitizer runtimes (ldd shows them), clang leaves their symbols undefined.
if ldd "$bin/libgpuscope_agent.so" | grep -q 'libasan\|libubsan' ||
    nm -D --undefined-only "$bin/libgpuscope_agent.so" 2>/dev/null | grep -q '__asan_\|__ubsan_'; then
    echo "skip: the agent is built with sanitizers; Python cannot load it"
    exit 77
fi
python=$(bash scripts/torch_venv.sh) || { echo "skip: no PyTorch (scripts/torch_venv.sh)"; exit 77; }
source tests/cli/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset CUDA_INJECTION64_PATH NVTX_INJECTION64_PATH PYTHONPATH GPUSCOPE_AGENT GPUSCOPE_TORCH_OPS
train=$PWD/tests/run/torch_train.py

# compare NAME WORKERS FETCH_MS COMPUTE_MS: the loop under gpuscope run, then its own
# measurements against steps and breakdown.
compare() {
    local name=$1 workers=$2 fetch=$3 compute=$4
    local out
    out=$("$exe" run -q -o "$tmp/$name.gst" -- "$python" "$train" --workers "$workers" \
          --steps 8 --fetch-ms "$fetch" --compute-ms "$compute" --truth "$tmp/$name.json")
    check "$name: the program's exit status" "$?" 0
    check "$name: the program's output" "$out" "iterations 8"
    "$exe" steps --format json "$tmp/$name.gst" >"$tmp/$name.steps.json"
    "$exe" breakdown --format json "$tmp/$name.gst" >"$tmp/$name.breakdown.json"
    ran=$((ran + 1))
    python3 - "$tmp/$name" "$name" <<'EOF' || failed=$((failed + 1))
import json, sys
base, name = sys.argv[1], sys.argv[2]
truth = json.load(open(base + ".json"))
steps = json.load(open(base + ".steps.json"))["traces"][0]
bd = json.load(open(base + ".breakdown.json"))["traces"][0]
bad = []
if steps["source"] != "profiler_step" or steps["steps"] != truth["steps"]:
    bad.append("steps: %s from %s, the loop ran %d" % (steps["steps"], steps["source"], truth["steps"]))
# The steps together as long as the loop measured them (2 %); each one within 5 % or 3 ms: where
# one step ends and the next starts moves by the Python run between the loop's clock and the
# hook's (milliseconds when the machine is loaded, with DataLoader workers starting).
total = sum(r["duration_ns"] for r in steps["rows"])
want_total = sum(truth["step_ns"][r["step"]] for r in steps["rows"])
if abs(total - want_total) > 0.02 * want_total:
    bad.append("steps: %d ns in all, the loop measured %d" % (total, want_total))
for row in steps["rows"]:
    want = truth["step_ns"][row["step"]]
    if abs(row["duration_ns"] - want) > max(0.05 * want, 3000000):
        bad.append("step %d: %d ns, the loop measured %d" % (row["step"], row["duration_ns"], want))
# DataLoader share over the steps breakdown keeps (warm-up left out), against the loop's own.
kept = [r["step"] for r in bd["rows"] if r["warmup"] == "no"]
want = sum(truth["fetch_ns"][i] for i in kept) / sum(truth["step_ns"][i] for i in kept) * 100
got = bd["average"]["dataloader_pct"]
print("%s: %d steps (%d kept), DataLoader %.1f %% of the step, the loop measured %.1f %%"
      % (name, steps["steps"], len(kept), got, want))
if not kept or abs(got - want) > 0.10 * want:
    bad.append("DataLoader share %.2f %%, the loop measured %.2f %%" % (got, want))
for b in bad:
    print("FAIL %s: %s" % (name, b))
sys.exit(1 if bad else 0)
EOF
}

# num_workers 0: a batch takes 20 ms in the main process, the step computes for 20 ms (~50 %).
compare workers0 0 20 20
# num_workers 2: each worker takes 40 ms a batch, two of them; the loop waits ~10 ms of ~20.
compare workers2 2 40 10

# --torch-ops: every aten operator a range, as emit_nvtx names them, counted by ops over the
# whole run (--all-steps: the view keeps only the kept steps by default).
"$exe" run -q --torch-ops -o "$tmp/ops.gst" -- "$python" "$train" --steps 8 --fetch-ms 2 \
    --compute-ms 1 >/dev/null
calls() {
    "$exe" ops --all-steps --format csv "$tmp/ops.gst" | awk -F, -v n="$1" '$1 == n { print $2 }'
}
check "--torch-ops: aten::addmm (two Linear layers, 8 steps)" "$(calls aten::addmm)" 16
check "--torch-ops: aten::mse_loss_backward" "$(calls aten::mse_loss_backward)" 8
check "--torch-ops: steps" "$("$exe" steps --format csv "$tmp/ops.gst" | tail -n +2 | wc -l)" 8

# --python-hooks off: the program's ranges only (it has none).
"$exe" run -q --python-hooks=off -o "$tmp/off.gst" -- "$python" "$train" --steps 3 --fetch-ms 2 \
    --compute-ms 1 >/dev/null
source=$("$exe" steps --format json "$tmp/off.gst" |
         python3 -c 'import json, sys; print(json.load(sys.stdin)["traces"][0]["source"])')
check "--python-hooks=off: no ProfilerStep ranges" "$([ "$source" != profiler_step ] && echo none)" none

finish
