#!/bin/bash
# gpuscope capture against a fake agent (tests/cli/capture_fake_agent.py: the agent's side of the
# control folder of src/common/ondemand.h, in Python), so the client is tested on any machine,
# with or without the agent library: the request it writes (targets, the start step of several
# processes, the window of time, kinds, the output), the window's file and its path, the stale
# endpoints it removes, a job of four ranks aligned on one step, its refusals and their exit
# statuses, a signal while it waits. tests/cli/test_ondemand.sh runs the real agent.
#
#   bash tests/cli/test_capture.sh path/to/gpuscope        # run from the source root
#
# To add a case: start agents with `agent NAME [fake agent options]` (its pid in $agent_pid; its
# folder $tmp/NAME/ctl, its windows' log $tmp/NAME/log), capture, and read `req KEY` (the
# request's field) or `logged N FIELD` (the N-th window the agents served).
set -u
exe=${1:?usage: test_capture.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
exe=$(cd "$(dirname "$exe")" && pwd)/$(basename "$exe")
fake=$PWD/tests/cli/capture_fake_agent.py
source tests/cli/lib.sh
tmp=$(mktemp -d)
pids=()
cleanup() {
    for p in ${pids[@]+"${pids[@]}"}; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
host=$(python3 -c 'import socket; print(socket.gethostname()[:63])')

# agent NAME [OPTIONS]: a fake agent with its own control folder $tmp/NAME/ctl (made private),
# started with GPUSCOPE_CONTROL set as `gpuscope run --on-demand` sets it; waits for its status.
agent() {
    local name=$1 dir=$tmp/$1
    shift
    mkdir -p -m 700 "$dir" "$dir/ctl"
    GPUSCOPE_CONTROL=$dir/ctl python3 "$fake" --control "$dir/ctl" --log "$dir/log" \
        --output "$dir/default-%p-w%w.gst" "$@" &
    agent_pid=$!
    pids+=("$agent_pid")
    wait_agents "$dir/ctl" 1
}

# wait_agents FOLDER N: until N statuses are in FOLDER (5 s at most).
wait_agents() {
    for _ in $(seq 1 100); do
        [ "$(compgen -G "$1/*.agent" | wc -l)" -ge "$2" ] && return
        sleep 0.05
    done
    fail "$2 agents did not start in $1"
}

# req FOLDER KEY: a field of the request capture wrote.
req() { sed -n "s/^$2=//p" "$1/request"; }

# logged NAME N FIELD: FIELD of the N-th window the agents of NAME served (from 1).
logged() { sed -n "${2}p" "$tmp/$1/log" | tr ' ' '\n' | sed -n "s/^$3=//p"; }

now_ns() { date +%s%N; }

# --- a window of 1 s of one process: the request, the file, its line ---
agent one
t0=$(now_ns)
"$exe" capture "$agent_pid" --duration 1 --kinds light -o "$tmp/one/win-%w.gst" \
    >"$tmp/out" 2>"$tmp/err"
check "capture --duration 1 exits 0" "$?" 0
t1=$(now_ns)
ctl=$tmp/one/ctl
check "the request names the process" "$(req "$ctl" targets)" "$host:$agent_pid"
check "the request's id" "$(req "$ctl" id)" 1
check "a window of time, not of steps" "$(req "$ctl" steps)" 0
check "the window lasts 1 s" "$(req "$ctl" duration_ns)" 1000000000
from=$(req "$ctl" from_ns)
# Two polling periods (400 ms) after the request, so that the agent has read it first.
[ "$from" -ge $((t0 + 400000000)) ] && [ "$from" -le $((t1 - 1000000000 + 400000000)) ] ||
    fail "from_ns $from is not 0.4 s after the request ($t0 .. $t1)"
check "--kinds light is asked for" "$(req "$ctl" kinds)" light
check "the output is the -o pattern, as given" "$(req "$ctl" output)" "$tmp/one/win-%w.gst"
check "the line of the window" "$(sed "s|, [0-9.]* kB)|)|" "$tmp/out")" \
    "window 1: $tmp/one/win-1.gst (1 process, 6 kernels, 4 NVTX ranges)"
check "nothing on stderr" "$(cat "$tmp/err")" ""
"$exe" kernels "$tmp/one/win-1.gst" >/dev/null 2>&1
check "the window's file reads" "$?" 0
check "the agent recorded from from_ns" "$(logged one 1 from_ns)" "$from"
check "the window's folder is removed" "$(ls -d "$ctl"/window-* 2>/dev/null | wc -l)" 0

# Windows repeat: the next capture is window 2, into the run's own output (no -o), a relative
# -o is made absolute, and --report prints the window's report.
"$exe" capture -v "$agent_pid" --steps 3 >"$tmp/out" 2>"$tmp/err"
check "a second capture exits 0" "$?" 0
grep -q "^gpuscope: debug: capture: asked 1 process(es) for window 2 (3 steps from step -1" \
    "$tmp/err" || fail "-v does not say what was asked: $(cat "$tmp/err")"
grep -q "^gpuscope: debug: capture: process $agent_pid: written$" "$tmp/err" ||
    fail "-v does not say what the process answered: $(cat "$tmp/err")"
check "the second request's id" "$(req "$ctl" id)" 2
check "the run's own output: the request leaves it empty" "$(req "$ctl" output)" ""
check "one process starts at its next step" "$(req "$ctl" start_step)" -1
check "a window of 3 steps" "$(req "$ctl" steps)" 3
check "the window's file is where the agent said" "$(cut -d' ' -f3 "$tmp/out")" \
    "$tmp/one/default-$agent_pid-w2.gst"
check "3 steps recorded" "$(( $(logged one 2 last) - $(logged one 2 first) + 1 ))" 3
(cd "$tmp/one" && "$exe" capture "$agent_pid" --steps 1 -o 'rel-%w.gst' --report >"$tmp/out" 2>&1)
check "capture --report exits 0" "$?" 0
check "a relative -o is made absolute" "$(req "$ctl" output)" "$tmp/one/rel-%w.gst"
grep -q "^window 3: $tmp/one/rel-3.gst" "$tmp/out" || fail "window 3's line: $(head -n 1 "$tmp/out")"
grep -q "^Verdict" "$tmp/out" || fail "--report prints no report: $(cat "$tmp/out")"
"$exe" capture "$agent_pid" --steps 1 -o "$tmp/one/rel-%w.gst" >/dev/null 2>"$tmp/err" ||
    fail "window 4 failed: $(cat "$tmp/err")"
"$exe" capture "$agent_pid" --steps 1 -o "$tmp/one/rel-3.gst" >/dev/null 2>"$tmp/err"
check "an existing output is not replaced without --force" "$?" 4
grep -q "rel-3.gst exists (--force overwrites it)" "$tmp/err" || fail "no --force: $(cat "$tmp/err")"
"$exe" capture "$agent_pid" --steps 1 -o "$tmp/one/rel-3.gst" --force >/dev/null 2>"$tmp/err"
check "--force replaces it" "$?" 0

# --- a process and its children: one start step that all reach; the launcher's pid ---
agent family --children 2 --first-step 100
wait_agents "$tmp/family/ctl" 3
sleep 0.3 # the children count steps too
"$exe" capture "$agent_pid" --steps 2 -o "$tmp/family/f-%p-w%w.gst" >"$tmp/out" 2>&1
check "capture of a process with children exits 0" "$?" 0
ctl=$tmp/family/ctl
check "three processes named" "$(req "$ctl" targets | tr ',' '\n' | grep -c "^$host:")" 3
start=$(req "$ctl" start_step)
latest=$(cat "$ctl"/*.agent | sed -n 's/^step=//p' | sort -n | tail -n 1)
[ "$start" -gt 100 ] || fail "start_step $start is not past the steps the processes began"
check "one file per process" "$(grep -c '^window 1: ' "$tmp/out")" 3
check "every process recorded from the start step" \
    "$(for n in 1 2 3; do logged family $n first; done | sort -u)" "$start"
# `gpuscope run --on-demand CMD &` then `capture $!`: $! is the launcher, whose environment
# does not have the folder; its child's has.
mkdir -m 700 "$tmp/launched" "$tmp/launched/ctl"
GPUSCOPE_CONTROL=$tmp/launched/ctl bash -c 'python3 "$0" --control "$1" --log "$2" & wait' \
    "$fake" "$tmp/launched/ctl" "$tmp/launched/log" &
launcher=$!
pids+=("$launcher")
wait_agents "$tmp/launched/ctl" 1
pids+=("$(sed -n 's/^pid=//p' "$tmp"/launched/ctl/*.agent)")
sleep 60 &
plain=$!
pids+=("$plain")
"$exe" capture "$launcher" --steps 1 -o "$tmp/launched/l-%w.gst" >"$tmp/out" 2>&1
check "capture of the launcher's pid exits 0" "$?" 0
check "the launcher's child is captured" "$(req "$tmp/launched/ctl" targets)" \
    "$host:$(sed 's/.*\.\([0-9]*\)\.agent/\1/' <<<"$(ls "$tmp"/launched/ctl/*.agent)")"

# --- four ranks of a job: every status of the folder, one start step; a stale endpoint ---
mkdir -m 700 "$tmp/job" "$tmp/job/ctl"
printf 'pid=999999\nhost=%s\nstate=dormant\n' "$host" >"$tmp/job/ctl/$host.999999.agent"
printf 'pid=4242\nhost=elsewhere\nstate=dormant\nrequest=7\n' >"$tmp/job/ctl/elsewhere.4242.agent"
for r in 0 1 2 3; do
    RANK=$r python3 "$fake" --control "$tmp/job/ctl" --log "$tmp/job/log" \
        --first-step $((200 + 3 * r)) --output "$tmp/job/default-%p.gst" &
    pids+=($!)
done
wait_agents "$tmp/job/ctl" 6
sleep 0.3
"$exe" capture --job "$tmp/job/ctl" --steps 3 --timeout 1 -o "$tmp/job/rank%q{RANK}-w%w.gst" \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
check "the status of the ended process is said to be removed" "$(grep -c 'process 999999' "$tmp/err")" 1
[ -e "$tmp/job/ctl/$host.999999.agent" ] && fail "the stale endpoint is still there"
[ -e "$tmp/job/ctl/elsewhere.4242.agent" ] || fail "the status of another host's process was removed"
check "every agent of the folder" "$(req "$tmp/job/ctl" targets)" "*"
check "the id is past every status's" "$(req "$tmp/job/ctl" id)" 8
start=$(req "$tmp/job/ctl" start_step)
[ "$start" -gt 209 ] || fail "start_step $start is not past the steps the ranks began"
check "one window per rank" "$(ls "$tmp"/job/rank[0-3]-w8.gst 2>/dev/null | wc -l)" 4
check "every rank recorded the same steps" "$(for n in 1 2 3 4; do
    echo "$(logged job $n first)-$(logged job $n last)"; done | sort -u)" "$start-$((start + 2))"
# The process on another host cannot answer from here (nor be found ended): past --timeout the
# windows written are kept, and capture says which process wrote none.
check "capture --job with a host that does not answer: exit 4" "$rc" 4
grep -q "^window 8: $tmp/job/rank0-w8.gst" "$tmp/out" || fail "rank 0's line: $(cat "$tmp/out")"
grep -q "1 of 5 processes did not finish window 8 in time" "$tmp/err" ||
    fail "the timeout's message: $(cat "$tmp/err")"

# --- a process that fails its window; one that never answers, and a signal while waiting ---
agent failing --mode fail
"$exe" capture "$agent_pid" --duration 0.1 >"$tmp/out" 2>"$tmp/err"
check "a failed window: exit 4" "$?" 4
grep -q "process $agent_pid wrote no window: fake failure of window 1" "$tmp/err" ||
    fail "the failure is not said: $(cat "$tmp/err")"
grep -q "^gpuscope: window 1: no process wrote a file" "$tmp/err" || fail "no file is not said: $(cat "$tmp/err")"
check "a failed window gives no file (its samples alone are no window)" \
    "$(find "$tmp/failing" -name '*.gst' | wc -l)" 0
check "nor leaves its folder" "$(ls -d "$tmp"/failing/ctl/window-* 2>/dev/null | wc -l)" 0
for sig in TERM INT; do
    agent "silent$sig" --mode silent
    "$exe" capture "$agent_pid" --steps 1 >"$tmp/out" 2>"$tmp/err" &
    capture=$!
    sleep 1
    kill -$sig "$capture"
    for _ in $(seq 1 40); do kill -0 "$capture" 2>/dev/null || break; sleep 0.05; done
    kill -0 "$capture" 2>/dev/null && { fail "capture still waits 2 s after SIG$sig"; kill -KILL "$capture"; }
    wait "$capture"
    check "capture stopped by SIG$sig: exit 4" "$?" 4
    window=$(ls -d "$tmp/silent$sig"/ctl/window-1-* 2>/dev/null)
    [ -n "$window" ] || fail "SIG$sig: the window's folder was not left in place"
    grep -q "stopped waiting for window 1: what the processes write stays in $window" "$tmp/err" ||
        fail "SIG$sig: the stop is not said: $(cat "$tmp/err")"
done

# --- refusals, each with its exit status and message ---
refuse() { # NAME STATUS PATTERN ARGS...
    local name=$1 want=$2 pattern=$3
    shift 3
    "$exe" capture "$@" >"$tmp/out" 2>&1
    check "$name: exit status" "$?" "$want"
    grep -q -- "$pattern" "$tmp/out" || fail "$name: '$(cat "$tmp/out")' lacks '$pattern'"
}
refuse "no window" 2 "give the window as --steps N or as --duration S" "$agent_pid"
refuse "no such process" 2 "no process 4194300" 4194300 --steps 1
refuse "not on demand" 2 "process $plain was not started by \`gpuscope run --on-demand\`" \
    "$plain" --steps 1
chmod 770 "$tmp/one/ctl"
refuse "a folder others can write in" 4 "$tmp/one/ctl can be written by others" \
    "$(sed -n 's/^pid=//p' "$tmp"/one/ctl/*.agent)" --steps 1
chmod 700 "$tmp/one/ctl"
mkdir -m 700 "$tmp/empty"
refuse "a job folder without agents" 3 "no agent in $tmp/empty" --job "$tmp/empty" --steps 1

# --- another user: refused; root may capture anyone's process ---
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
    echo "skipped: the other user's cases (they need root and setpriv to act as nobody)"
else
    chmod 711 "$tmp"
    pid=$(sed -n 's/^pid=//p' "$tmp"/one/ctl/*.agent)
    setpriv --reuid=65534 --regid=65534 --clear-groups "$exe" capture "$pid" --duration 0.1 \
        >"$tmp/out" 2>&1
    check "a capture by another user: exit 4" "$?" 4
    grep -q "process $pid belongs to another user (uid 0): only its owner or root may capture it" \
        "$tmp/out" || fail "the refusal: $(cat "$tmp/out")"
    mkdir -m 700 "$tmp/nobody" && chown 65534:65534 "$tmp/nobody"
    setpriv --reuid=65534 --regid=65534 --clear-groups env GPUSCOPE_CONTROL="$tmp/nobody" \
        python3 "$fake" --control "$tmp/nobody" --output "$tmp/nobody/n-%w.gst" &
    pids+=($!)
    wait_agents "$tmp/nobody" 1
    pid=$(sed -n 's/^pid=//p' "$tmp"/nobody/*.agent)
    "$exe" capture "$pid" --steps 1 -o "$tmp/nobody/n-%w.gst" >"$tmp/out" 2>&1
    check "root captures another user's process: exit 0" "$?" 0
    [ -f "$tmp/nobody/n-1.gst" ] || fail "no window from nobody's process: $(cat "$tmp/out")"
fi

finish
