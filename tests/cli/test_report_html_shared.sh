#!/bin/bash
# gpuscope report --html on the largest real traces (../shared/traces, MANIFEST.md): each page is
# well-formed and under 2 MB. Skipped (77) when the shared traces are absent.
set -u
exe=${1:?usage: test_report_html_shared.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
root=${GS_SHARED_TRACES:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/traces}
if [ ! -d "$root" ]; then
    echo "skip: no shared traces at $root (set GS_SHARED_TRACES)"
    exit 77
fi
golden=tests/cli/golden
. tests/cli/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The largest by JSON size (MTIA, FLUX and SD3.5 diffusion), the one with the most allocator
# records (df_index_resolver: 216 k), and a 2-rank set.
for t in hta/mtia_trace_single_rank/mtia_rank_0.json.gz \
    tracelens/inference/xdit_flux.1_aiter_sage/profile_trace_rank_0.json.gz \
    tracelens/inference/xdit_sd_3.5/profile_trace_rank_0.json.gz \
    hta/df_index_resolver/df_index_resolver.json.gz \
    hta/trace_filter; do
    [ -e "$root/$t" ] || { echo "note: $t is not in $root"; continue; }
    ran=$((ran + 1))
    name=$(echo "$t" | tr '/' '_')
    if ! "$exe" report --html "$tmp/$name.html" "$root/$t" 2>"$tmp/err"; then
        echo "FAIL $t: report --html failed:"
        cat "$tmp/err"
        failed=$((failed + 1))
        continue
    fi
    python3 tests/html/check_html.py "$tmp/$name.html" --max-bytes 2000000 ||
        failed=$((failed + 1))
done
finish
