#!/bin/bash
# gpuscope report --html as a browser sees it: headless Chromium loads the page of the bundled
# example and of a 4-rank profile with no console message (no error, no blocked request: the
# page's Content-Security-Policy would report any script or fetch), its DOM holds the charts, and
# the light and dark screenshots (tests/html/screenshot.sh) come out in their palettes.
# Skipped (77) without chromium.
set -u
exe=${1:?usage: test_report_html_chromium.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
browser=${CHROMIUM:-chromium}
command -v "$browser" >/dev/null || { echo "skip: no $browser (Debian: apt-get install chromium)"; exit 77; }
golden=tests/cli/golden
. tests/cli/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir "$tmp/ranks"
for r in 0 1 2 3; do
    python3 tests/html/gen_steps.py --steps 40 --rank $r --world-size 4 -o "$tmp/ranks/rank$r.json"
done
"$exe" report --html "$tmp/train.html" examples/train.json.gz 2>/dev/null || fail "report train"
"$exe" report --html "$tmp/ranks.html" "$tmp/ranks" 2>/dev/null || fail "report ranks"

# dom PAGE CHARTS: the rendered DOM has the sections and CHARTS charts; no console message.
dom() {
    local page=$1 want=$2 profile got
    ran=$((ran + 1))
    profile=$(mktemp -d)
    timeout 120 "$browser" --headless --disable-gpu --no-sandbox --user-data-dir="$profile" \
        --enable-logging=stderr --v=0 --dump-dom "file://$page" >"$page.dom" 2>"$page.log"
    rm -rf "$profile"
    got=$(grep -o '<svg class="chart"' "$page.dom" | wc -l)
    [ "$got" -eq "$want" ] || fail "$page: $got charts in the DOM, expected $want"
    for id in verdict profiled steps gpu memory idle kernels ops copies rules; do
        grep -q "<section id=\"$id\">" "$page.dom" || fail "$page: no section $id in the DOM"
    done
    grep -q '</html>' "$page.dom" || fail "$page: the DOM dump is cut short"
    if grep -Eq ':CONSOLE|Uncaught|Content Security Policy' "$page.log"; then
        fail "$page: console messages:"
        grep -E ':CONSOLE|Uncaught|Content Security Policy' "$page.log" | head -5
    fi
}
dom "$tmp/train.html" 3
dom "$tmp/ranks.html" 14

# Screenshots in both palettes: the page's background is white in light and dark in dark mode,
# and the browser said nothing on its console while drawing them.
ran=$((ran + 1))
if tests/html/screenshot.sh "$tmp/train.html" "$tmp/shot/train" 1600 >/dev/null; then
    light=$(python3 tests/html/png_pixel.py "$tmp/shot/train-light.png" 4 4)
    dark=$(python3 tests/html/png_pixel.py "$tmp/shot/train-dark.png" 4 4)
    [ "$light" = "255 255 255" ] || fail "light screenshot background is $light, not white"
    # --bg of the dark palette is #0d1117.
    [ "$dark" = "13 17 23" ] || fail "dark screenshot background is $dark, not #0d1117"
    if grep -Eq ':CONSOLE|Uncaught' "$tmp/shot/train-light.log" "$tmp/shot/train-dark.log"; then
        fail "console messages while taking the screenshots"
    fi
else
    fail "tests/html/screenshot.sh"
fi
finish
