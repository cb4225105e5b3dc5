#!/usr/bin/env bash
# Multi-rank analyses at scale: a 64-rank profile made from one real rank,
# analysed end to end, on the full traces and through per-rank summaries.
#
#   bench/bench_ranks.sh [options]
#
# 1. builds gpuscope in Release (build-bench/),
# 2. makes the profile if missing (bench/make_rank_profile.py: N copies of a
#    real Kineto rank with distributedInfo rewritten, per-rank clock offsets
#    of up to +-50 ms and one rank arriving late at collectives), under the
#    scratch dir,
# 3. measures, R runs each (wall time median and min-max, peak RSS from
#    /usr/bin/time -v "Maximum resident set size"):
#      a. gpuscope report on the largest single rank
#      b. gpuscope report on the N-rank folder
#      c. gpuscope stragglers and gpuscope comm on the folder
#      d. gpuscope summarize of each rank (J at a time, xargs -P), then
#         stragglers, report and comm on the N .gsum files (report and comm
#         print "not supported yet" when they refuse .gsum input), and
#         stragglers (report, comm) on rank 0's .gsum plus the other ranks'
#         traces (the path that reduces traces rank by rank, taken when any
#         input is a .gsum),
#    and prints one table with the ratio peak RSS(N-rank report) / peak
#    RSS(largest single rank report) against the target (within 2x).
#
# Options:
#   -r N              runs per measurement (default 3)
#   -j J              summarize jobs at once (default 2)
#   --ranks N         ranks in the profile (default 64)
#   --source FILE     real rank to copy (default ../shared/traces/hta/df_index_resolver/...)
#   --slow-rank R     rank that arrives late at collectives (default 37; -1: none)
#   --slow-us US      how late, at most half of each kernel (default 200)
#   --offset-ms MS    clock offsets drawn from +-MS (default 50)
#   --scratch DIR     scratch dir (default $GPUSCOPE_BENCH_DIR or /tmp/gpuscope-bench)
#   --rebuild-input   rebuild the profile even if it exists
#   --gpuscope BIN    use this binary instead of building one
#   --build-dir DIR   build directory (default build-bench, in the repo root)
# stdout gets only the report (paste it into a note); progress goes to stderr,
# tool output to SCRATCH/bench_ranks.log. Exit status: 0 measured (whether or
# not the target is met), 1 a step failed, 2 usage.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
SCRATCH="${GPUSCOPE_BENCH_DIR:-/tmp/gpuscope-bench}"
RUNS=3
JOBS=2
RANKS=64
SOURCE="$REPO/../shared/traces/hta/df_index_resolver/df_index_resolver.json.gz"
SLOW_RANK=37
SLOW_US=200
OFFSET_MS=50
REBUILD_INPUT=0
GPUSCOPE_BIN=""
BUILD_DIR="$REPO/build-bench"

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit "${1:-0}"; }
need_arg() { [ $# -ge 2 ] || { echo "bench_ranks.sh: $1 needs a value" >&2; usage 2 >&2; }; }
while [ $# -gt 0 ]; do
  case "$1" in
    -r) need_arg "$@"; RUNS="$2"; shift 2 ;;
    -j) need_arg "$@"; JOBS="$2"; shift 2 ;;
    --ranks) need_arg "$@"; RANKS="$2"; shift 2 ;;
    --source) need_arg "$@"; SOURCE="$2"; shift 2 ;;
    --slow-rank) need_arg "$@"; SLOW_RANK="$2"; shift 2 ;;
    --slow-us) need_arg "$@"; SLOW_US="$2"; shift 2 ;;
    --offset-ms) need_arg "$@"; OFFSET_MS="$2"; shift 2 ;;
    --scratch) need_arg "$@"; SCRATCH="$2"; shift 2 ;;
    --rebuild-input) REBUILD_INPUT=1; shift ;;
    --gpuscope) need_arg "$@"; GPUSCOPE_BIN="$2"; shift 2 ;;
    --build-dir) need_arg "$@"; BUILD_DIR="$2"; shift 2 ;;
    -h|--help) usage 0 ;;
    *) echo "bench_ranks.sh: unknown option $1" >&2; usage 2 >&2 ;;
  esac
done
is_uint() { case "$1" in ''|*[!0-9]*) return 1 ;; esac; }
is_uint "$RUNS" && [ "$RUNS" -ge 1 ] || { echo "bench_ranks.sh: -r wants a count >= 1" >&2; exit 2; }
is_uint "$JOBS" && [ "$JOBS" -ge 1 ] || { echo "bench_ranks.sh: -j wants a count >= 1" >&2; exit 2; }
is_uint "$RANKS" && [ "$RANKS" -ge 2 ] || { echo "bench_ranks.sh: --ranks wants a count >= 2" >&2; exit 2; }
[ "$SLOW_RANK" = "-1" ] || { is_uint "$SLOW_RANK" && [ "$SLOW_RANK" -lt "$RANKS" ]; } \
  || { echo "bench_ranks.sh: --slow-rank wants -1 or a rank below --ranks" >&2; exit 2; }
[ -f "$SOURCE" ] || { echo "bench_ranks.sh: source trace $SOURCE not found (../shared/traces missing?)" >&2; exit 1; }

mkdir -p "$SCRATCH"
SCRATCH="$(cd "$SCRATCH" && pwd)"
case "$SCRATCH/" in "$REPO"/*) echo "bench_ranks.sh: scratch dir must be outside the repo" >&2; exit 2 ;; esac
LOG="$SCRATCH/bench_ranks.log"
: >"$LOG"
say() { echo "[bench_ranks] $*" >&2; }
die() { echo "bench_ranks.sh: $*" >&2; echo "(log: $LOG)" >&2; exit 1; }

ensure_tools() {
  local missing=()
  [ -x /usr/bin/time ] || missing+=(time)
  command -v python3 >/dev/null || missing+=(python3)
  command -v xargs >/dev/null || missing+=(findutils)
  [ -n "$GPUSCOPE_BIN" ] || command -v cmake >/dev/null || missing+=(cmake)
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  command -v apt-get >/dev/null || die "need ${missing[*]} but apt-get is not available; install them by hand"
  say "apt-get install ${missing[*]}"
  { $sudo apt-get update && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"; } \
    >>"$LOG" 2>&1 || die "apt-get install ${missing[*]} failed"
}

build_gpuscope() {
  if [ -n "$GPUSCOPE_BIN" ]; then
    [ -x "$GPUSCOPE_BIN" ] || die "$GPUSCOPE_BIN is not an executable"
    BUILD_NOTE="binary $GPUSCOPE_BIN"
    return 0
  fi
  say "building gpuscope (Release) in $BUILD_DIR"
  cmake -S "$REPO" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >>"$LOG" 2>&1 || die "cmake configure failed"
  BUILD_NOTE="Release build, $(cc --version 2>/dev/null | head -n1)"
  if ! cmake --build "$BUILD_DIR" -j2 --target gpuscope >>"$LOG" 2>&1; then
    # gcc 12 at -O2 sees false "may be used uninitialized" warnings that -Werror turns
    # into errors; retry without making that one warning an error.
    say "build failed; retrying with -Wno-error=maybe-uninitialized"
    cmake -S "$REPO" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_C_FLAGS=-Wno-error=maybe-uninitialized >>"$LOG" 2>&1 || die "cmake configure failed"
    cmake --build "$BUILD_DIR" -j2 --target gpuscope >>"$LOG" 2>&1 || die "gpuscope build failed"
    BUILD_NOTE="$BUILD_NOTE, -Wno-error=maybe-uninitialized"
  fi
  GPUSCOPE_BIN="$BUILD_DIR/gpuscope"
}

ensure_tools
build_gpuscope
G="$GPUSCOPE_BIN"

# ---- the profile ----------------------------------------------------------
PROFILE="$SCRATCH/ranks$RANKS"
mk_args=(--source "$SOURCE" --out "$PROFILE" --ranks "$RANKS" --slow-rank "$SLOW_RANK"
         --slow-us "$SLOW_US" --offset-ms "$OFFSET_MS" --jobs "$JOBS")
[ "$REBUILD_INPUT" -eq 1 ] && mk_args+=(--force)
say "making (or reusing) the $RANKS-rank profile $PROFILE"
python3 "$HERE/make_rank_profile.py" "${mk_args[@]}" >"$SCRATCH/profile.json" 2>>"$LOG" \
  || die "make_rank_profile.py failed"
ls "$PROFILE"/rank-*.json.gz >/dev/null 2>&1 || die "no rank files in $PROFILE"

# the largest rank file (they are copies of one rank, so any of them, but measure the biggest)
LARGEST="$(ls -S "$PROFILE"/rank-*.json.gz | head -n1)"

"$G" report "$LARGEST" >/dev/null 2>>"$LOG" || die "'gpuscope report' fails on $LARGEST; fix that first"

# ---- measuring ------------------------------------------------------------
TMPD="$SCRATCH/bench_ranks.tmp"
rm -rf "$TMPD"
mkdir -p "$TMPD"

# one_run OUTFILE CMD...: runs CMD under /usr/bin/time -v, stdout to /dev/null,
# stderr to the log; appends "wall_s rss_kb cpu_s" to OUTFILE; returns CMD's status.
one_run() {
  local out="$1"; shift
  local tf="$TMPD/time.$$"
  local rc=0
  /usr/bin/time -v -o "$tf" "$@" >/dev/null 2>>"$LOG" || rc=$?
  [ "$rc" -eq 0 ] || { echo "command failed (exit $rc): $*" >>"$LOG"; return "$rc"; }
  awk -F': ' '
    /Elapsed \(wall clock\) time/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; wall = s }
    /Maximum resident set size/ { rss = $2 }
    /User time \(seconds\)/ || /System time \(seconds\)/ { cpu += $2 }
    END { printf "%.3f %d %.3f\n", wall, rss, cpu }' "$tf" >>"$out"
}

# stats FILE COLUMN: "median min max" of a column of numbers
stats() {
  awk -v c="$2" '{ print $c }' "$1" | sort -g | awk '
    { v[NR] = $1 }
    END { if (NR == 0) { print "- - -"; exit }
          m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
          printf "%s %s %s\n", m, v[1], v[NR] }'
}

ROWS="$TMPD/rows"
: >"$ROWS"
# row LABEL INPUT RUNS FILE [RSS_KB]: one table row from a file of "wall rss_kb cpu" lines
# (RSS_KB replaces the median RSS; "-" for none)
mb() { awk -v k="$1" 'BEGIN { if (k == "-") print "-"; else printf "%\047.0f", k / 1024 }'; }
row() {
  local label="$1" input="$2" runs="$3" f="$4" rss="${5:-}"
  local wm wmin wmax rm cm
  read -r wm wmin wmax < <(stats "$f" 1)
  read -r rm _ _ < <(stats "$f" 2)
  read -r cm _ _ < <(stats "$f" 3)
  [ -n "$rss" ] || rss="$rm"
  printf '| %s | %s | %s | %.2f | %.2f-%.2f | %.2f | %s |\n' "$label" "$input" "$runs" "$wm" "$wmin" "$wmax" \
    "$cm" "$(mb "$rss")" >>"$ROWS"
}
median_rss_kb() { stats "$1" 2 | awk '{ print $1 }'; }

# measure NAME CMD...: R runs of CMD
measure() {
  local name="$1"; shift
  local f="$TMPD/$name"
  : >"$f"
  local i
  for ((i = 1; i <= RUNS; i++)); do
    one_run "$f" "$@" || die "$name failed: $* (see the log)"
  done
}

LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"
sync
cat "$PROFILE"/rank-*.json.gz >/dev/null   # warm the page cache: nobody pays for disk reads

say "a. report on the largest single rank (x$RUNS)"
measure single "$G" report "$LARGEST"
say "b. report on the $RANKS-rank folder (x$RUNS)"
measure folder_report "$G" report "$PROFILE"
say "c. stragglers and comm on the folder (x$RUNS each)"
measure folder_stragglers "$G" stragglers "$PROFILE"
measure folder_comm "$G" comm "$PROFILE"

say "d. summarize each rank ($JOBS at a time, x$RUNS), then the analyses on the .gsum files"
GSUM="$SCRATCH/gsum$RANKS"
SUMT="$TMPD/summarize"
: >"$TMPD/sum_total"
: >"$TMPD/sum_rank"
export G GSUM PROFILE LOG SUMT
for ((i = 1; i <= RUNS; i++)); do
  rm -rf "$GSUM" "$SUMT"
  mkdir -p "$GSUM" "$SUMT"
  t0=$(date +%s.%N)
  # one process per rank, as a launcher would start them; each timed on its own
  if ! ls "$PROFILE"/rank-*.json.gz | xargs -P "$JOBS" -I{} sh -c \
      'b=$(basename "$1" .json.gz); /usr/bin/time -v -o "$SUMT/$b.time" "$G" summarize -o "$GSUM/$b.gsum" "$1" >/dev/null 2>>"$LOG"' _ {}; then
    die "gpuscope summarize failed on some rank (see the log)"
  fi
  t1=$(date +%s.%N)
  : >"$TMPD/sum_this"
  for tf in "$SUMT"/*.time; do
    awk -F': ' '
      /Elapsed \(wall clock\) time/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; wall = s }
      /Maximum resident set size/ { rss = $2 }
      /User time \(seconds\)/ || /System time \(seconds\)/ { cpu += $2 }
      END { printf "%.3f %d %.3f\n", wall, rss, cpu }' "$tf" >>"$TMPD/sum_this"
  done
  cat "$TMPD/sum_this" >>"$TMPD/sum_rank"
  # the run's wall time, no RSS (one process per rank: see the per-rank row), CPU of all ranks
  awk -v a="$t0" -v b="$t1" '{ c += $3 } END { printf "%.3f 0 %.3f\n", b - a, c }' \
    "$TMPD/sum_this" >>"$TMPD/sum_total"
done
n_gsum=$(ls "$GSUM"/*.gsum | wc -l)
[ "$n_gsum" -eq "$RANKS" ] || die "expected $RANKS .gsum files in $GSUM, found $n_gsum"
gsum_bytes=$(cat "$GSUM"/*.gsum | wc -c)
# the largest summarize RSS of all ranks and runs
sum_rss_max=$(sort -k2,2n "$TMPD/sum_rank" | tail -n1 | awk '{ print $2 }')

measure gsum_stragglers "$G" stragglers "$GSUM"/*.gsum
# with a .gsum among the inputs, traces are reduced rank by rank (each dropped once
# summarised; report does so for any several traces since ceaedbc, comm and stragglers only
# then): rank 0 as its summary plus the other ranks' traces measures that path
others=()
for f in "$PROFILE"/rank-*.json.gz; do [ "$(basename "$f")" = rank-0.json.gz ] || others+=("$f"); done
measure mixed_stragglers "$G" stragglers "$GSUM/rank-0.gsum" "${others[@]}"
GSUM_REPORT="" GSUM_COMM=""
for cmd in report comm; do
  rc=0
  "$G" "$cmd" "$GSUM"/*.gsum >/dev/null 2>"$TMPD/try_$cmd.err" || rc=$?
  if [ "$rc" -eq 0 ]; then
    measure "gsum_$cmd" "$G" "$cmd" "$GSUM"/*.gsum
    measure "mixed_$cmd" "$G" "$cmd" "$GSUM/rank-0.gsum" "${others[@]}"
  else
    msg="$(head -n1 "$TMPD/try_$cmd.err" | sed 's/^gpuscope: [^:]*\.gsum: //' | cut -c1-90)"
    printf -v "GSUM_${cmd^^}" '%s' "not supported yet (exit $rc: ${msg//|/\\|})"
  fi
done

# what the analyses found, to check the profile is what it says
"$G" stragglers "$PROFILE" 2>>"$LOG" | head -n2 >"$TMPD/found" || true

# ---- the report -----------------------------------------------------------
commit="$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo 'no commit')"
[ -z "$(git -C "$REPO" status --porcelain -- src CMakeLists.txt 2>/dev/null)" ] || commit="$commit+dirty"
cpu="$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
mem_gib="$(awk '/MemTotal/ { printf "%.1f", $2 / 1048576 }' /proc/meminfo)"

python3 - "$SCRATCH/profile.json" "$LARGEST" <<'EOF'
import json, os, sys
m = json.load(open(sys.argv[1]))
largest = sys.argv[2]
src = m["source"]
src_short = src.split("/shared/traces/")[-1] if "/shared/traces/" in src else src
offs = [o / 1000 for o in m["offsets_us"]]
slow = m["slow_rank"]
print(f"input: {os.path.dirname(largest)}: {m['ranks']} ranks, {m['json_bytes'] / 1e6:,.0f} MB of JSON "
      f"({m['gz_bytes'] / 1e6:,.0f} MB as .json.gz), {m['events_per_rank']:,} events and "
      f"{m['comm_kernels_per_rank']:,} NCCL kernels per rank = copies of {src_short}")
print(f"       clock offsets {min(offs):+.3f} .. {max(offs):+.3f} ms; "
      + (f"rank {slow} starts {m['late_kernels']:,} NCCL kernels on average {m['late_mean_us']:.1f} us late"
         if slow >= 0 else "no slow rank"))
print(f"largest single rank: {os.path.basename(largest)}, {os.path.getsize(largest) / 1e6:.1f} MB .json.gz, "
      f"{m['json_bytes'] / m['ranks'] / 1e6:.1f} MB of JSON")
EOF
echo "machine: $(nproc) cores ($cpu), $mem_gib GiB RAM; $(date -u '+%Y-%m-%d %H:%M UTC'); load average before: $LOAD_BEFORE, after: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$G" = "$BUILD_DIR/gpuscope" ]; then
  echo "gpuscope: $commit, $BUILD_NOTE; $RUNS runs per row, summarize $JOBS at a time"
else
  echo "gpuscope: $BUILD_NOTE ($("$G" --version 2>/dev/null | head -n1)); $RUNS runs per row, summarize $JOBS at a time"
fi
echo "found: $(head -n1 "$TMPD/found")"
echo "       $(sed -n 2p "$TMPD/found" | cut -c1-200)"
echo

row "report, largest single rank" "$(basename "$LARGEST")" "$RUNS" "$TMPD/single"
row "report" "$RANKS-rank folder" "$RUNS" "$TMPD/folder_report"
row "stragglers" "$RANKS-rank folder" "$RUNS" "$TMPD/folder_stragglers"
row "comm" "$RANKS-rank folder" "$RUNS" "$TMPD/folder_comm"
row "summarize, all ranks ($JOBS at a time)" "$RANKS traces -> .gsum" "$RUNS" "$TMPD/sum_total" -
row "summarize, per rank (RSS: largest)" "one trace -> .gsum" "$((RUNS * RANKS))" "$TMPD/sum_rank" "$sum_rss_max"
row "stragglers, rank by rank" "rank-0.gsum + $((RANKS - 1)) traces" "$RUNS" "$TMPD/mixed_stragglers"
row "stragglers" "$RANKS .gsum ($(awk -v b="$gsum_bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB)" "$RUNS" "$TMPD/gsum_stragglers"
for cmd in report comm; do
  v="GSUM_${cmd^^}"
  if [ -n "${!v}" ]; then
    echo "| $cmd | $RANKS .gsum | - | ${!v} | | | |" >>"$ROWS"
  else
    row "$cmd" "$RANKS .gsum" "$RUNS" "$TMPD/gsum_$cmd"
    row "$cmd, rank by rank" "rank-0.gsum + $((RANKS - 1)) traces" "$RUNS" "$TMPD/mixed_$cmd"
  fi
done

echo "| measurement | input | runs | wall s (median) | wall spread s | CPU s (median) | peak RSS MB (median) |"
echo "|---|---|---|---|---|---|---|"
cat "$ROWS"
echo

single_kb=$(median_rss_kb "$TMPD/single")
folder_kb=$(median_rss_kb "$TMPD/folder_report")
merge_kb=$(median_rss_kb "$TMPD/gsum_stragglers")
for cmd in report comm; do
  [ -s "$TMPD/gsum_$cmd" ] || continue
  k=$(median_rss_kb "$TMPD/gsum_$cmd")
  [ "$k" -gt "$merge_kb" ] && merge_kb=$k
done
sum_wall=$(stats "$TMPD/sum_total" 1 | awk '{ print $1 }')
merge_wall=$(stats "$TMPD/gsum_stragglers" 1 | awk '{ print $1 }')
awk -v s="$single_kb" -v f="$folder_kb" -v sm="$sum_rss_max" -v mg="$merge_kb" -v n="$RANKS" \
    -v sw="$sum_wall" -v mw="$merge_wall" 'BEGIN {
  r = f / s
  printf "peak RSS, %d-rank report / largest single rank report: %.0f MB / %.0f MB = %.1fx (target: within 2x): %s\n",
         n, f / 1024, s / 1024, r, (r <= 2 ? "met" : "MISSED")
  big = (sm > mg) ? sm : mg
  r2 = big / s
  printf "summaries: summarize (largest rank) %.0f MB, analyses of the %d .gsum %.0f MB; the largest of them / single rank report = %.1fx (target: within 2x): %s\n",
         sm / 1024, n, mg / 1024, r2, (r2 <= 2 ? "met" : "MISSED")
  printf "summarize+stragglers end to end: %.2f s (summarize %.2f s + stragglers on .gsum %.2f s)\n", sw + mw, sw, mw
}'
if [ -s "$TMPD/mixed_report" ]; then
  mixed_kb=$(median_rss_kb "$TMPD/mixed_report")
  awk -v s="$single_kb" -v m="$mixed_kb" -v n="$RANKS" 'BEGIN {
    printf "peak RSS, report rank by rank (rank-0.gsum + %d traces) / largest single rank report: %.0f MB / %.0f MB = %.1fx (target: within 2x): %s\n",
           n - 1, m / 1024, s / 1024, m / s, (m / s <= 2 ? "met" : "MISSED") }'
fi
if [ -s "$TMPD/gsum_report" ]; then
  rep_wall=$(stats "$TMPD/gsum_report" 1 | awk '{ print $1 }')
  awk -v sw="$sum_wall" -v rw="$rep_wall" 'BEGIN {
    printf "summarize+report end to end: %.2f s (summarize %.2f s + report on .gsum %.2f s)\n", sw + rw, sw, rw }'
fi
say "done; scratch: $SCRATCH (profile, .gsum files, log)"
