#!/usr/bin/env bash
# What an NVTX range costs a program traced by `gpuscope run`, against the same program with no
# tool: builds bench/nvtx_cost.c (gcc, NVTX 3 headers; no GPU needed) and runs it, alternating,
# RUNS times with NVTX_INJECTION64_PATH unset, RUNS times under
# `gpuscope run -q -o SCRATCH/nvtx.gst --` and RUNS times under `gpuscope run --on-demand` never
# captured (the dormant agent), then prints tables of medians (min-max over the runs),
# the difference and ratio, how many ranges each agent trace kept (gpuscope ops), and whether the
# target holds: < 100 ns per pair (push+pop, start+end) on the recorded (paced) path.
#
#   bench/bench_nvtx.sh [-R RUNS] [-n PAIRS] [-r ROUNDS] [-b BURST] [-B BURSTS] [-p PAUSE_MS]
#                       [--scratch DIR]
#
#   -R RUNS      runs of each configuration (default 5, at least 5 for the verdict)
#   -n, -r       tight loop: PAIRS pairs per round (default 200000), ROUNDS rounds (default 5)
#   -b, -B, -p   paced: BURSTS bursts (default 10) of BURST pairs (default 4000), PAUSE_MS of
#                sleep after each (default 250: longer than the agent's 200 ms writer period)
#   --scratch    where the binary, traces and logs go (default /tmp/gpuscope-bench-nvtx)
#
# Environment: GPUSCOPE (default ./build/gpuscope; libgpuscope_agent.so must lie beside it),
# CUDA_HOME (NVTX headers in $CUDA_HOME/include/nvtx3, default /usr/local/cuda), CC (default gcc).
# Exit: 0 measured (the verdict line says whether the target holds), 1 a run failed,
# 2 setup error (no gpuscope, no agent, no headers, no compiler).
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
runs=5 pairs=200000 rounds=5 burst=4000 bursts=10 pause=250
scratch=${GPUSCOPE_BENCH_NVTX_DIR:-/tmp/gpuscope-bench-nvtx}
while [ $# -gt 0 ]; do
    case "$1" in
        -R) runs=${2:?}; shift 2 ;;
        -n) pairs=${2:?}; shift 2 ;;
        -r) rounds=${2:?}; shift 2 ;;
        -b) burst=${2:?}; shift 2 ;;
        -B) bursts=${2:?}; shift 2 ;;
        -p) pause=${2:?}; shift 2 ;;
        --scratch) scratch=${2:?}; shift 2 ;;
        -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench_nvtx.sh: unknown argument: $1 (see --help)" >&2; exit 2 ;;
    esac
done
for v in "$runs" "$pairs" "$rounds" "$burst" "$bursts" "$pause"; do
    case "$v" in ''|*[!0-9]*) echo "bench_nvtx.sh: not a number: $v" >&2; exit 2 ;; esac
done

die() { echo "bench_nvtx.sh: $*" >&2; exit 2; }

gpuscope=${GPUSCOPE:-$root/build/gpuscope}
[ -x "$gpuscope" ] || die "no gpuscope binary at $gpuscope (build it, or set GPUSCOPE)"
agent=$(dirname "$gpuscope")/libgpuscope_agent.so
[ -f "$agent" ] || die "no agent at $agent: the NVTX cost under gpuscope needs libgpuscope_agent.so beside the gpuscope binary (not built yet?)"

inc=""
for d in "${CUDA_HOME:-}/include" /usr/local/cuda/include /usr/include; do
    if [ -f "$d/nvtx3/nvToolsExt.h" ]; then inc=$d; break; fi
done
[ -n "$inc" ] || die "no NVTX 3 headers (nvtx3/nvToolsExt.h) in \$CUDA_HOME/include, /usr/local/cuda/include or /usr/include"
cc=${CC:-gcc}
command -v "$cc" >/dev/null 2>&1 || die "no C compiler ($cc)"
command -v python3 >/dev/null 2>&1 || die "python3 is needed for the table"

mkdir -p "$scratch" || die "cannot create $scratch"
exe=$scratch/nvtx_cost
"$cc" -O2 -std=c11 -I"$inc" -o "$exe" "$root/bench/nvtx_cost.c" -ldl || die "build of bench/nvtx_cost.c failed"
rm -f "$scratch"/none.*.out "$scratch"/agent.*.out "$scratch"/agent.*.ops.json "$scratch"/agent.*.size \
    "$scratch"/dormant.*.out

args=(-n "$pairs" -r "$rounds" -b "$burst" -B "$bursts" -p "$pause")
echo "bench_nvtx: $runs runs each, alternating; ${args[*]}; gpuscope $gpuscope" >&2
echo "bench_nvtx: scratch $scratch; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for i in $(seq 1 "$runs"); do
    echo "bench_nvtx: run $i/$runs: no tool" >&2
    if ! env -u NVTX_INJECTION64_PATH -u CUDA_INJECTION64_PATH "$exe" "${args[@]}" \
            >"$scratch/none.$i.out" 2>&1; then
        cat "$scratch/none.$i.out" >&2
        echo "bench_nvtx.sh: nvtx_cost failed (no tool)" >&2
        exit 1
    fi
    echo "bench_nvtx: run $i/$runs: gpuscope run" >&2
    rm -f "$scratch/nvtx.gst"
    if ! "$gpuscope" run -q -o "$scratch/nvtx.gst" -- "$exe" "${args[@]}" \
            >"$scratch/agent.$i.out" 2>&1; then
        cat "$scratch/agent.$i.out" >&2
        echo "bench_nvtx.sh: gpuscope run -q -o $scratch/nvtx.gst -- nvtx_cost failed" >&2
        exit 1
    fi
    if [ ! -f "$scratch/nvtx.gst" ]; then
        echo "bench_nvtx.sh: gpuscope run wrote no $scratch/nvtx.gst" >&2
        exit 1
    fi
    wc -c <"$scratch/nvtx.gst" >"$scratch/agent.$i.size"
    if ! "$gpuscope" ops "$scratch/nvtx.gst" --format json >"$scratch/agent.$i.ops.json" 2>"$scratch/agent.$i.ops.err"; then
        cat "$scratch/agent.$i.ops.err" >&2
        echo "bench_nvtx.sh: gpuscope ops on the agent's trace failed" >&2
        exit 1
    fi
    rm -f "$scratch/nvtx.gst"
    echo "bench_nvtx: run $i/$runs: gpuscope run --on-demand (dormant)" >&2
    if ! "$gpuscope" run -q --on-demand -o "$scratch/" -- "$exe" "${args[@]}" \
            >"$scratch/dormant.$i.out" 2>&1; then
        cat "$scratch/dormant.$i.out" >&2
        echo "bench_nvtx.sh: gpuscope run --on-demand -- nvtx_cost failed" >&2
        exit 1
    fi
done

python3 - "$scratch" "$runs" <<'EOF'
import json, statistics, sys

scratch, runs = sys.argv[1], int(sys.argv[2])

def last_json(path):
    with open(path) as f:
        lines = [l for l in f.read().splitlines() if l.startswith("{")]
    if not lines:
        sys.exit(f"bench_nvtx.sh: no JSON line in {path}")
    return json.loads(lines[-1])

none = [last_json(f"{scratch}/none.{i}.out") for i in range(1, runs + 1)]
agent = [last_json(f"{scratch}/agent.{i}.out") for i in range(1, runs + 1)]
bad = False
if any(r["injection"] for r in none):
    print("ERROR: NVTX_INJECTION64_PATH was set in a no-tool run"); bad = True
if not all(r["injection"] for r in agent):
    print("ERROR: NVTX_INJECTION64_PATH was not set under gpuscope run: the agent was not injected")
    bad = True

def med(v): return statistics.median(v)
def spread(v): return f"{min(v):.1f}-{max(v):.1f}"

TARGET = 100.0
print(f"NVTX range cost, ns per pair (median of {runs} runs, min-max); "
      f"paced = {agent[0]['bursts']} bursts of {agent[0]['burst']} pairs with "
      f"{agent[0]['pause_ms']} ms pauses, tight = {agent[0]['rounds']} rounds of "
      f"{agent[0]['pairs']} pairs back to back")
print()
print("| measure | no tool | no tool spread | gpuscope run | gpuscope spread | added ns | ratio | < 100 ns |")
print("|---|---|---|---|---|---|---|---|")
verdict = {}
for mode in ("paced", "tight"):
    for key, label in (("push_pop_ns", "push+pop"), ("start_end_ns", "start+end")):
        a = [r[mode][key] for r in none]
        b = [r[mode][key] for r in agent]
        ma, mb = med(a), med(b)
        ok = mb < TARGET
        verdict[(mode, key)] = ok
        ratio = f"{mb / ma:.0f}x" if ma > 0 else "-"
        print(f"| {label} {mode} | {ma:.1f} | {spread(a)} | {mb:.1f} | {spread(b)} | "
              f"{mb - ma:+.1f} | {ratio} | {'yes' if ok else 'NO'} |")

dormant = [last_json(f"{scratch}/dormant.{i}.out") for i in range(1, runs + 1)]
print()
print("The dormant agent (`gpuscope run --on-demand`, never captured): it only counts steps")
print()
print("| measure | no tool | dormant | dormant spread | added ns |")
print("|---|---|---|---|---|")
for mode in ("paced", "tight"):
    for key, label in (("push_pop_ns", "push+pop"), ("start_end_ns", "start+end")):
        a = [r[mode][key] for r in none]
        d = [r[mode][key] for r in dormant]
        print(f"| {label} {mode} | {med(a):.1f} | {med(d):.1f} | {spread(d)} | "
              f"{med(d) - med(a):+.1f} |")

print()
print("Ranges the agent's traces kept (gpuscope ops), per run:")
paced_lost = False
for i, r in enumerate(agent, 1):
    with open(f"{scratch}/agent.{i}.ops.json") as f:
        calls = {}
        for row in json.load(f).get("rows", []):
            calls[row["name"]] = calls.get(row["name"], 0) + row["calls"]
    with open(f"{scratch}/agent.{i}.size") as f:
        size = int(f.read().strip())
    parts = []
    for name, issued in r["issued"].items():
        kept = calls.get(name, 0)
        parts.append(f"{name.replace('nvtx_cost_', '')} {kept}/{issued} ({100.0 * kept / issued:.1f} %)")
        if "paced" in name and kept != issued:
            paced_lost = True
    print(f"  run {i}: {'; '.join(parts)}; trace {size / 1e6:.1f} MB")

print()
if bad:
    print("VERDICT: no valid measurement (see ERROR lines)")
    sys.exit(1)
ok = verdict[("paced", "push_pop_ns")] and verdict[("paced", "start_end_ns")]
if paced_lost:
    print("WARNING: the agent dropped paced ranges, so the paced numbers include dropped ranges; "
          "raise -p (pause) or lower -b (burst)")
if runs < 5:
    print(f"VERDICT: only {runs} runs (at least 5 wanted); " +
          ("paced cost under 100 ns per pair" if ok else "paced cost NOT under 100 ns per pair"))
elif ok and not paced_lost:
    print("VERDICT: TARGET MET: a recorded NVTX range (push+pop, start+end) costs < 100 ns per pair under gpuscope run")
else:
    print("VERDICT: TARGET MISSED: a recorded NVTX range costs >= 100 ns per pair under gpuscope run"
          if not ok else "VERDICT: TARGET NOT SHOWN: under 100 ns, but some paced ranges were dropped")
tight_ok = verdict[("tight", "push_pop_ns")] and verdict[("tight", "start_end_ns")]
print(f"(tight loop, where the agent may drop ranges: {'under' if tight_ok else 'NOT under'} 100 ns per pair)")
EOF
