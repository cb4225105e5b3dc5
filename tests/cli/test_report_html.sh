#!/bin/bash
# gpuscope report --html: the page's structure on known traces (tests/html/check_html.py), escaping
# of hostile names, a 10 000-step trace that stays small, the command line's contract (one line on
# stderr, nothing on stdout) and its errors. The browser's view is test_report_html_chromium.sh;
# the size on the largest real traces is test_report_html_shared.sh.
set -u
exe=${1:?usage: test_report_html.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
golden=tests/cli/golden
. tests/cli/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check=tests/html/check_html.py
gen=tests/html/gen_steps.py

# page NAME CHECK-OPTIONS -- REPORT-ARGS...: report --html writes the page, says so in one line on
# stderr and nothing on stdout, and the page passes check_html.py with the options.
page() {
    local name=$1 opts=() out rc
    shift
    while [ "$1" != -- ]; do opts+=("$1"); shift; done
    shift
    ran=$((ran + 1))
    out=$("$exe" report --html "$tmp/$name.html" "$@" 2>"$tmp/$name.all")
    rc=$?
    # Besides the one line, a trace that lost events says so (the page says it too).
    grep -Ev '^gpuscope: .*: [0-9]+ events? skipped \(' "$tmp/$name.all" >"$tmp/$name.err"
    if [ $rc -ne 0 ] || [ -n "$out" ] || [ "$(wc -l <"$tmp/$name.err")" -ne 1 ] ||
        ! grep -Eq "^gpuscope: wrote $tmp/$name.html \([0-9.]+ [kM]?B\)$" "$tmp/$name.err"; then
        echo "FAIL $name: exit $rc, stdout '$out', stderr:"
        cat "$tmp/$name.err"
        failed=$((failed + 1))
        return
    fi
    python3 "$check" "$tmp/$name.html" "${opts[@]}" || failed=$((failed + 1))
}

# The bundled example: 12 steps (one warm-up), allocator records, 3 charts.
page train --svgs 3 --step-bars 12 --text "Data loading" --text "peak 1.4 GB allocated" \
    -- examples/train.json.gz

# A .gst from gpuscope run carries NVML samples: the utilization chart draws them.
page gst --has-class nvml --text "3 events skipped (3 dropped by the collector)." \
    -- tests/data/gst/sample.gst

# Names with markup, in the kernel, the operator and the file name, reach the page as text.
hostile="$tmp/evil<script>alert(1)<&>.json"
python3 "$gen" --steps 30 --hostile -o "$hostile"
page hostile --step-bars 30 \
    --text "<script>alert('kernel')</script> & \"quoted\" <img src=x onerror=alert(1)>" \
    --text "aten::<b>bold</b>&amp;op" --text "evil<script>alert(1)<&>.json" \
    -- "$hostile"
ran=$((ran + 1))
if grep -Eiq '<(script|img|b>bold)' "$tmp/hostile.html"; then
    echo "FAIL hostile: markup from the trace is in the page unescaped"
    grep -Eio '.{20}<(script|img|b>bold).{20}' "$tmp/hostile.html" | head -3
    failed=$((failed + 1))
fi

# 10 000 steps: bucketed to at most 240 bars (239 of 42 steps), and the page stays small.
python3 "$gen" --steps 10000 -o "$tmp/steps10k.json.gz"
page steps10k --step-bars 239 --max-step-bars 240 --max-bytes 400000 -- "$tmp/steps10k.json.gz"

# Four ranks: the ranks side by side (2 charts) and each rank's 3 charts.
mkdir "$tmp/ranks"
for r in 0 1 2 3; do
    python3 "$gen" --steps 50 --rank $r --world-size 4 -o "$tmp/ranks/rank$r.json"
done
page ranks --svgs 14 --section ranks --text "the slowest, rank 3" -- "$tmp/ranks"
# Rank 3's steps are 16 % longer than rank 0's, far beyond their noise: it is drawn as the slowest
# (red), named in the legend, and the caption gives the interval of the test gpuscope diff uses.
ran=$((ran + 1))
grep -q 'rankbar slow" d="M' "$tmp/ranks.html" &&
    grep -q "beyond the noise of their steps (95 % CI of the difference of median steps" "$tmp/ranks.html" ||
    { echo "FAIL ranks: the significantly slowest rank is not emphasised"; failed=$((failed + 1)); }
# tests/data/ranks/r8: collectives hold every rank to the same step time (0.1 % apart): no rank is
# drawn as the slowest, and the caption says the difference is within noise.
page r8 --section ranks --text "within the noise of their steps" -- tests/data/ranks/r8
ran=$((ran + 1))
grep -q 'rankbar slow" d=""' "$tmp/r8.html" && ! grep -q "slowest rank, slower" "$tmp/r8.html" ||
    { echo "FAIL r8: a rank is emphasised as the slowest for a difference within noise"; failed=$((failed + 1)); }
# --rank keeps one: no comparison.
page rank2 --svgs 3 --text "rank2.json" -- --rank 2 "$tmp/ranks"

# Options with values are not taken for --html's, and --html=FILE works.
ran=$((ran + 1))
if ! "$exe" report --limit 3 --step 'ProfilerStep#[0-9]+' --html="$tmp/eq.html" \
    examples/train.json.gz 2>/dev/null || [ ! -s "$tmp/eq.html" ]; then
    echo "FAIL: report --html=FILE with other options"
    failed=$((failed + 1))
fi

check_error 2 report --html
check_error 2 report --html "$tmp/x.html" --format json examples/train.json.gz
check_error 4 report --html "$tmp/no/such/dir/x.html" examples/train.json.gz
check_error 3 report --html "$tmp/x.html" "$tmp/missing.json"

finish
