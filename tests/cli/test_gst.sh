#!/bin/bash
# Golden tests of .gst input: tests/data/gst/sample.gst (written by the real writer through
# tests/gen/make_gst_seeds.c; its timeline is tests/gen/gst_sample.h: 2 steps of 1 ms with NVTX
# ranges "forward" (push/pop, domain my_domain) and "backward" (start/end), 6 kernels, 4 copies,
# 2 memsets, 12 API calls) through report and the views, then truncated, gzipped and corrupt copies.
#
#   bash tests/cli/test_gst.sh path/to/gpuscope            # run from the source root
#   GS_UPDATE_GOLDEN=1 bash tests/cli/test_gst.sh ...       # rewrite the goldens (then review!)
set -u
exe=${1:?usage: test_gst.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
fixture=tests/data/gst/sample.gst
golden=tests/cli/golden
source tests/cli/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check_golden gst-report.table report "$fixture"
check_golden gst-kernels.table kernels "$fixture"
check_golden gst-ops.table ops "$fixture"
check_golden gst-api.table api "$fixture"
check_golden gst-memcpy.table memcpy "$fixture"
check_golden gst-kernels.json kernels --format json "$fixture"

# The format is told by the magic bytes, not the name; gzip is undone first: the same table (the
# note on stderr names each copy).
cp "$fixture" "$tmp/renamed.json"
gzip -c "$fixture" >"$tmp/sample.gst.gz"
for copy in "$tmp/renamed.json" "$tmp/sample.gst.gz"; do
    ran=$((ran + 1))
    cmp -s <("$exe" kernels "$fixture" 2>/dev/null) <("$exe" kernels "$copy" 2>/dev/null) ||
        { echo "FAIL kernels of $copy differ from the fixture's"; failed=$((failed + 1)); }
done

# A killed target: the file stops inside a chunk. What was flushed before it is kept.
head -c 2000 "$fixture" >"$tmp/torn.gst"
check_golden gst-torn-kernels.table kernels "$tmp/torn.gst"

# Corrupt: a bad chunk magic right after the header, a newer major version, a cut header.
python3 - "$fixture" "$tmp" <<'PY'
import sys
data = bytearray(open(sys.argv[1], 'rb').read())
bad = bytearray(data); bad[32] ^= 0xff
open(sys.argv[2] + '/bad_chunk.gst', 'wb').write(bad)
v2 = bytearray(data); v2[8] = 2
open(sys.argv[2] + '/v2.gst', 'wb').write(v2)
open(sys.argv[2] + '/cut_header.gst', 'wb').write(data[:20])
PY
check_error 3 kernels "$tmp/bad_chunk.gst"
check_error 3 kernels "$tmp/v2.gst"
check_error 3 kernels "$tmp/cut_header.gst"
msg=$("$exe" kernels "$tmp/bad_chunk.gst" 2>&1)
ran=$((ran + 1))
if [ "$msg" != "gpuscope: $tmp/bad_chunk.gst: byte 32: corrupt .gst file: bad chunk magic" ]; then
    echo "FAIL bad chunk message: $msg"
    failed=$((failed + 1))
fi
finish
