#!/usr/bin/env bash
# Makes, once, the virtual environment with PyTorch that tests/cli/test_torch_hooks.sh and
# bench/python_hooks.sh run their training loops in, and prints the path of its python.
# It lives outside the work tree, so that every build and a fresh clone (CI) reuse it:
# $GPUSCOPE_TORCH_VENV, default ~/.cache/gpuscope/torch-venv; GPUSCOPE_TORCH_VENV=none skips.
# pip installs `torch` as configured on this machine; GPUSCOPE_TORCH_PIP_ARGS adds arguments, e.g.
# the --index-url of PyTorch's CPU-only wheels (a much smaller download than the CUDA build,
# which runs on the CPU all the same). Exits 77 when PyTorch cannot be installed.
set -uo pipefail
venv=${GPUSCOPE_TORCH_VENV:-$HOME/.cache/gpuscope/torch-venv}
[ "$venv" = none ] && { echo "GPUSCOPE_TORCH_VENV=none" >&2; exit 77; }
mkdir -p "$(dirname "$venv")" || exit 77
# One installer at a time (tests may start together); the others wait and reuse its venv.
exec 9>"$venv.lock"
flock 9
if "$venv/bin/python" -c 'import torch, numpy' >/dev/null 2>&1; then
    echo "$venv/bin/python"
    exit 0
fi
echo "torch_venv: installing PyTorch into $venv (once; several GB for the CUDA build)" >&2
if ! python3 -m venv "$venv" >&2; then
    echo "torch_venv: python3 -m venv failed (Debian: python3-venv)" >&2
    exit 77
fi
# shellcheck disable=SC2086 # the extra arguments are words
if ! "$venv/bin/pip" install -q --disable-pip-version-check ${GPUSCOPE_TORCH_PIP_ARGS:-} torch numpy >&2 ||
    ! "$venv/bin/python" -c 'import torch' >/dev/null 2>&1; then
    echo "torch_venv: PyTorch could not be installed into $venv" >&2
    exit 77
fi
echo "$venv/bin/python"
