#!/usr/bin/env bash
# Two revisions of gpuscope on the same large trace, in one run: is a change as fast as before,
# in as little memory?
#
#   bench/bench_revisions.sh [options] BASE [NEW]
#
# BASE and NEW are git revisions of this repository (NEW: the work tree as it is, built from the
# checkout, uncommitted changes included). Each is built in Release in the scratch dir (a git
# worktree for BASE), then `gpuscope report BIG` runs R times per revision, the two alternating
# (BASE, NEW, BASE, NEW, ...) so that both see the same machine; the table gives the median and
# spread of the wall time, the median CPU time and peak RSS (GNU time's %M), the ratios NEW/BASE,
# and whether the two outputs are byte-identical. BIG is bench/make_big_trace.py's input (made
# when missing, as bench_load.sh does).
#
# Options:
#   -r N            runs per revision (default 5)
#   --input FILE    the trace (default SCRATCH/big_trace.json)
#   --args "..."    the command after `gpuscope` (default "report"; the input comes last)
#   --scratch DIR   builds, input, log (default $GPUSCOPE_BENCH_DIR or /tmp/gpuscope-bench)
# stdout gets only the table; progress goes to stderr, build output to SCRATCH/revisions.log.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
SCRATCH="${GPUSCOPE_BENCH_DIR:-/tmp/gpuscope-bench}"
RUNS=5
INPUT=""
ARGS="report"

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit "${1:-0}"; }
while [ $# -gt 0 ]; do
  case "$1" in
    -r) RUNS="$2"; shift 2 ;;
    --input) INPUT="$2"; shift 2 ;;
    --args) ARGS="$2"; shift 2 ;;
    --scratch) SCRATCH="$2"; shift 2 ;;
    -h|--help) usage 0 ;;
    -*) echo "bench_revisions.sh: unknown option $1" >&2; usage 2 >&2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] && [ $# -le 2 ] || usage 2 >&2
BASE="$1"
NEW="${2:-}"

mkdir -p "$SCRATCH"
SCRATCH="$(cd "$SCRATCH" && pwd)"
LOG="$SCRATCH/revisions.log"
: >"$LOG"
command -v /usr/bin/time >/dev/null || { echo "bench_revisions.sh: needs GNU time (Debian: time)" >&2; exit 2; }

# build REV DIR: gpuscope of revision REV (empty: the work tree) in DIR/build; prints the binary.
build() {
  local rev="$1" dir="$2" src="$REPO"
  if [ -n "$rev" ]; then
    src="$dir/src"
    rm -rf "$src"
    git -C "$REPO" worktree prune
    git -C "$REPO" worktree add -f --detach "$src" "$rev" >>"$LOG" 2>&1 ||
      { echo "bench_revisions.sh: no revision $rev" >&2; exit 2; }
  fi
  cmake -S "$src" -B "$dir/build" -DCMAKE_BUILD_TYPE=Release >>"$LOG" 2>&1
  cmake --build "$dir/build" -j"$(nproc)" --target gpuscope >>"$LOG" 2>&1 ||
    { echo "bench_revisions.sh: build of ${rev:-the work tree} failed (see $LOG)" >&2; exit 1; }
  echo "$dir/build/gpuscope"
}

echo "building $BASE and ${NEW:-the work tree} (Release) ..." >&2
BIN_BASE="$(build "$BASE" "$SCRATCH/rev-base")"
BIN_NEW="$(build "$NEW" "$SCRATCH/rev-new")"
LABEL_BASE="$(git -C "$REPO" rev-parse --short "$BASE")"
LABEL_NEW="${NEW:+$(git -C "$REPO" rev-parse --short "$NEW")}"
LABEL_NEW="${LABEL_NEW:-$(git -C "$REPO" rev-parse --short HEAD)+tree}"

if [ -z "$INPUT" ]; then
  INPUT="$SCRATCH/big_trace.json"
  [ -f "$INPUT" ] || python3 "$HERE/make_big_trace.py" --out "$INPUT" >&2
fi

echo "running ${RUNS}x2 alternating: gpuscope $ARGS $INPUT" >&2
TIMES="$SCRATCH/revisions.times"
: >"$TIMES"
for i in $(seq 1 "$RUNS"); do
  for side in base new; do
    bin="$BIN_BASE"; [ "$side" = new ] && bin="$BIN_NEW"
    # shellcheck disable=SC2086
    /usr/bin/time -o "$TIMES" -a -f "$side %e %U %S %M" "$bin" $ARGS "$INPUT" \
      >"$SCRATCH/out.$side" 2>>"$LOG" || { echo "bench_revisions.sh: $side run failed" >&2; exit 1; }
  done
done
same="no"
cmp -s "$SCRATCH/out.base" "$SCRATCH/out.new" && same="yes"

python3 - "$TIMES" "$LABEL_BASE" "$LABEL_NEW" "$INPUT" "$ARGS" "$same" <<'EOF'
import os, statistics, sys
times, base, new, path, args, same = sys.argv[1:]
runs = {"base": [], "new": []}
for line in open(times):
    p = line.split()
    if len(p) == 5 and p[0] in runs:
        runs[p[0]].append((float(p[1]), float(p[2]) + float(p[3]), int(p[4]) / 1024))
size = os.path.getsize(path) / 1e6
print(f"input: {path} ({size:.1f} MB); command: gpuscope {args} INPUT; {len(runs['base'])} runs "
      "each, alternating")
print()
print("| revision | wall s (median) | wall spread s | CPU s (median) | peak RSS MB (median) |")
print("|---|---|---|---|---|")
med = {}
for side, label in (("base", base), ("new", new)):
    r = runs[side]
    w = statistics.median(x[0] for x in r)
    c = statistics.median(x[1] for x in r)
    m = statistics.median(x[2] for x in r)
    med[side] = (w, m)
    print(f"| {label} | {w:.2f} | {min(x[0] for x in r):.2f}-{max(x[0] for x in r):.2f} | "
          f"{c:.2f} | {m:.0f} |")
print(f"| **new / base** | **{med['new'][0] / med['base'][0]:.2f}x** time | | | "
      f"**{med['new'][1] / med['base'][1]:.2f}x** memory |")
print()
print(f"outputs byte-identical: {same}")
EOF
