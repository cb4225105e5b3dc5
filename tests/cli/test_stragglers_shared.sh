#!/bin/bash
# gpuscope stragglers on the real 2-rank sets of ../shared/traces: tokenomics (one all-reduce per
# rank, same host: ends 1.45 us apart, rank 0 arrived 11.257 ms after rank 1, too few collectives
# to call a straggler) and hta/trace_filter (sampled ranks 0 and 1 of 128 with only send/recv
# kernels, which pair two peers and are never matched: nothing to align). Golden output; skipped
# (77) when the shared traces are absent.
set -u
exe=${1:?usage: test_stragglers_shared.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
root=${GS_SHARED_TRACES:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/traces}
if [ ! -d "$root/tokenomics" ] || [ ! -d "$root/hta/trace_filter" ]; then
    echo "skip: no shared traces at $root (set GS_SHARED_TRACES)"
    exit 77
fi
golden=tests/cli/golden
. tests/cli/lib.sh
# The golden files hold the paths as given: run from the shared folder.
exe=$(cd "$(dirname "$exe")" && pwd)/$(basename "$exe")
golden=$(pwd)/$golden
cd "$root" || exit 1
check_golden stragglers-tokenomics.table stragglers --collectives tokenomics/trace0.json \
    tokenomics/trace1.json
check_golden stragglers-trace-filter.json stragglers --format json hta/trace_filter
finish
