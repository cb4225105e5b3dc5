#!/usr/bin/env bash
# README command 1: install what is missing, install gpuscope with pip into .venv/ (the wheel is
# built from this checkout, doc/python.md), and report on the bundled example trace with it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
python3 -m venv .venv
.venv/bin/pip install -q .
echo "gpuscope is installed in .venv/ ('. .venv/bin/activate', or .venv/bin/gpuscope)" >&2
exec .venv/bin/gpuscope report examples/train.json.gz
