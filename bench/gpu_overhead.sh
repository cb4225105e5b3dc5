#!/usr/bin/env bash
# What `gpuscope run` costs a PyTorch job on a GPU, next to torch.profiler: runs each workload in
# bench/workloads/ (launch_bound.py: thousands of tiny kernels per step; resnet_step.py: a
# ResNet-18-style training step) REPS times in each mode, alternating (the order rotates every
# repetition):
#   plain      python3 WORKLOAD
#   gpuscope   gpuscope run -q -o SCRATCH/WORKLOAD.gst -- python3 WORKLOAD
#   torch      python3 WORKLOAD --torch-profiler   (CPU+CUDA, schedule wait=1 warmup=1 active=N)
#   light      gpuscope run --kinds light (kernels, copies, sets, runtime calls only)
#   dormant    gpuscope run --on-demand, never captured: what the dormant agent costs
#   window     gpuscope run --on-demand, and `gpuscope capture` of the whole run as soon as the
#              agent is up: what a window costs (the steps before the request are few)
# Each run prints its median step time (one JSON line); the table shows, per workload and mode,
# the median of those medians, their spread (min-max) and the overhead % against plain. The
# gpuscope traces are checked to hold kernels (gpuscope kernels), so a run that recorded nothing
# cannot pass for a cheap one.
#
#   bench/gpu_overhead.sh [-R REPS] [--workloads launch_bound,resnet_step] [--modes LIST]
#                         [--scratch DIR]
#
#   -R REPS       repetitions per mode (default 5, at least 5)
#   --modes       comma-separated, plain first (default plain,gpuscope,torch; all:
#                 plain,dormant,window,light,gpuscope,torch)
#   --workloads   comma-separated names from bench/workloads/ (default launch_bound,resnet_step)
#   --scratch     traces, logs and JSON lines (default /tmp/gpuscope-bench-gpu)
#
# Environment: GPUSCOPE (default ./build/gpuscope, libgpuscope_agent.so beside it), PYTHON
# (default python3), WORKLOAD_ARGS (extra arguments for every workload run, e.g. "--steps 50"),
# BENCH_TIMEOUT (seconds per run, default 600).
# Exit: 0 measured, 1 a run failed, 2 setup error, 77 skipped (no GPU, or no PyTorch with CUDA).
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
reps=5
workloads=launch_bound,resnet_step
modes_arg=plain,gpuscope,torch
scratch=${GPUSCOPE_BENCH_GPU_DIR:-/tmp/gpuscope-bench-gpu}
while [ $# -gt 0 ]; do
    case "$1" in
        -R) reps=${2:?}; shift 2 ;;
        --workloads) workloads=${2:?}; shift 2 ;;
        --modes) modes_arg=${2:?}; shift 2 ;;
        --scratch) scratch=${2:?}; shift 2 ;;
        -h|--help) sed -n '2,33p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "gpu_overhead.sh: unknown argument: $1 (see --help)" >&2; exit 2 ;;
    esac
done
case "$reps" in ''|*[!0-9]*|0) echo "gpu_overhead.sh: -R needs a positive integer" >&2; exit 2 ;; esac

skip() { echo "SKIP: $*"; exit 77; }
die() { echo "gpu_overhead.sh: $*" >&2; exit 2; }

command -v nvidia-smi >/dev/null 2>&1 || skip "no GPU: nvidia-smi is not installed"
nvidia-smi -L >/dev/null 2>&1 || skip "no GPU: 'nvidia-smi -L' fails"
python=${PYTHON:-python3}
command -v "$python" >/dev/null 2>&1 || skip "no $python"
"$python" -c "import sys, torch; sys.exit(0 if torch.cuda.is_available() else 1)" >/dev/null 2>&1 ||
    skip "no PyTorch with CUDA ('$python -c \"import torch; torch.cuda.is_available()\"' does not say yes)"

gpuscope=${GPUSCOPE:-$root/build/gpuscope}
[ -x "$gpuscope" ] || die "no gpuscope binary at $gpuscope (build it, or set GPUSCOPE)"
[ -f "$(dirname "$gpuscope")/libgpuscope_agent.so" ] ||
    die "no agent at $(dirname "$gpuscope")/libgpuscope_agent.so (it must lie beside gpuscope)"

IFS=, read -r -a wl <<<"$workloads"
IFS=, read -r -a modes <<<"$modes_arg"
[ "${modes[0]}" = plain ] || die "--modes must start with plain (the overheads are against it)"
for m in "${modes[@]}"; do
    case "$m" in plain|gpuscope|torch|light|dormant|window) ;; *) die "unknown mode $m" ;; esac
done
for w in "${wl[@]}"; do
    [ -f "$root/bench/workloads/$w.py" ] || die "no workload bench/workloads/$w.py"
done
mkdir -p "$scratch" || die "cannot create $scratch"
rm -f "$scratch"/*.json "$scratch"/*.log "$scratch"/*.gst

read -r -a extra <<<"${WORKLOAD_ARGS:-}"
tmo=${BENCH_TIMEOUT:-600}
timed() {
    if command -v timeout >/dev/null 2>&1; then timeout --kill-after=10 "$tmo" "$@"; else "$@"; fi
}

echo "gpu_overhead: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n 1)" >&2
echo "gpu_overhead: $reps reps x ${#modes[@]} modes x ${#wl[@]} workloads; scratch $scratch" >&2

# window: the program under `run --on-demand`, captured whole once its agent is up.
run_window() { # workload log py...
    local w=$1 log=$2; shift 2
    rm -f "$scratch/$w.gst"
    timed "$gpuscope" run -q --on-demand -o "$scratch/$w.%w.gst" -- "$@" >"$log" 2>&1 &
    local launcher=$! pid="" rc
    for _ in $(seq 1 300); do
        pid=$(pgrep -P "$launcher" | head -n 1)
        [ -n "$pid" ] && ls "$(tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null |
            sed -n 's/^GPUSCOPE_CONTROL=//p')"/*.agent >/dev/null 2>&1 && break
        sleep 0.05
    done
    "$gpuscope" capture "$pid" --duration 100000 -o "$scratch/$w.gst" --force \
        >"$log.capture" 2>&1 &
    local capture=$!
    wait "$launcher"; rc=$?
    wait "$capture" || { echo "gpu_overhead.sh: capture failed:" >&2; tail -n 5 "$log.capture" >&2; }
    return "$rc"
}

run_one() { # workload mode rep
    local w=$1 mode=$2 rep=$3 out="$scratch/$1.$2.$3.json" log="$scratch/$1.$2.$3.log" rc
    local py=("$python" "$root/bench/workloads/$w.py" ${extra[@]+"${extra[@]}"})
    echo "gpu_overhead: $w rep $rep/$reps: $mode" >&2
    case "$mode" in
        plain) timed "${py[@]}" >"$log" 2>&1 ;;
        torch) timed "${py[@]}" --torch-profiler >"$log" 2>&1 ;;
        gpuscope|light)
            rm -f "$scratch/$w.gst"
            timed "$gpuscope" run -q --kinds "$([ "$mode" = light ] && echo light || echo full)" \
                -o "$scratch/$w.gst" -- "${py[@]}" >"$log" 2>&1 ;;
        dormant) timed "$gpuscope" run -q --on-demand -o "$scratch/$w.%w.gst" -- "${py[@]}" >"$log" 2>&1 ;;
        window) run_window "$w" "$log" "${py[@]}" ;;
    esac
    rc=$?
    grep '^{' "$log" | tail -n 1 >"$out"
    if [ "$rc" -ne 0 ] || [ ! -s "$out" ]; then
        echo "gpu_overhead.sh: $w ($mode, rep $rep) failed with exit $rc; last lines of $log:" >&2
        tail -n 20 "$log" >&2
        exit 1
    fi
    if [ "$mode" = dormant ] && ls "$scratch/$w".*.gst >/dev/null 2>&1; then
        echo "gpu_overhead.sh: a dormant run wrote a trace: $(ls "$scratch/$w".*.gst)" >&2
        exit 1
    fi
    if [ "$mode" = gpuscope ] || [ "$mode" = light ] || [ "$mode" = window ]; then
        if [ ! -f "$scratch/$w.gst" ]; then
            echo "gpu_overhead.sh: gpuscope run wrote no $scratch/$w.gst" >&2
            exit 1
        fi
        wc -c <"$scratch/$w.gst" >"$scratch/$w.$mode.gst.$rep.size"
        if ! "$gpuscope" kernels "$scratch/$w.gst" --format json >"$scratch/$w.$mode.kernels.$rep.json" 2>&1; then
            echo "gpu_overhead.sh: gpuscope kernels failed on $scratch/$w.gst:" >&2
            tail -n 5 "$scratch/$w.$mode.kernels.$rep.json" >&2
            exit 1
        fi
    fi
}

nm=${#modes[@]}
for rep in $(seq 1 "$reps"); do
    for w in "${wl[@]}"; do
        for k in $(seq 0 $((nm - 1))); do
            run_one "$w" "${modes[$(((k + rep - 1) % nm))]}" "$rep"
        done
    done
done

"$python" - "$scratch" "$reps" "$modes_arg" "${wl[@]}" <<'EOF'
import json, statistics, sys

scratch, reps, modes, workloads = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(","), sys.argv[4:]
LABEL = {"plain": "no profiler", "gpuscope": "gpuscope run", "torch": "torch.profiler",
         "light": "gpuscope run --kinds light", "dormant": "gpuscope run --on-demand (dormant)",
         "window": "gpuscope run --on-demand + capture"}
TRACED = [m for m in modes if m in ("gpuscope", "light", "window")]
print(f"Step time per workload and mode: median over {reps} runs of each run's median step "
      "(min-max over the runs); overhead against plain")
print()
print("| workload | mode | runs | median step ms | spread ms | overhead % |")
print("|---|---|---|---|---|---|")
bad = False
for w in workloads:
    med = {}
    for mode in modes:
        vals = []
        for r in range(1, reps + 1):
            with open(f"{scratch}/{w}.{mode}.{r}.json") as f:
                vals.append(json.loads(f.read())["median_step_ms"])
        med[mode] = statistics.median(vals)
        ov = "-" if mode == "plain" else f"{100.0 * (med[mode] / med['plain'] - 1):+.1f}"
        label = LABEL[mode]
        print(f"| {w} | {label} | {len(vals)} | {med[mode]:.3f} | "
              f"{min(vals):.3f}-{max(vals):.3f} | {ov} |")
print()
for w in workloads:
    for mode in TRACED:
        parts = []
        for r in range(1, reps + 1):
            with open(f"{scratch}/{w}.{mode}.kernels.{r}.json") as f:
                rows = json.load(f).get("rows", [])
            with open(f"{scratch}/{w}.{mode}.gst.{r}.size") as f:
                size = int(f.read())
            n = sum(x["instances"] for x in rows)
            parts.append(f"{n} kernels / {size / 1e6:.1f} MB")
            if n == 0:
                bad = True
        print(f"{LABEL[mode]} traces of {w}: " + "; ".join(parts))
with open(f"{scratch}/{workloads[0]}.plain.1.json") as f:
    first = json.loads(f.read())
print(f"device: {first.get('device')}, torch {first.get('torch')}")
if bad:
    print("ERROR: a gpuscope trace holds no kernels: its overhead number means nothing")
    sys.exit(1)
EOF
