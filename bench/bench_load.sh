#!/usr/bin/env bash
# gpuscope vs HTA and TraceLens on one large trace, in one run.
#
#   bench/bench_load.sh [options]
#
# 1. builds gpuscope in Release (build-bench/),
# 2. installs HTA (PyPI HolisticTraceAnalysis, else traceinsight) and AMD's
#    TraceLens (from its GitHub repository, or --tracelens-src) into venvs
#    under the scratch dir, and GNU time if missing,
# 3. makes the big input if missing (bench/make_big_trace.py: ~500 MB of JSON
#    from time-shifted copies of a real trace, plus its .gz),
# 4. measures `gpuscope report BIG` (R times), HTA's load of BIG and
#    TraceLens's load and report of BIG (once each), and the floors `wc -l BIG`
#    and `zcat BIG.gz` (R times), for the .json and the .json.gz, and prints
#    one table with the ratios, whether the target (>=20x faster than HTA,
#    <=1/4 of its memory) is met, and each tool's version and command line.
#
# Options:
#   -r N            gpuscope (and wc -l, zcat) runs per input (default 3)
#   -R N            HTA runs per input (default 1; 0 skips HTA)
#   -T N            TraceLens runs per input (default 1; 0 skips TraceLens)
#   --tracelens-src DIR  install TraceLens from this checkout (when github.com
#                   cannot be reached; not PyPI's "TraceLens", another project)
#   --mem-limit-mb MB  address-space cap for each HTA and TraceLens run
#                   (default 16000; a run over it fails and is shown FAILED)
#   --no-gz         measure the .json only
#   --target-mb MB  size of the big input (default 500)
#   --source FILE   real trace to repeat (default ../shared/traces/hta/df_index_resolver/...)
#   --scratch DIR   scratch dir for venv, input, log (default $GPUSCOPE_BENCH_DIR or /tmp/gpuscope-bench)
#   --rebuild-input rebuild the big input even if it exists
#   --gpuscope BIN  use this binary instead of building one
#   --build-dir DIR build directory (default build-bench, in the repo root)
# stdout gets only the report (paste it into a note); progress goes to stderr,
# everything else to SCRATCH/bench.log.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
SCRATCH="${GPUSCOPE_BENCH_DIR:-/tmp/gpuscope-bench}"
GS_REPEAT=3
HTA_REPEAT=1
TL_REPEAT=1
TL_SRC=""
MEM_LIMIT_MB=16000
GZ=1
TARGET_MB=500
SOURCE="$REPO/../shared/traces/hta/df_index_resolver/df_index_resolver.json.gz"
REBUILD_INPUT=0
GPUSCOPE_BIN=""
BUILD_DIR="$REPO/build-bench"

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit "${1:-0}"; }
while [ $# -gt 0 ]; do
  case "$1" in
    -r) GS_REPEAT="$2"; shift 2 ;;
    -R) HTA_REPEAT="$2"; shift 2 ;;
    -T) TL_REPEAT="$2"; shift 2 ;;
    --tracelens-src) TL_SRC="$2"; shift 2 ;;
    --mem-limit-mb) MEM_LIMIT_MB="$2"; shift 2 ;;
    --no-gz) GZ=0; shift ;;
    --target-mb) TARGET_MB="$2"; shift 2 ;;
    --source) SOURCE="$2"; shift 2 ;;
    --scratch) SCRATCH="$2"; shift 2 ;;
    --rebuild-input) REBUILD_INPUT=1; shift ;;
    --gpuscope) GPUSCOPE_BIN="$2"; shift 2 ;;
    --build-dir) BUILD_DIR="$2"; shift 2 ;;
    -h|--help) usage 0 ;;
    *) echo "bench_load.sh: unknown option $1" >&2; usage 2 >&2 ;;
  esac
done

mkdir -p "$SCRATCH"
SCRATCH="$(cd "$SCRATCH" && pwd)"
case "$SCRATCH/" in "$REPO"/*) echo "bench_load.sh: scratch dir must be outside the repo" >&2; exit 2 ;; esac
LOG="$SCRATCH/bench.log"
: >"$LOG"
say() { echo "[bench] $*" >&2; }
die() { echo "bench_load.sh: $*" >&2; echo "(log: $LOG)" >&2; exit 1; }

APT_UPDATED=0
apt_install() {  # apt_install PKG...: Debian packages, as root or through sudo
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  command -v apt-get >/dev/null || die "need $* but apt-get is not available; install them by hand"
  if [ "$APT_UPDATED" -eq 0 ]; then
    $sudo apt-get update >>"$LOG" 2>&1 || die "apt-get update failed"
    APT_UPDATED=1
  fi
  say "apt-get install $*"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "$@" >>"$LOG" 2>&1 \
    || die "apt-get install $* failed"
}

ensure_tools() {
  [ -x /usr/bin/time ] || apt_install time
  command -v python3 >/dev/null || apt_install python3
  command -v cmake >/dev/null || apt_install cmake
}

# HTA in its own venv under the scratch dir (HTA pins recent pandas/numpy/plotly;
# keep them away from the system Python).
HTA_VENV="$SCRATCH/hta-venv"
HTA_PY="$HTA_VENV/bin/python"
ensure_hta() {
  if [ -x "$HTA_PY" ] && "$HTA_PY" -c 'import hta.trace_analysis' >/dev/null 2>&1; then
    return 0
  fi
  say "installing HTA into $HTA_VENV (a few minutes)"
  rm -rf "$HTA_VENV"
  if ! python3 -m venv "$HTA_VENV" >>"$LOG" 2>&1; then
    rm -rf "$HTA_VENV"
    apt_install python3-venv python3-pip
    /usr/bin/python3 -m venv "$HTA_VENV" >>"$LOG" 2>&1 || die "cannot create a Python venv"
  fi
  "$HTA_VENV/bin/python" -m pip install -q --upgrade pip >>"$LOG" 2>&1 || true
  if ! "$HTA_VENV/bin/python" -m pip install HolisticTraceAnalysis >>"$LOG" 2>&1; then
    say "HolisticTraceAnalysis failed to install; trying traceinsight"
    "$HTA_VENV/bin/python" -m pip install traceinsight >>"$LOG" 2>&1 \
      || die "pip could install neither HolisticTraceAnalysis nor traceinsight"
  fi
  "$HTA_PY" -c 'import hta.trace_analysis' >>"$LOG" 2>&1 || die "HTA installed but does not import"
}

# TraceLens in its own venv too. It is not on PyPI: the PyPI project named
# "TraceLens" is an unrelated one (AI-agent evaluation), so it is installed the
# way its README says, from AMD-AGI/TraceLens on GitHub, or from a checkout of
# that repository (--tracelens-src DIR) where github.com cannot be reached.
# What was installed is recorded in the venv (tracelens-source.txt) for the report.
TL_VENV="$SCRATCH/tracelens-venv"
TL_PY="$TL_VENV/bin/python"
TL_URL="git+https://github.com/AMD-AGI/TraceLens.git"
ensure_tracelens() {
  local from="$TL_URL" rev=""
  if [ -n "$TL_SRC" ]; then
    [ -f "$TL_SRC/setup.py" ] && [ -d "$TL_SRC/TraceLens" ] \
      || die "--tracelens-src $TL_SRC: not a TraceLens checkout (no setup.py and TraceLens/)"
    from="$(cd "$TL_SRC" && pwd)"
    rev="$(git -C "$from" rev-parse HEAD 2>/dev/null || true)"
  fi
  if [ -x "$TL_PY" ] && grep -qxF "source: $from" "$TL_VENV/tracelens-source.txt" 2>/dev/null \
     && "$TL_PY" -c 'import TraceLens.Reporting.generate_perf_report_pytorch' >/dev/null 2>&1; then
    return 0
  fi
  say "installing TraceLens from $from into $TL_VENV (a few minutes)"
  rm -rf "$TL_VENV"
  if ! python3 -m venv "$TL_VENV" >>"$LOG" 2>&1; then
    rm -rf "$TL_VENV"
    apt_install python3-venv python3-pip
    /usr/bin/python3 -m venv "$TL_VENV" >>"$LOG" 2>&1 || die "cannot create a Python venv"
  fi
  "$TL_PY" -m pip install -q --upgrade pip >>"$LOG" 2>&1 || true
  "$TL_PY" -m pip install "$from" >>"$LOG" 2>&1 \
    || die "pip install $from failed (no access to github.com? get a checkout of AMD-AGI/TraceLens and pass --tracelens-src DIR)"
  "$TL_PY" -c 'import TraceLens.Reporting.generate_perf_report_pytorch' >>"$LOG" 2>&1 \
    || die "TraceLens installed but does not import"
  { echo "source: $from"
    [ -z "$rev" ] || echo "commit: $rev"
  } >"$TL_VENV/tracelens-source.txt"
}

build_gpuscope() {
  if [ -n "$GPUSCOPE_BIN" ]; then
    [ -x "$GPUSCOPE_BIN" ] || die "$GPUSCOPE_BIN is not an executable"
    return 0
  fi
  say "building gpuscope (Release) in $BUILD_DIR"
  cmake -S "$REPO" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >>"$LOG" 2>&1 || die "cmake configure failed"
  cmake --build "$BUILD_DIR" -j2 --target gpuscope >>"$LOG" 2>&1 || die "gpuscope build failed"
  GPUSCOPE_BIN="$BUILD_DIR/gpuscope"
}

ensure_tools
build_gpuscope
[ "$HTA_REPEAT" -gt 0 ] && ensure_hta
[ "$TL_REPEAT" -gt 0 ] && ensure_tracelens

BIG="$SCRATCH/big_trace.json"
mk_args=(--source "$SOURCE" --out "$BIG" --target-mb "$TARGET_MB")
[ "$GZ" -eq 1 ] && mk_args+=(--gzip)
[ "$REBUILD_INPUT" -eq 1 ] && mk_args+=(--force)
if [ "$REBUILD_INPUT" -eq 1 ] || [ ! -f "$BIG.meta.json" ] || [ ! -f "$BIG" ] \
   || { [ "$GZ" -eq 1 ] && [ ! -f "$BIG.gz" ]; }; then
  say "making the big input $BIG"
fi
python3 "$HERE/make_big_trace.py" "${mk_args[@]}" >>"$LOG" 2>&1 || die "make_big_trace.py failed"

# the tool must work before it is timed
"$GPUSCOPE_BIN" report "$SOURCE" >/dev/null 2>>"$LOG" \
  || die "'gpuscope report' fails on $SOURCE; fix that first"

commit="$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo 'no commit')"
[ -z "$(git -C "$REPO" status --porcelain -- src CMakeLists.txt 2>/dev/null)" ] || commit="$commit+dirty"
cc_ver="$(cc --version 2>/dev/null | head -n1)"
build_info="gpuscope: $commit, $( [ "$GPUSCOPE_BIN" = "$BUILD_DIR/gpuscope" ] && echo "Release build, $cc_ver" || echo "binary $GPUSCOPE_BIN")"

say "measuring (gpuscope x$GS_REPEAT, HTA x$HTA_REPEAT, TraceLens x$TL_REPEAT per input; HTA takes about a minute per run, TraceLens several)"
bl_args=(--gpuscope "$GPUSCOPE_BIN" --input "$BIG" -r "$GS_REPEAT" -R "$HTA_REPEAT" -T "$TL_REPEAT"
         --mem-limit-mb "$MEM_LIMIT_MB" --log "$LOG" --build-info "$build_info")
[ "$GZ" -eq 1 ] && bl_args+=(--gz)
[ "$HTA_REPEAT" -gt 0 ] && bl_args+=(--hta-python "$HTA_PY")
[ "$TL_REPEAT" -gt 0 ] && bl_args+=(--tracelens-python "$TL_PY"
                                    --tracelens-source "$(paste -s -d ';' "$TL_VENV/tracelens-source.txt")")
python3 "$HERE/bench_load.py" "${bl_args[@]}"
