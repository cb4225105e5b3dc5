#!/bin/bash
# Screenshots of a page written by `gpuscope report --html`, in the light and the dark palette, as
# headless Chromium renders it: PREFIX-light.png and PREFIX-dark.png, 1280 px wide.
#
#   gpuscope report --html report.html examples/train.json.gz
#   tests/html/screenshot.sh report.html shots/train [HEIGHT]
#
# The colour scheme is chosen with Blink's preferredColorScheme setting (0 dark, 1 light), which
# is what the page's prefers-color-scheme media query reads. Chromium writes its own log lines on
# stderr; they go to PREFIX-{light,dark}.log for test_report_html_chromium.sh to search.
set -eu
page=${1:?usage: screenshot.sh PAGE.html OUT_PREFIX [HEIGHT]}
prefix=${2:?usage: screenshot.sh PAGE.html OUT_PREFIX [HEIGHT]}
height=${3:-2400}
browser=${CHROMIUM:-chromium}
command -v "$browser" >/dev/null || { echo "screenshot.sh: $browser not found" >&2; exit 77; }
url="file://$(cd "$(dirname "$page")" && pwd)/$(basename "$page")"
mkdir -p "$(dirname "$prefix")"
for scheme in light:1 dark:0; do
    name=${scheme%%:*}
    # A fresh profile each time: nothing cached or remembered between the two renders.
    profile=$(mktemp -d)
    timeout 120 "$browser" --headless --disable-gpu --no-sandbox --hide-scrollbars \
        --user-data-dir="$profile" --enable-logging=stderr --v=0 \
        --blink-settings=preferredColorScheme=${scheme#*:} \
        --window-size=1280,"$height" --screenshot="$prefix-$name.png" "$url" \
        >/dev/null 2>"$prefix-$name.log"
    rm -rf "$profile"
    [ -s "$prefix-$name.png" ] || { echo "screenshot.sh: no $prefix-$name.png" >&2; exit 1; }
done
echo "$prefix-light.png $prefix-dark.png"
