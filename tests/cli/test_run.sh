#!/bin/bash
# `gpuscope run` on a machine without a GPU: tests/run/nvtx_target (NVTX push/pop, start/end
# across threads, a domain with a registered string, marks, two threads, a fork) recorded
# through the injected agent; the program's streams and exit code pass through; a target
# killed with SIGKILL still leaves a readable trace; per-process outputs (%p, %q{VAR}); the
# launcher's refusals.
#
#   bash tests/cli/test_run.sh path/to/gpuscope        # run from the source root
set -u
exe=${1:?usage: test_run.sh GPUSCOPE}
bin=$(dirname "$exe")
target=$bin/nvtx_target
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
if [ ! -x "$target" ] || [ ! -f "$bin/libgpuscope_agent.so" ]; then
    echo "skip: the agent was not built (no CUDA toolkit headers: set CUDA_HOME)"
    exit 77
fi
source tests/cli/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset CUDA_INJECTION64_PATH NVTX_INJECTION64_PATH
# Under ASan (scripts/test.sh's second build) sanitizer reports go to files, checked at the end,
# so that the streams compared below are the program's alone.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$tmp/sanitizer"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$tmp/sanitizer"

# Calls, total and self time (ns) of an ops row, from the JSON view.
ops_row() {
    python3 -c '
import json, sys
rows = {r["name"]: r for r in json.load(open(sys.argv[1]))["rows"]}
r = rows.get(sys.argv[2])
print("missing" if r is None else "%d %d %d" % (r["calls"], r["cpu_total_ns"], r["self_cpu_ns"]))
' "$1" "$2"
}

# --- a run with every kind of range; exit code and streams untouched ---
"$exe" run -q -o "$tmp/ranges.gst" -- "$target" ranges 7 >"$tmp/out" 2>"$tmp/err"
check "exit code passes through" "$?" 7
check "stdout passes through" "$(cat "$tmp/out")" "target stdout line"
check "stderr passes through (-q)" "$(cat "$tmp/err")" "target stderr line"
"$exe" ops --all-steps --format json "$tmp/ranges.gst" >"$tmp/ops.json" || fail "ops on the recorded trace"
for want in "outer 1" "inner 3" "async 1" "registered-range 2" "worker 10" "work-item 20" \
    "child 2"; do
    set -- $want
    got=$(ops_row "$tmp/ops.json" "$1")
    check "calls of $1" "${got%% *}" "$2"
done
# Nesting: a parent's self time is its total minus its children's totals, to the ns.
read -r _ outer_total outer_self <<<"$(ops_row "$tmp/ops.json" outer)"
read -r _ inner_total _ <<<"$(ops_row "$tmp/ops.json" inner)"
check "inner ranges nest in outer" "$outer_self" "$((outer_total - inner_total))"
read -r _ worker_total worker_self <<<"$(ops_row "$tmp/ops.json" worker)"
read -r _ item_total _ <<<"$(ops_row "$tmp/ops.json" work-item)"
check "work-items nest in workers" "$worker_self" "$((worker_total - item_total))"
# Without -q: the no-driver line first, the summary last, the program's stderr between.
"$exe" run --force -o "$tmp/ranges.gst" -- "$target" ranges 0 >/dev/null 2>"$tmp/err"
check "exit 0 passes through" "$?" 0
check "program stderr in the middle" "$(sed -n 2p "$tmp/err")" "target stderr line"
grep -q "^gpuscope: no NVIDIA driver (libcuda.so.1 not found): recording NVTX ranges" \
    "$tmp/err" || [ -e /dev/nvidiactl ] || fail "no one-line 'no NVIDIA driver' message"
grep -q "^gpuscope: $tmp/ranges.gst: 2 processes, .* 39 NVTX ranges" "$tmp/err" ||
    fail "summary line: $(tail -1 "$tmp/err")"
ran=$((ran + 2))

# --- launched with stdout and stderr closed (cron, daemons): the program's lines must not land in
# the agent's or the launcher's files, its status and the whole trace come through ---
"$exe" run -o "$tmp/closed.gst" -- "$target" ranges 7 >&- 2>&-
check "exit code with stdout and stderr closed" "$?" 7
"$exe" ops --all-steps --format csv "$tmp/ranges.gst" | sort >"$tmp/open.csv"
"$exe" ops --all-steps --format csv "$tmp/closed.gst" | sort >"$tmp/closed.csv"
check "the same ranges with stdout and stderr closed" \
    "$(cut -d, -f1,2 "$tmp/closed.csv" | tr '\n' ' ')" "$(cut -d, -f1,2 "$tmp/open.csv" | tr '\n' ' ')"
check "no program output inside the trace" "$(grep -c 'target std' "$tmp/closed.gst")" 0
"$exe" run -q -o "$tmp/stdin-closed.gst" -- "$target" ranges 3 <&- >/dev/null 2>&1
check "exit code with stdin closed" "$?" 3

# --- SIGKILL: the ranges flushed before the kill are in the trace ---
"$exe" run -q --flush-interval 50 -o "$tmp/killed.gst" -- "$target" hang "$tmp/pid" &
launcher=$!
for _ in $(seq 100); do [ -s "$tmp/pid" ] && break; sleep 0.1; done
kill -KILL "$(cat "$tmp/pid")"
wait $launcher
check "a killed program's status is 128+9" "$?" 137
"$exe" ops --all-steps --format json "$tmp/killed.gst" >"$tmp/killed.json" ||
    fail "ops on the trace of a killed program"
got=$(ops_row "$tmp/killed.json" before)
check "ranges before SIGKILL" "${got%% *}" 10

# --- SIGTERM: the agent flushes before the program dies, even with a period longer than the run
rm -f "$tmp/pid"
"$exe" run -q --flush-interval 60000 -o "$tmp/term.gst" -- "$target" hang "$tmp/pid" &
launcher=$!
for _ in $(seq 100); do [ -s "$tmp/pid" ] && break; sleep 0.1; done
sleep 0.2
kill -TERM "$(cat "$tmp/pid")"
wait $launcher
check "a program ended by SIGTERM exits 128+15" "$?" 143
"$exe" ops --all-steps --format json "$tmp/term.gst" >"$tmp/term.json" || fail "ops after SIGTERM"
got=$(ops_row "$tmp/term.json" before)
check "ranges before SIGTERM, written by the signal flush" "${got%% *}" 10
got=$(ops_row "$tmp/term.json" until-killed)
ran=$((ran + 1))
[ "${got%% *}" != missing ] && [ "${got%% *}" -ge 1 ] ||
    fail "ranges up to SIGTERM: got '$got', want some (about one per ms for 200 ms)"

# --- one file per process: %p gives the parent and the forked child their own files ---
"$exe" run -q -o "$tmp/per-%p.gst" -- "$target" ranges 0 >/dev/null 2>&1
check "one file per process" "$(ls "$tmp"/per-*.gst | wc -l)" 2
child=$(for f in "$tmp"/per-*.gst; do "$exe" ops --all-steps --format csv "$f" | grep -c '^child,'; done | sort | tr '\n' ' ')
check "the child's ranges only in its own file" "$child" "0 1 "
RANK=3 "$exe" run -q -o "$tmp/rank%q{RANK}.gst" -- "$target" ranges 0 >/dev/null 2>&1
[ -f "$tmp/rank3.gst" ] || fail "%q{RANK} did not expand to rank3.gst"
ran=$((ran + 1))

# --- capture control: only the NVTX range named 'outer' (and what overlaps it) is kept ---
"$exe" run -q --capture-range nvtx:outer -o "$tmp/range.gst" -- "$target" ranges 0 >/dev/null 2>&1
"$exe" ops --all-steps --format json "$tmp/range.gst" >"$tmp/range.json"
check "capture-range keeps outer" "$(ops_row "$tmp/range.json" outer | cut -d' ' -f1)" 1
check "capture-range keeps inner" "$(ops_row "$tmp/range.json" inner | cut -d' ' -f1)" 3
check "capture-range drops worker" "$(ops_row "$tmp/range.json" worker)" missing
# --steps 1,1,2,1: skip step 0, warm up on step 1, keep steps 2 and 3 (one cycle) of 6.
"$exe" run -q --steps 1,1,2,1 -o "$tmp/steps.gst" -- "$target" steps 6 >/dev/null 2>&1
"$exe" ops --all-steps --format csv "$tmp/steps.gst" | tail -n +2 | cut -d, -f1,2 | sort >"$tmp/steps.csv"
check "--steps keeps steps 2 and 3 and their work" "$(tr '\n' ' ' <"$tmp/steps.csv")" \
    "ProfilerStep#2,1 ProfilerStep#3,1 work,2 "
check "report finds the NVTX steps" \
    "$("$exe" steps --format csv "$tmp/steps.gst" | tail -n +2 | wc -l)" 2
"$exe" run -q --trace sampler -o "$tmp/no-nvtx.gst" -- "$target" ranges 0 >/dev/null 2>&1
check "--trace without nvtx records no range" \
    "$("$exe" ops --all-steps --format csv "$tmp/no-nvtx.gst" 2>&1 | grep -c '^outer,')" 0

# (ops --all-steps throughout: the recording is checked whole; by default ops keeps the kept
# steps, and which steps are warm-up depends on how fast the machine ran them)
# --- torch.autograd.profiler.emit_nvtx names: one row per operator, split by shape on demand;
# an aten::div whose only child is an aten::div is one call (the TensorBoard plugin's rule) ---
"$exe" run -q -o "$tmp/emit.gst" -- "$target" emit_nvtx 3 >/dev/null 2>&1
"$exe" ops --all-steps --format json "$tmp/emit.gst" >"$tmp/emit.json" || fail "ops on emit_nvtx names"
check "emit_nvtx: aten::conv2d calls" "$(ops_row "$tmp/emit.json" aten::conv2d | cut -d' ' -f1)" 6
check "emit_nvtx: aten::convolution calls" \
    "$(ops_row "$tmp/emit.json" aten::convolution | cut -d' ' -f1)" 6
read -r div_calls div_total div_self <<<"$(ops_row "$tmp/emit.json" aten::div)"
check "emit_nvtx: aten::div inside aten::div counts once" "$div_calls" 3
check "emit_nvtx: the merged call's self time is its whole time" "$div_self" "$div_total"
check "emit_nvtx: no row keeps seq or op_id" \
    "$(grep -c 'seq = \|op_id = ' "$tmp/emit.json")" 0
check "emit_nvtx --group-by-shape: one row per shape, 3 calls each" \
    "$("$exe" ops --all-steps --group-by-shape --format csv "$tmp/emit.gst" | grep '^aten::conv2d,' |
        cut -d, -f2 | tr '\n' ' ')" "3 3 "

# --- --cupti yield: CUDA is left to the program's own profiler, and the summary says so ---
"$exe" run --cupti yield -o "$tmp/yield.gst" -- "$target" steps 2 >/dev/null 2>"$tmp/err"
grep -q "^gpuscope: --cupti yield: CUDA tracing was left to the program's own profiler" \
    "$tmp/err" || fail "--cupti yield says what it did: $(cat "$tmp/err")"
ran=$((ran + 1))
check "--cupti yield still records NVTX" \
    "$("$exe" steps --format csv "$tmp/yield.gst" | tail -n +2 | wc -l)" 2
check_error 2 run --cupti share -- true

# --- refusals: one line, the documented exit code, and the program does not run (it would print
# on stdout, which check_error wants empty) ---
check_error 2 run -o "$tmp/ranges.gst" -- "$target" ranges 0
check_error 2 run -f -o "$tmp" -- "$target" ranges 0
ln -s "$tmp/elsewhere.gst" "$tmp/dangling.gst"
check_error 2 run -o "$tmp/dangling.gst" -- "$target" ranges 0
check_error 2 run -f -o "$tmp/dangling.gst" -- "$target" ranges 0
check "a dangling -o link is not followed" "$(ls "$tmp/elsewhere.gst" 2>/dev/null)" ""
check_error 2 run --trace gpu -- true
check_error 2 run
CUDA_INJECTION64_PATH=/opt/nsys/libinj.so check_error 4 run -o "$tmp/x.gst" -- true
check_error 127 run -o "$tmp/y.gst" -- /no/such/program

# No sanitizer error in gpuscope, the agent or the program (the log files exist only under ASan).
ran=$((ran + 1))
if cat "$tmp"/sanitizer.* 2>/dev/null | grep -q 'ERROR:\|runtime error:'; then
    fail "sanitizer report:"
    cat "$tmp"/sanitizer.*
fi
finish
