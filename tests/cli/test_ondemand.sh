#!/bin/bash
# Capture on demand end to end, on a machine without a GPU: tests/run/nvtx_target's training
# loop (ProfilerStep#N NVTX ranges) and a Python loop marking its steps once they ended (the
# agent's own API, as the Python hooks do) under `gpuscope run --on-demand`, captured by
# `gpuscope capture`: nothing is written before a capture; a window of 1 s gives exactly one
# readable file spanning about 1 s and the program keeps its exit status; a window of 3 steps
# holds exactly 3; the agent's RSS stays put over 20 more windows; a program captured and then
# killed (SIGKILL, or SIGTERM to its launcher's group with three processes) leaves no control
# file nor run folder; four ranks of a job record the same step numbers; a stale endpoint is
# removed; another user is refused.
#
#   bash tests/cli/test_ondemand.sh path/to/gpuscope        # run from the source root
set -u
exe=${1:?usage: test_ondemand.sh GPUSCOPE}
bin=$(dirname "$exe")
target=$bin/nvtx_target
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
if [ ! -x "$target" ] || [ ! -f "$bin/libgpuscope_agent.so" ]; then
    echo "skip: the agent was not built (no CUDA toolkit headers: set CUDA_HOME)"
    exit 77
fi
source tests/cli/lib.sh
tmp=$(mktemp -d)
launchers=()
cleanup() {
    for l in ${launchers[@]+"${launchers[@]}"}; do kill "$l" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
unset CUDA_INJECTION64_PATH NVTX_INJECTION64_PATH
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$tmp/sanitizer"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$tmp/sanitizer"

# wait_for N GLOB: until N files match GLOB (10 s at most); prints how many did.
wait_for() {
    local n=0
    for _ in $(seq 1 200); do
        n=$(compgen -G "$2" | wc -l)
        [ "$n" -ge "$1" ] && break
        sleep 0.05
    done
    echo "$n"
}

# Steps of a window: "count first last" from the steps view (warm-up included).
steps_of() {
    "$exe" steps "$1" --keep-warmup --format json | python3 -c '
import json, sys
t = json.load(sys.stdin)["traces"][0]
nums = [int(r["step"]) for r in t["rows"]]
print(len(nums), min(nums) if nums else -1, max(nums) if nums else -1)'
}

# The span of a trace's NVTX ranges, in ms.
span_ms() {
    "$exe" export "$1" --format chrome -o "$tmp/span.json" 2>/dev/null
    python3 -c '
import json, sys
e = json.load(open(sys.argv[1]))
e = e["traceEvents"] if isinstance(e, dict) else e
r = [x for x in e if x.get("ph") == "X" and x.get("cat") == "nvtx"]
print(int((max(x["ts"] + x["dur"] for x in r) - min(x["ts"] for x in r)) / 1000))' "$tmp/span.json"
}

# --- dormant until asked; a window of 1 s; the exit status kept ---
mkdir "$tmp/d1"
"$exe" run -q --on-demand -o "$tmp/d1/" -- "$target" train 150 20 7 "$tmp/d1.pids" &
launchers+=($!)
l1=$!
check "the dormant agent is up" "$(wait_for 1 "$tmp/d1/.gpuscope-run-*/*.agent")" 1
sleep 0.3
check "nothing written before a capture" "$(find "$tmp/d1" -name '*.gst' | wc -l)" 0
pid=$(head -n 1 "$tmp/d1.pids")
"$exe" capture "$pid" --duration 1 -o "$tmp/d1/win-%w.gst" >"$tmp/cap1.out" 2>&1
check "capture --duration 1 exits 0" "$?" 0
files=$(find "$tmp/d1" -maxdepth 1 -name '*.gst')
check "exactly one file for the window" "$(echo "$files" | grep -c .)" 1
"$exe" report "$files" | grep -q "^events: .*counter samples" ||
    fail "the window of one process has no samples of its CPU (as gpuscope run takes them)"
span=$(span_ms "$files")
[ "${span:-0}" -ge 900 ] && [ "${span:-0}" -le 1100 ] || fail "the window spans ${span} ms, want about 1000"
wait "$l1"
check "the program's exit status is kept" "$?" 7

# --- a window of 3 steps, from a C program's NVTX ranges ---
mkdir "$tmp/d2"
"$exe" run -q --on-demand -o "$tmp/d2/" -- "$target" train 300 20 0 "$tmp/d2.pids" &
launchers+=($!)
l2=$!
wait_for 1 "$tmp/d2/.gpuscope-run-*/*.agent" >/dev/null
pid=$(head -n 1 "$tmp/d2.pids")
"$exe" capture "$pid" --steps 3 -o "$tmp/d2/s-%w.gst" >"$tmp/cap2.out" 2>&1
check "capture --steps 3 exits 0" "$?" 0
read -r n first last <<<"$(steps_of "$tmp"/d2/s-*.gst)"
check "3 steps in the window" "$n" 3
check "consecutive steps" "$((last - first))" 2
# Windows repeat: a second capture of the same process, its own file and index, and its report.
"$exe" capture "$pid" --steps 2 -o "$tmp/d2/s-%w.gst" --report >"$tmp/cap2b.out" 2>&1
check "a second capture exits 0" "$?" 0
grep -q "^window 2: $tmp/d2/s-2.gst (1 process" "$tmp/cap2b.out" ||
    fail "the second window's line: $(head -n 1 "$tmp/cap2b.out")"
grep -q "^rank 0: 2 steps (ProfilerStep#N)" "$tmp/cap2b.out" || fail "--report prints no report"
check "two windows, two files" "$(ls "$tmp"/d2/s-*.gst | wc -l)" 2
kill "$l2" 2>/dev/null; wait "$l2" 2>/dev/null

# --- a window of 3 steps from steps marked once they ended (as the Python hooks mark them) ---
# A sanitized agent cannot be loaded into an unsanitized Python (test_torch_hooks.sh says why).
if ldd "$bin/libgpuscope_agent.so" | grep -q 'libasan\|libubsan' ||
    nm -D --undefined-only "$bin/libgpuscope_agent.so" 2>/dev/null | grep -q '__asan_\|__ubsan_'; then
    echo "skipped: marked steps (the agent is built with sanitizers; Python cannot load it)"
else
cat >"$tmp/marks.py" <<'PY'
import ctypes, os, sys, time
lib = ctypes.CDLL(os.environ["GPUSCOPE_AGENT"])
lib.gpuscope_range_at.argtypes = [ctypes.c_char_p, ctypes.c_int64, ctypes.c_int64]
lib.gpuscope_now_ns.restype = ctypes.c_int64
with open(sys.argv[1], "a") as f:
    f.write(f"{os.getpid()}\n")
start = lib.gpuscope_now_ns()
for i in range(300):
    time.sleep(0.02)
    end = lib.gpuscope_now_ns()
    lib.gpuscope_range_at(f"ProfilerStep#{i}".encode(), start, end)
    start = end
PY
mkdir "$tmp/d3"
"$exe" run -q --on-demand -o "$tmp/d3/" -- python3 "$tmp/marks.py" "$tmp/d3.pids" &
launchers+=($!)
l3=$!
wait_for 1 "$tmp/d3/.gpuscope-run-*/*.agent" >/dev/null
pid=$(head -n 1 "$tmp/d3.pids")
"$exe" capture "$pid" --steps 3 -o "$tmp/d3/p-%w.gst" >"$tmp/cap3.out" 2>&1
check "capture --steps 3 of marked steps exits 0" "$?" 0
read -r n first last <<<"$(steps_of "$tmp"/d3/p-*.gst)"
check "3 marked steps in the window" "$n" 3
kill "$l3" 2>/dev/null; wait "$l3" 2>/dev/null
fi

# --- the agent's memory across windows: what one window takes, the next ones reuse ---
# Measured: 1,900 kB dormant, 1,952 kB after window 1 and still after 31. A short flush period
# makes each window of one step a fraction of a second. ASan's quarantine keeps freed blocks out
# of reuse (420 kB over 20 windows in the sanitized build): it is off for this program.
vmrss() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }
mkdir "$tmp/mem"
ASAN_OPTIONS="$ASAN_OPTIONS:quarantine_size_mb=0:thread_local_quarantine_size_kb=0" "$exe" run -q --on-demand --flush-interval 50 -o "$tmp/mem/" -- "$target" train 3000 5 0 "$tmp/mem.pids" &
launchers+=($!)
lm=$!
wait_for 1 "$tmp/mem/.gpuscope-run-*/*.agent" >/dev/null
pid=$(head -n 1 "$tmp/mem.pids")
"$exe" capture "$pid" --steps 1 -o "$tmp/mem/m-%w.gst" -q
check "memory: window 1 exits 0" "$?" 0
after1=$(vmrss "$pid")
ok=0
for _ in $(seq 2 21); do
    "$exe" capture "$pid" --steps 1 -o "$tmp/mem/m-%w.gst" -q && ok=$((ok + 1))
done
after21=$(vmrss "$pid")
check "memory: 20 more windows exit 0" "$ok" 20
check "memory: 21 windows, 21 files" "$(ls "$tmp"/mem/m-*.gst | wc -l)" 21
growth=$(( ${after21:-999999} - ${after1:-0} ))
[ "$growth" -le 64 ] || fail "VmRSS grew by $growth kB over 20 windows (${after1} kB after window 1, ${after21} kB after 21), want at most 64"
kill "$lm" 2>/dev/null; wait "$lm" 2>/dev/null

# --- a program captured, then ended by a signal: no control file nor run folder is left ---
# Its status says `written` (the window was taken), its process is gone: nothing can reach it.
# One process killed with SIGKILL; three (a program and two children) stopped with SIGTERM to
# the launcher's whole process group, as Ctrl-C or a batch system's stop does.
mkdir "$tmp/k9"
"$exe" run -q --on-demand -o "$tmp/k9/" -- "$target" train 400 20 0 "$tmp/k9.pids" &
launchers+=($!)
lk=$!
wait_for 1 "$tmp/k9/.gpuscope-run-*/*.agent" >/dev/null
pid=$(head -n 1 "$tmp/k9.pids")
"$exe" capture "$pid" --steps 1 -o "$tmp/k9/w-%w.gst" -q
check "a window before SIGKILL exits 0" "$?" 0
kill -KILL "$pid"
wait "$lk" 2>/dev/null
check "SIGKILL of the program after a window: no run folder left" \
    "$(compgen -G "$tmp/k9/.gpuscope-run-*" | wc -l)" 0
mkdir "$tmp/term"
setsid "$exe" run -q --on-demand -o "$tmp/term/" -- "$target" train 400 20 0 "$tmp/term.pids" 2 &
launchers+=($!)
lt=$!
check "three agents up" "$(wait_for 3 "$tmp/term/.gpuscope-run-*/*.agent")" 3
"$exe" capture "$lt" --steps 1 -o "$tmp/term/w-%p-%w.gst" -q
check "a window of three processes before SIGTERM exits 0" "$?" 0
check "three files for the window" "$(ls "$tmp"/term/w-*.gst | wc -l)" 3
kill -TERM -- "-$lt"
wait "$lt" 2>/dev/null
check "SIGTERM to the launcher's group after a window: no run folder left" \
    "$(compgen -G "$tmp/term/.gpuscope-run-*" | wc -l)" 0

# --- four ranks of a job: the same step numbers on each; a stale endpoint removed ---
mkdir -m 700 "$tmp/job" "$tmp/jobout"
host=$(hostname)
printf 'pid=999999\nhost=%s\nstate=dormant\n' "${host:0:63}" >"$tmp/job/${host:0:63}.999999.agent"
for r in 0 1 2 3; do
    RANK=$r "$exe" run -q --on-demand --job "$tmp/job" -o "$tmp/jobout/" -- \
        "$target" train 400 20 0 "$tmp/job.pids" &
    launchers+=($!)
    sleep 0.1 # ranks start a little apart, as they do
done
check "four agents up" "$(wait_for 5 "$tmp/job/*.agent")" 5
"$exe" capture --job "$tmp/job" --steps 3 -o "$tmp/jobout/rank%q{RANK}-w%w.gst" >"$tmp/cap4.out" 2>&1
check "capture --job exits 0" "$?" 0
grep -q "999999" "$tmp/cap4.out" || fail "capture --job does not say it removed the stale endpoint"
[ -e "$tmp/job/${host:0:63}.999999.agent" ] && fail "the stale endpoint is still there"
check "one window per rank" "$(ls "$tmp"/jobout/rank*-w*.gst 2>/dev/null | wc -l)" 4
ranges=""
for f in "$tmp"/jobout/rank*-w*.gst; do ranges+="$(steps_of "$f");"; done
first=${ranges%%;*}
check "the same 3 steps on every rank" "$ranges" "$first;$first;$first;$first;"
check "3 steps each" "${first%% *}" 3

# --- refusals, each with its exit status ---
refuse() { # NAME STATUS PATTERN ARGS...
    local name=$1 want=$2 pattern=$3
    shift 3
    "$exe" capture "$@" >"$tmp/refuse.out" 2>&1
    check "$name: exit status" "$?" "$want"
    grep -q -- "$pattern" "$tmp/refuse.out" || fail "$name: '$(cat "$tmp/refuse.out")' lacks '$pattern'"
}
refuse "no window size" 2 "give the window as --steps N or as --duration S" $$
refuse "both sizes" 2 "give the window as" $$ --steps 2 --duration 1
refuse "no target" 2 "name a process (PID) or a job's folder" --steps 2
refuse "a PID and a job" 2 "name a process (PID) or a job's folder" $$ --job "$tmp/job" --steps 2
refuse "not a pid" 2 "'12x' is not a process id" 12x --steps 2
refuse "no such process" 2 "no process 4194301" 4194301 --steps 2
refuse "not on demand" 2 "was not started by \`gpuscope run --on-demand\`" $$ --steps 2
refuse "no such folder" 2 "No such file" --job "$tmp/nope" --steps 2
mkdir -m 700 "$tmp/empty"
refuse "no agent" 3 "no agent in" --job "$tmp/empty" --steps 2
mkdir "$tmp/open" && chmod 777 "$tmp/open"
refuse "a folder others can write in" 4 "can be written by others" --job "$tmp/open" --steps 2
"$exe" run -q --on-demand -o "$tmp/x.gst" -- true 2>"$tmp/refuse.out"
check "run --on-demand -o without %w: exit 2" "$?" 2
grep -q "names a folder or a pattern with %w" "$tmp/refuse.out" || fail "run -o without %w: $(cat "$tmp/refuse.out")"
"$exe" run -q --on-demand --steps 1,1,1 -- true 2>/dev/null
check "run --on-demand --steps: exit 2" "$?" 2
"$exe" run -q --job "$tmp/job" -- true 2>/dev/null
check "run --job without --on-demand: exit 2" "$?" 2
chmod 777 "$tmp/open"
"$exe" run -q --on-demand --job "$tmp/open" -o "$tmp/" -- true 2>"$tmp/refuse.out"
check "run --job on a folder others can write in: exit 2" "$?" 2

# --- another user may not capture ---
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
    pid=$(head -n 1 "$tmp/job.pids")
    setpriv --reuid=65534 --regid=65534 --clear-groups "$exe" capture "$pid" --duration 1 \
        >"$tmp/cap5.out" 2>&1
    rc=$?
    [ "$rc" -ne 0 ] || fail "a capture by another user exits 0"
    grep -qi "another user\|owner" "$tmp/cap5.out" || fail "refusal says nothing of the owner: $(cat "$tmp/cap5.out")"
    # Root may capture anyone's process: the window's folder is given to its user.
    chmod 711 "$tmp"
    mkdir -m 777 "$tmp/nobody"
    setpriv --reuid=65534 --regid=65534 --clear-groups "$exe" run -q --on-demand \
        -o "$tmp/nobody/" -- "$target" train 300 20 0 "$tmp/nobody/pids" &
    launchers+=($!)
    wait_for 1 "$tmp/nobody/.gpuscope-run-*/*.agent" >/dev/null
    "$exe" capture "$(head -n 1 "$tmp/nobody/pids")" --steps 2 -o "$tmp/nobody/root-%w.gst" \
        >"$tmp/cap6.out" 2>&1
    check "root captures another user's process" "$?" 0
    check "root's window has its steps" "$(steps_of "$tmp"/nobody/root-*.gst | cut -d' ' -f1)" 2
else
    echo "skipped: a capture by another user needs root and setpriv"
fi

for l in ${launchers[@]+"${launchers[@]}"}; do kill "$l" 2>/dev/null; done
wait 2>/dev/null
if compgen -G "$tmp/sanitizer*" >/dev/null; then
    fail "sanitizer reports: $(cat "$tmp"/sanitizer*)"
fi
finish
