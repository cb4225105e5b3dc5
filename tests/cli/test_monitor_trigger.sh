#!/bin/bash
# monitor --trigger on replayed logs that cross their conditions, without a GPU or an agent: the
# exact times each condition held and fired, one capture per --cooldown whichever trigger asks,
# several --trigger (any fires), mem_used in bytes, and the usage errors (exit 2). The captures
# are of an empty job folder, so each `gpuscope capture` child ends at once with status 3. The
# captures of live agents and the webhook: tests/monitor/trigger_test.py.
set -u
exe=${1:?usage: test_monitor_trigger.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
. tests/cli/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -m 700 "$tmp/job"
python3 tests/cli/monitor_trigger_log.py "$tmp/two.jsonl" two
python3 tests/cli/monitor_trigger_log.py "$tmp/memory.jsonl" memory

# held NAME STDERR: "TRIGGER FROM TO" for each line saying a trigger held, times from t=0.
held() {
    sed -n "s/.*trigger '\(.*\)' held from 17170000\([0-9]*\)\.000 to 17170000\([0-9]*\)\.000.*/\1 \2 \3/p" "$1" |
        sed 's/ 0*\([0-9]\)/ \1/g'
}

# Two triggers, a cooldown of 30 s: the GPU idles from t=20 (fires at 25); the step slows at
# t=50 (fires at 60, 35 s later); it holds again from 61 and fires as the cooldown ends at 90.
"$exe" monitor --replay "$tmp/two.jsonl" --interval 0 --format csv --agents "$tmp/job" \
    --trigger 'gpu_util<30 for 5s' --trigger 'step_time>200ms for 10s' --cooldown 30 \
    >/dev/null 2>"$tmp/two.err"
check "two triggers: exit" $? 0
check "two triggers: when each held and fired" "$(held "$tmp/two.err")" \
"gpu_util<30 for 5s 20 25
step_time>200ms for 10s 50 60
step_time>200ms for 10s 61 90"
check "two triggers: the step time's message names the slowest process" \
    "$(grep -c "trigger 'step_time>200ms for 10s' held from [0-9.]* to [0-9.]* (250 ms against 200; slowest: rank 1, process 4242 on node-7): capture" "$tmp/two.err")" 2
check "two triggers: the GPU's does not" \
    "$(grep -c "trigger 'gpu_util<30 for 5s' held from [0-9.]* to [0-9.]* (10 % against 30): capture" "$tmp/two.err")" 1
check "two triggers: the captures of the job folder" \
    "$(grep -c "capture --job $tmp/job --steps 5 (process [0-9]*)\$" "$tmp/two.err")" 3
check "two triggers: each capture's end is said" \
    "$(grep -c 'capture (process [0-9]*) ended with status 3$' "$tmp/two.err")" 3

# The log's steps, with the slowest process, read back and written again as they were.
"$exe" monitor --replay "$tmp/two.jsonl" --interval 0 --count 2 --format csv \
    --log "$tmp/copy.jsonl" >/dev/null
check "the slowest process through --replay and --log" "$(sed -n '1s/.*"host_cpu_pct"/"host_cpu_pct"/p' "$tmp/copy.jsonl")" \
'"host_cpu_pct":10,"host_mem_used_bytes":1,"host_mem_total_bytes":2,"agents":2,"step_ns":100000000,"step_rank":1,"step_host":"node-7","step_pid":4242}'

# The table and the JSON show the watched steps (logs without them show none: test_monitor.sh).
check "the table's line of steps" \
    "$("$exe" monitor --replay "$tmp/two.jsonl" --once | sed -n 3p)" \
    "steps of 2 agents: the slowest 100.0 ms (rank 1, process 4242 on node-7)"
check "the JSON's steps" \
    "$("$exe" monitor --replay "$tmp/two.jsonl" --once --format json | grep -o '"steps":{[^}]*}')" \
    '"steps":{"agents":2,"step_ns":100000000,"rank":1,"host":"node-7","pid":4242}'

# mem_used in bytes: the fullest GPU's used memory passes 40 GiB at t=10.
"$exe" monitor --replay "$tmp/memory.jsonl" --interval 0 --format csv --agents "$tmp/job" \
    --trigger 'mem_used>=40GiB for 2s' --capture-duration 1.5 >/dev/null 2>"$tmp/memory.err"
check "mem_used in GiB: exit" $? 0
check "mem_used in GiB: held from 10 to 12" "$(held "$tmp/memory.err")" "mem_used>=40GiB for 2s 10 12"
check "mem_used in GiB: a capture of 1.5 s" \
    "$(grep -c "capture --job $tmp/job --duration 1.5 (process" "$tmp/memory.err")" 1

# Without --agents the captures are of the GPU's processes that run with an agent's folder; under
# --replay, only when the log is this machine's: node-7's process 1234 is not this machine's.
GPUSCOPE_CONTROL="$tmp/job" sleep 60 &
sleeper=$!
python3 tests/cli/monitor_trigger_log.py "$tmp/pids.jsonl" memory $sleeper
"$exe" monitor --replay "$tmp/pids.jsonl" --interval 0 --format csv --trigger 'mem_used>=40GiB' \
    >/dev/null 2>"$tmp/pids.err"
check "another machine's log: exit" $? 0
check "another machine's log: its processes are not captured" \
    "$(grep -c "held from 1717000010.000 to 1717000010.000 (45 GiB against 40), but the sample is node-7's, not this machine's: give --agents DIR to capture\$" "$tmp/pids.err"),$(grep -c 'capture [0-9]' "$tmp/pids.err")" 1,0
sed "s/\"node-7\"/\"$(uname -n)\"/" "$tmp/pids.jsonl" >"$tmp/here.jsonl"
"$exe" monitor --replay "$tmp/here.jsonl" --interval 0 --format csv --trigger 'mem_used>=40GiB' \
    >/dev/null 2>"$tmp/here.err"
kill $sleeper
check "this machine's log: its process is captured" \
    "$(grep -c "held from 1717000010.000 to 1717000010.000 (45 GiB against 40): capture $sleeper --steps 5 (process" "$tmp/here.err")" 1

# A folder that is not there (yet: the job may start later) is said once, and watched.
"$exe" monitor --host-only --once --format csv --agents "$tmp/later" >/dev/null 2>"$tmp/later.err"
check "a folder not there yet: exit" $? 0
check "a folder not there yet: said" "$(cat "$tmp/later.err")" \
    "gpuscope: monitor: --agents $tmp/later: No such file or directory (yet?): no steps until a job runs with it"

# Usage errors: a condition it cannot read, a step time with nothing to read it from (live,
# without --agents), more triggers than it watches.
check_error 2 monitor --replay "$tmp/two.jsonl" --trigger 'step_time>1.2*baseline for'
check_error 2 monitor --replay "$tmp/two.jsonl" --trigger 'mem_used>40GB%'
check_error 2 monitor --host-only --once --trigger 'step_time>250ms'
check_error 2 monitor --replay "$tmp/two.jsonl" --trigger 'gpu_util<1' --trigger 'gpu_util<2' \
    --trigger 'gpu_util<3' --trigger 'gpu_util<4' --trigger 'gpu_util<5' --trigger 'gpu_util<6' \
    --trigger 'gpu_util<7' --trigger 'gpu_util<8' --trigger 'gpu_util<9' --once
finish
