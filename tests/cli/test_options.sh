#!/bin/bash
# The shared option parser: every command's usage errors are one line in one form, exit 2, and
# what follows the options is read as the command wants (traces, nothing, a program). Each case's
# stderr and exit code are compared with tests/cli/golden/options-errors.
#
#   bash tests/cli/test_options.sh path/to/gpuscope          # run from the source root
#   GS_UPDATE_GOLDEN=1 bash tests/cli/test_options.sh ...     # rewrite the golden (then review!)
set -u
exe=${1:?usage: test_options.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
golden=tests/cli/golden/options-errors
trace=tests/data/views_small.json
log=tests/data/monitor/two_gpus.jsonl
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# One case per line: the arguments, split on spaces ('' is an empty argument).
cases="kernels --bogus $trace
kernels -x $trace
kernels --format
kernels --help=x $trace
kernels --limit x $trace
kernels --sort bogus $trace
kernels
idle --gaps 1000001 $trace
memory --ops --timeline $trace
diff $trace
run
run --trace
run -qx -- true
run -o '' -- true
run --trace gpu -- true
run --sample-rate 1001 -- true
run --flush-interval 5 -- true
run --capture-range nvtx: -- true
run --steps 1,1,1 --capture-range cudaProfilerApi -- true
monitor --once extra
monitor --count 1.5
monitor --interval 0.000
monitor --format xml
monitor --limit 3
monitor --replay $log --host-only
monitor --serve --host-only --replay $log
export --format pdf $trace
export --format csv --table nope $trace
export --table kernels $trace
export --limit 3 $trace
export --format csv $trace
export --rank x $trace"

while IFS= read -r line; do
    eval "args=($line)"
    echo "\$ gpuscope $line"
    "$exe" "${args[@]}" 2>&1 >/dev/null </dev/null
    echo "exit $?"
done <<<"$cases" | sed "s|$PWD/||g" >"$tmp"

if [ -n "${GS_UPDATE_GOLDEN:-}" ]; then
    cp "$tmp" "$golden"
    echo "updated $golden"
elif ! diff -u "$golden" "$tmp"; then
    echo "FAIL: usage errors differ from $golden"
    exit 1
fi
echo "ok: $(grep -c '^\$' "$tmp") usage errors"
