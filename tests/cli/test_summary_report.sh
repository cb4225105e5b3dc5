#!/bin/bash
# gpuscope report and comm on rank summaries (doc/summarize.md), and report on several traces rank
# by rank (goldens from the full-trace path, byte for byte): each rank of tests/data/ranks/r4
# and r8 summarised to a .gsum; `report --format json` and `comm --per-step --format json` on the
# summaries, alone and mixed with traces, equal the same on the traces field by field
# (tests/cli/check_summary_report.py leaves out only what doc/report.md lists as not in a summary:
# kernel and copy medians and deviations); golden text of both on r4's summaries and of the report
# on summaries of minor 0 (tests/data/gsum); the page of --html from summaries is the page on the
# traces but for those columns; --hta, which needs traces, is a usage error.
#
#   bash tests/cli/test_summary_report.sh path/to/gpuscope      # run from the source root
#   GS_UPDATE_GOLDEN=1 bash tests/cli/test_summary_report.sh ... # rewrite (then review!)
set -u
exe=${1:?usage: test_summary_report.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
golden=tests/cli/golden
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/cli/lib.sh

for set in r4 r8; do
    mkdir -p "$tmp/$set" "$tmp/$set-mixed"
    for t in tests/data/ranks/$set/rank-*.json.gz; do
        r=$(basename "$t" .json.gz)
        "$exe" summarize "$t" -o "$tmp/$set/$r.gsum" || { echo "FAIL summarize $t"; failed=$((failed + 1)); }
    done
    # mixed: the even ranks as summaries, the odd ones as traces (paths are those of the traces)
    cp "$tmp/$set"/rank-[02468].gsum "$tmp/$set-mixed/"
    for args in "report --format json" "comm --per-step --format json"; do
        read -r -a a <<<"$args"
        "$exe" "${a[@]}" tests/data/ranks/$set >"$tmp/traces.json"
        for input in "$set" "$set-mixed"; do
            ran=$((ran + 1))
            if [ "$input" = "$set" ]; then
                "$exe" "${a[@]}" "$tmp/$input" >"$tmp/sums.json"
            else
                "$exe" "${a[@]}" "$tmp/$input" tests/data/ranks/$set/rank-[13579].json.gz >"$tmp/sums.json"
            fi
            if ! python3 tests/cli/check_summary_report.py "$tmp/traces.json" "$tmp/sums.json"; then
                echo "FAIL $args: $input differs from the traces"
                failed=$((failed + 1))
            fi
        done
    done
done

# several traces are reported rank by rank (two at most in memory); these goldens were written
# by the full-trace path before it, and must stay byte for byte
check_golden report-ranks-r4.table report tests/data/ranks/r4
check_golden report-ranks-r8-limit-0.json report --format json --limit 0 tests/data/ranks/r8
check_golden summary-report-r4.table report "$tmp/r4"
check_golden summary-comm-r4.table comm "$tmp/r4"
# summaries of minor 0 (without the GPUs, gaps, copies and series): the report they gave then
check_golden summary-report-r4-minor0.table report tests/data/gsum/r4-minor0

# --html from summaries: the page on the traces, but for the kernel and copy tables (no medians
# or deviations); from minor-0 summaries, a page that says what they do not hold
ran=$((ran + 1))
"$exe" report --html "$tmp/traces.html" tests/data/ranks/r4 2>/dev/null
if ! "$exe" report --html "$tmp/sums.html" "$tmp/r4" 2>/dev/null ||
    ! python3 - "$tmp/traces.html" "$tmp/sums.html" <<'PY'; then
import re, sys
pages = [open(p).read() for p in sys.argv[1:]]
tables = re.compile(r'<section id="(kernels|copies)">.*?</section>', re.S)
sys.exit(0 if tables.sub("", pages[0]) == tables.sub("", pages[1]) else 1)
PY
    echo "FAIL report --html on summaries differs from the page on the traces"
    failed=$((failed + 1))
fi
ran=$((ran + 1))
if ! "$exe" report --html "$tmp/minor0.html" tests/data/gsum/r4-minor0 2>/dev/null ||
    ! python3 tests/html/check_html.py "$tmp/minor0.html" \
        --text "Not in the rank summaries (.gsum) this page was written from: the GPU list." >/dev/null; then
    echo "FAIL report --html on minor-0 summaries"
    failed=$((failed + 1))
fi
check_error 2 comm --hta "$tmp/r4"
finish
