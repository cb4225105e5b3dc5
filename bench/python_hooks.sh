#!/usr/bin/env bash
# What gpuscope run's Python hooks cost (doc/run.md "Python programs", doc/performance.md), on
# the CPU: bench/python_hooks.py (a loop of small operators, an optimizer step and a DataLoader
# fetch per iteration) in the PyTorch venv of scripts/torch_venv.sh, alternating RUNS times each:
# without gpuscope, under gpuscope run --python-hooks=off, with the hooks (the default), and with
# --torch-ops; and `python3 -c pass` (never imports torch) with and without the hooks. Prints a
# table of medians over the runs and the ratio to --python-hooks=off.
#
#   bench/python_hooks.sh [-R RUNS] [--iters N] [--ops K]
#
# Environment: GPUSCOPE (default ./build/gpuscope, its agent and python-hooks/ beside it).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
runs=5 iters=200 ops=20
while [ $# -gt 0 ]; do
    case "$1" in
        -R) runs=${2:?}; shift 2 ;;
        --iters) iters=${2:?}; shift 2 ;;
        --ops) ops=${2:?}; shift 2 ;;
        *) echo "usage: $0 [-R RUNS] [--iters N] [--ops K]" >&2; exit 2 ;;
    esac
done
gpuscope=${GPUSCOPE:-$root/build/gpuscope}
[ -x "$gpuscope" ] || { echo "no $gpuscope: build first" >&2; exit 2; }
python=$(bash "$root/scripts/torch_venv.sh") || { echo "no PyTorch venv" >&2; exit 2; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
unset PYTHONPATH GPUSCOPE_AGENT GPUSCOPE_TORCH_OPS

configs=(plain off hooks ops)
declare -A cmd=(
    [plain]=""
    [off]="$gpuscope run -q -f --python-hooks=off -o $scratch/t.gst --"
    [hooks]="$gpuscope run -q -f -o $scratch/t.gst --"
    [ops]="$gpuscope run -q -f --torch-ops -o $scratch/t.gst --"
)
declare -A label=([plain]="without gpuscope" [off]="gpuscope run --python-hooks=off"
                  [hooks]="gpuscope run (hooks on)" [ops]="gpuscope run --torch-ops")
for ((r = 0; r < runs; r++)); do
    for c in "${configs[@]}"; do
        # shellcheck disable=SC2086 # the command is words
        ${cmd[$c]} "$python" "$root/bench/python_hooks.py" --iters "$iters" --ops "$ops" \
            >>"$scratch/$c.jsonl" || { echo "run failed: $c" >&2; exit 1; }
    done
    # Start-up of a Python that never imports torch: hooks on against off, 10 starts each.
    for c in off hooks; do
        start=$(date +%s%N)
        for ((i = 0; i < 10; i++)); do
            # shellcheck disable=SC2086
            ${cmd[$c]} python3 -c pass || exit 1
        done
        echo $((($(date +%s%N) - start) / 10)) >>"$scratch/start-$c.txt"
    done
done

python3 - "$scratch" "$runs" "$iters" "$ops" <<'PY'
import json, statistics, sys
d, runs, iters, ops = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
label = {"plain": "without gpuscope", "off": "gpuscope run --python-hooks=off",
         "hooks": "gpuscope run (hooks on)", "ops": "gpuscope run --torch-ops"}
med = {}
# The fastest run is the one least disturbed by other work on the machine: ratios use it.
print("per iteration: %d small operators, an optimizer step, a DataLoader fetch; %d runs each" % (2 * ops, runs))
print("%-34s %12s %12s %10s" % ("configuration", "median", "fastest", "ratio"))
rows = {}
for c in ("plain", "off", "hooks", "ops"):
    v = [json.loads(l)["median_ns"] for l in open("%s/%s.jsonl" % (d, c))]
    rows[c] = v
    med[c] = statistics.median(v)
for c in ("plain", "off", "hooks", "ops"):
    v = rows[c]
    print("%-34s %9.1f µs %9.1f µs %9.2fx" % (label[c], med[c] / 1e3, min(v) / 1e3, min(v) / min(rows["off"])))
s = {c: min(int(l) for l in open("%s/start-%s.txt" % (d, c))) for c in ("off", "hooks")}
print("python3 -c pass under gpuscope run (fastest run): %.1f ms with the hooks, %.1f ms without (%+.1f ms)"
      % (s["hooks"] / 1e6, s["off"] / 1e6, (s["hooks"] - s["off"]) / 1e6))
PY
