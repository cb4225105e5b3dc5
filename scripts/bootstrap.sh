#!/usr/bin/env bash
# Installs the Debian packages gpuscope needs to build and test, when they are missing.
# Safe to run again: it installs nothing when everything is present.
set -euo pipefail

# sqlite3 and chromium are for tests (the SQLite export queried with the CLI, the HTML report
# opened headless); the -dev packages and pkg-config for the build; python3-venv for the wheel
# (scripts/quickstart.sh, scripts/wheel.sh and its test make virtual environments).
packages=(build-essential cmake clang libclang-rt-dev zlib1g-dev libisal-dev python3 python3-venv time
          pkg-config libsqlite3-dev sqlite3 libmicrohttpd-dev chromium)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "bootstrap: installing ${missing[*]}" >&2
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
