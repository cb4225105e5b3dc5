#!/bin/bash
# gpuscope report's roofline per rank: text, JSON, the HTML chart, .gsum, and the far_below_roof
# finding, against counts by hand (tests/cli/check_report_roofline.py).
set -u
exe=${1:?usage: test_report_roofline.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
root=${GS_SHARED_CAPTURES:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/gpu-captures}
exec python3 tests/cli/check_report_roofline.py "$exe" "$root"
