#!/bin/bash
# -v's table of stage times (doc/report.md, `-v`): its rows, once, at the end of the log, for
# report on one trace and on four ranks, and for a view; the top rows and `other` share out the
# command's time (their % add up to 100, their ms to the total), and a part never exceeds the
# row it is part of, but the analyses, which run on two threads, may add up to more. Timings
# themselves are not checked: the machine decides them.
#
#   bash tests/cli/test_stage_times.sh path/to/gpuscope        # run from the source root
set -u
exe=${1:?usage: test_stage_times.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
source tests/cli/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset GPUSCOPE_DEBUG

# check_table NAME FILE ROW...: FILE's table has exactly the rows ROW (name, indented two spaces
# per level), in that order, and adds up.
check_table() {
    local name=$1 file=$2
    shift 2
    ran=$((ran + 1))
    python3 - "$file" "$@" <<'EOF' || fail "$name: the table of stage times"
import re, sys

lines = [l.rstrip("\n") for l in open(sys.argv[1])]
heads = [i for i, l in enumerate(lines) if l.startswith("gpuscope: debug: stage times: ")]
if len(heads) != 1:
    sys.exit(f"{len(heads)} tables, not 1")
total = float(re.match(r"gpuscope: debug: stage times: ([0-9.]+) ms in all", lines[heads[0]])[1])
rows = []
for line in lines[heads[0] + 1:]:
    m = re.fullmatch(r"gpuscope: debug: ((?:  )+)(\S.*?) +(-?[0-9]+\.[0-9]) +(-?[0-9]+\.[0-9]) %", line)
    if not m:
        sys.exit(f"not a row: {line!r}")
    rows.append((len(m[1]) // 2 - 1, m[2], float(m[3]), float(m[4])))
want = sys.argv[2:]
got = ["  " * (depth + 1) + name for depth, name, _, _ in rows]
if got != want:
    sys.exit("rows:\n  " + "\n  ".join(got) + "\nwant:\n  " + "\n  ".join(want))
top = [r for r in rows if r[0] == 0]
pct, ms = sum(r[3] for r in top), sum(r[2] for r in top)
if abs(pct - 100) > 0.1 * len(top) or abs(ms - total) > 0.1 * len(top):
    sys.exit(f"top rows add up to {pct:.1f} % and {ms:.1f} ms of {total:.1f} ms")
for i, (depth, name, ms, pct) in enumerate(rows):
    if ms < 0 and name != "other (options, inputs listed)":
        sys.exit(f"{name}: {ms} ms")
    parent = next((r for r in reversed(rows[:i]) if r[0] == depth - 1), None) if depth else None
    if parent and ms > parent[2] * (2 if parent[1].startswith("analyses") else 1) + 0.1:
        sys.exit(f"{name} ({ms} ms) exceeds {parent[1]} ({parent[2]} ms)")
EOF
}

analyses=("  analyses (two threads)" "    facts" "    breakdown" "    launch" "    sync"
          "    memory" "    temporal" "    idle" "    comm" "    kernels" "    ops" "    copies"
          "    trace facts (replay, verdict)" "    roofline" "    replay (expected gains)"
          "    diagnosis inputs" "    compute (FLOPs, MFU)")
summary=("  summary" "    series")
report_rows=("  load (read, index)" "  trace context" "${analyses[@]}" "${summary[@]}"
             "  stragglers (collectives)" "  drop (trace, analyses freed)" "  merge" "  verdict"
             "  render" "  other (options, inputs listed)")

for input in examples/train.json.gz tests/data/ranks/r4; do
    "$exe" report -v "$input" >"$tmp/report.out" 2>"$tmp/report.err"
    check "report -v $input: exit" $? 0
    check_table "report -v $input" "$tmp/report.err" "${report_rows[@]}"
    ran=$((ran + 1))
    tail -1 "$tmp/report.err" | grep -q "other (options, inputs listed)" ||
        fail "report -v $input: the table does not end the log"
done

"$exe" kernels -v examples/train.json.gz >"$tmp/kernels.out" 2>"$tmp/kernels.err"
check "kernels -v: exit" $? 0
check_table "kernels -v" "$tmp/kernels.err" "  load (read, index)" "  trace context" \
    "  the view's analysis" "  drop (trace, analyses freed)" "  the view's finish" "  render" \
    "  other (options, inputs listed)"

"$exe" report examples/train.json.gz >"$tmp/quiet.out" 2>"$tmp/quiet.err"
ran=$((ran + 1))
[ -s "$tmp/quiet.err" ] && fail "report without -v wrote: $(head -2 "$tmp/quiet.err")"

finish
