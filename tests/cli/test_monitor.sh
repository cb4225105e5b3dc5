#!/bin/bash
# gpuscope monitor without a GPU: the table, csv and json of a replayed log (golden), its copy
# through --log, whole lines in a log written by a monitor that gets killed, bad logs (exit 3 with
# the line number), usage errors (exit 2), and no NVML (exit 4). The exporter: test_monitor_serve.sh.
set -u
exe=${1:?usage: test_monitor.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
golden=tests/cli/golden
. tests/cli/lib.sh
log=tests/data/monitor/two_gpus.jsonl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check_golden monitor-replay.table monitor --replay "$log" --once
check_golden monitor-replay.csv monitor --replay "$log" --interval 0 --format csv
check_golden monitor-replay.json monitor --replay "$log" --interval 0 --format json
check_golden monitor-replay-count-2.table monitor --replay "$log" --interval 0 --count 2

# Replaying with --log writes the same lines back: the reader and the writer agree.
ran=$((ran + 1))
if ! "$exe" monitor --replay "$log" --interval 0 --format csv --log "$tmp/copy.jsonl" >/dev/null ||
    ! cmp -s "$log" "$tmp/copy.jsonl"; then
    echo "FAIL: --replay with --log does not copy the log byte for byte"
    failed=$((failed + 1))
fi

# A monitor killed while logging leaves only whole JSON lines (each is one write(2)).
ran=$((ran + 1))
"$exe" monitor --host-only --interval 0.01 --format csv --log "$tmp/killed.jsonl" >/dev/null &
pid=$!
sleep 1
kill -9 $pid
wait $pid 2>/dev/null
if ! python3 -c '
import json, sys
lines = open(sys.argv[1], "rb").read().split(b"\n")
assert lines[-1] == b"", "the log ends inside a line"
assert len(lines) > 10, "too few samples: %d" % len(lines)
for line in lines[:-1]:
    json.loads(line)
print("killed monitor: %d whole lines" % (len(lines) - 1))
' "$tmp/killed.jsonl"; then
    echo "FAIL: a killed monitor left a partial or invalid line in its log"
    failed=$((failed + 1))
fi

# Bad logs: exit 3 and one line on stderr naming the file and line (the samples before the bad
# line are printed first, as they would be when following a log).
bad() { # NAME LINE... : a log whose lines are the arguments
    local name=$1
    shift
    printf '%s\n' "$@" >"$tmp/$name.jsonl"
}
good=$(head -n 1 "$log")
bad truncated "$good" '{"ts":1717000001.000,"hostname":"n","gpu":0,"gpu_util_pct":'
bad not-object "$good" '[1,2]'
bad no-ts '{"hostname":"n","gpu":0}'
bad bad-number "$good" '{"ts":1717000001.000,"gpu":0,"gpu_util_pct":"high"}'
bad twice "$good" "$good"
bad gpu-fields '{"ts":1717000001.000,"gpu_util_pct":3}'
bad bad-reason '{"ts":1.000,"gpu":0,"unavailable":{"gpu_power_w":"broken"}}'
bad trailing '{"ts":1.000} {"ts":2.000}'
for name in truncated not-object no-ts bad-number twice gpu-fields bad-reason trailing; do
    ran=$((ran + 1))
    err=$("$exe" monitor --replay "$tmp/$name.jsonl" --interval 0 2>&1 >/dev/null)
    rc=$?
    case "$rc $(printf '%s\n' "$err" | wc -l) $err" in
    "3 1 gpuscope: monitor: $tmp/$name.jsonl: line "[12]": "*) ;;
    *) echo "FAIL: $name: exit $rc, stderr: $err"; failed=$((failed + 1)) ;;
    esac
done
check_error 3 monitor --replay "$tmp/missing.jsonl"

# Usage errors.
check_error 2 monitor --format xml
check_error 2 monitor --interval abc
check_error 2 monitor --interval 0
check_error 2 monitor --count 0
check_error 2 monitor --once extra
check_error 2 monitor --replay "$log" --host-only
check_error 2 monitor --replay "$log" --serve 1.2.3.4.5:9400
check_error 2 monitor --replay "$log" --serve 127.0.0.1:99999
check_error 2 monitor --bogus

# No NVML (this machine has none): one line and exit 4, unless --host-only.
if ! ldconfig -p 2>/dev/null | grep -q libnvidia-ml.so.1; then
    check_error 4 monitor --once
    ran=$((ran + 1))
    if ! "$exe" monitor --host-only --once --format json | grep -q '"gpus":\[\]'; then
        echo "FAIL: --host-only without NVML"
        failed=$((failed + 1))
    fi
fi

finish
