#!/bin/bash
# Bad input: every kind gets one line on stderr naming the file (and the byte offset where it
# applies), nothing on stdout, exit code 3, and no sanitizer report.
#
#   bash tests/cli/test_bad_input.sh path/to/gpuscope      # run from the source root
set -u
exe=${1:?usage: test_bad_input.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

good=tests/data/gen/modern.json
gzip -c "$good" >"$tmp/good.json.gz"
cut=$(($(stat -c %s "$tmp/good.json.gz") / 2))
head -c $cut "$tmp/good.json.gz" >"$tmp/cut.json.gz"
# Cut right after a '"ph": ' so the message is predictable: the input ends where a value was due.
cut_json=$(python3 - "$good" "$tmp/cut.json" <<'PY'
import sys
text = open(sys.argv[1], 'rb').read()
at = text.index(b'"ph": ', 50000) + 6
open(sys.argv[2], 'wb').write(text[:at])
print(at)
PY
)
# Binary garbage, fixed (random bytes could start with whitespace or '{' and move the offset).
python3 -c "import random, sys; r = random.Random(7); sys.stdout.buffer.write(bytes([0xff] + [r.randrange(256) for _ in range(4095)]))" >"$tmp/garbage.bin"
printf '\x89PNG\r\n\x1a\n0000' >"$tmp/image.png"
echo '{"schema": "1.0.1", "nodes": [{"id": 1}]}' >"$tmp/execution_trace.json"
echo '{"schemaVersion": 1, "events": [{"ph": "X"}]}' >"$tmp/not_a_trace.json"
echo '{"schemaVersion": 1, "traceEvents": []}' >"$tmp/empty_events.json"
# An SQLite database (export --format sqlite writes one) given as the trace: its 100-byte header
# starts with this text; gzipped too, since the format is told by the content.
printf 'SQLite format 3\0\020\0\001\001' >"$tmp/export.sqlite"
gzip -c "$tmp/export.sqlite" >"$tmp/export.sqlite.gz"
# A rank summary, for the commands that read traces only (below the table, which runs report).
"$exe" summarize -o "$tmp/rank.gsum" "$good" || exit 1
: >"$tmp/empty_file.json"
echo '[[1, 2, 3], [4, 5, 6]]' >"$tmp/array_of_arrays.json"
mkdir "$tmp/no_traces" && echo hello >"$tmp/no_traces/readme.txt"
# A hostile nesting depth and a 70 MB string: refused, not buffered without bound.
python3 -c "print('[' * 200000)" >"$tmp/deep.json"
python3 -c "import sys; sys.stdout.write('{\"traceEvents\": [{\"name\": \"' + 'x' * (70 << 20) + '\"}]}')" \
    >"$tmp/huge_string.json"

# file | expected message (a fixed string; the file path is prefixed below)
cases=(
    "cut.json.gz|: byte $cut: truncated gzip stream"
    "cut.json|: byte $cut_json: input ends inside an event"
    "garbage.bin|: byte 0: unexpected byte 0xff: not JSON text"
    "image.png|: byte 0: unexpected byte 0x89: not JSON text"
    "execution_trace.json|: a PyTorch execution trace (nodes, no traceEvents): give the profiler trace recorded with it"
    "not_a_trace.json|: not a PyTorch profiler trace (a JSON object without traceEvents)"
    "empty_events.json|: the trace has no events (empty traceEvents)"
    "export.sqlite|: an SQLite database (gpuscope export --format sqlite writes these), not a trace: give the trace it was exported from"
    "export.sqlite.gz|: an SQLite database (gpuscope export --format sqlite writes these), not a trace: give the trace it was exported from"
    "empty_file.json|: empty file"
    "array_of_arrays.json|: byte 1: not a profiler trace: the array holds no event objects"
    "no_traces|: no traces in this folder (looked for *.json, *.json.gz, *.gst)"
    "missing.json|: No such file or directory"
    "deep.json|: byte 1: not a profiler trace: the array holds no event objects"
    "huge_string.json|: byte 26: a single JSON value is longer than 64 MB"
)

failed=0
passed=0
for c in "${cases[@]}"; do
    file=$tmp/${c%%|*}
    want="gpuscope: $file${c#*|}"
    for cmd in report kernels; do
        "$exe" "$cmd" "$file" >"$tmp/out" 2>"$tmp/err"
        rc=$?
        lines=$(wc -l <"$tmp/err")
        if [ $rc -ne 3 ] || [ "$lines" -ne 1 ] || [ -s "$tmp/out" ] ||
            ! grep -qF -- "$want" "$tmp/err"; then
            echo "FAIL $cmd ${c%%|*}: exit $rc, $lines stderr lines, want a line containing: $want"
            sed 's/^/  stderr: /' "$tmp/err" | head -5
            head -c 300 "$tmp/out" | sed 's/^/  stdout: /'
            failed=$((failed + 1))
        else
            passed=$((passed + 1))
        fi
    done
done

# A good file next to a bad one: the whole command fails, naming the bad one.
"$exe" kernels "$tmp/good.json.gz" "$tmp/cut.json" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 3 ] && grep -qF "gpuscope: $tmp/cut.json: byte" "$tmp/err"; then
    passed=$((passed + 1))
else
    echo "FAIL mixed good and bad: exit $rc: $(cat "$tmp/err")"
    failed=$((failed + 1))
fi

# A rank summary where a trace is needed: named as what it is; report reads it.
want="gpuscope: $tmp/rank.gsum: a rank summary (gpuscope summarize), which only report, comm and"
for cmd in kernels whatif; do
    "$exe" "$cmd" "$tmp/rank.gsum" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 3 ] && [ ! -s "$tmp/out" ] && grep -qF -- "$want" "$tmp/err"; then
        passed=$((passed + 1))
    else
        echo "FAIL $cmd rank.gsum: exit $rc: $(cat "$tmp/err")"
        failed=$((failed + 1))
    fi
done
if "$exe" report "$tmp/rank.gsum" >/dev/null 2>"$tmp/err"; then
    passed=$((passed + 1))
else
    echo "FAIL report rank.gsum: $(cat "$tmp/err")"
    failed=$((failed + 1))
fi

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
