#!/usr/bin/env bash
# Traces of any size: `gpuscope report` on a 5 GB single trace and on a
# 1,000-rank folder, with wall time, CPU time and peak RSS.
#
#   bench/bench_big.sh [options]
#
# 1. builds gpuscope in Release (build-bench/) unless --gpuscope BIN,
# 2. checks the free disk of the scratch dir, then makes what is missing under
#    SCRATCH/big/ (never in the repository):
#      big5g.json and big5g.json.gz: time-shifted copies of a real trace
#        (bench/make_big_trace.py --target-mb 5000 --gzip; ~5.5 GB on disk),
#      ranks1000/rank-R.json.gz: 1,000 copies of that real rank with their own
#        rank, clock offsets of up to +-50 ms (bench/make_rank_profile.py;
#        ~47 MB of JSON per rank, ~4 GB on disk gzipped),
# 3. runs `gpuscope report` on the .json, the .json.gz and the folder (R runs
#    each), under GNU time and a watchdog that kills a run whose resident
#    memory passes --rss-limit-mb, and prints one table (wall and CPU time,
#    peak RSS, how each run ended) and what report said it sampled or skipped;
#    each input's report is kept as SCRATCH/big/report.INPUT.txt.
#
# Options:
#   -r N              runs per input (default 1)
#   --target-mb MB    size of the single trace (default 5000)
#   --ranks N         ranks in the folder (default 1000)
#   --only WHAT       single or ranks: make and measure only that one
#   --rss-limit-mb MB kill a run over this resident size (default 8000)
#   --source FILE     real trace to copy (default ../shared/traces/hta/df_index_resolver/...)
#   --scratch DIR     scratch dir (default $GPUSCOPE_BENCH_DIR or /tmp/gpuscope-bench)
#   --gpuscope BIN    time this binary instead of building one
#   --build-dir DIR   build directory (default build-bench, in the repo root)
# Everything runs under `nice`: the machine may be shared. stdout gets only the
# report; progress goes to stderr, tool output to SCRATCH/big/bench_big.log.
# Exit status: 0 measured (a run stopped at the limit is a measurement),
# 1 a step failed, 2 usage.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
SCRATCH="${GPUSCOPE_BENCH_DIR:-/tmp/gpuscope-bench}"
RUNS=1
TARGET_MB=5000
RANKS=1000
ONLY=""
RSS_LIMIT_MB=8000
SOURCE="$REPO/../shared/traces/hta/df_index_resolver/df_index_resolver.json.gz"
GPUSCOPE_BIN=""
BUILD_DIR="$REPO/build-bench"

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit "${1:-0}"; }
need_arg() { [ $# -ge 2 ] || { echo "bench_big.sh: $1 needs a value" >&2; usage 2 >&2; }; }
while [ $# -gt 0 ]; do
  case "$1" in
    -r) need_arg "$@"; RUNS="$2"; shift 2 ;;
    --target-mb) need_arg "$@"; TARGET_MB="$2"; shift 2 ;;
    --ranks) need_arg "$@"; RANKS="$2"; shift 2 ;;
    --only) need_arg "$@"; ONLY="$2"; shift 2 ;;
    --rss-limit-mb) need_arg "$@"; RSS_LIMIT_MB="$2"; shift 2 ;;
    --source) need_arg "$@"; SOURCE="$2"; shift 2 ;;
    --scratch) need_arg "$@"; SCRATCH="$2"; shift 2 ;;
    --gpuscope) need_arg "$@"; GPUSCOPE_BIN="$2"; shift 2 ;;
    --build-dir) need_arg "$@"; BUILD_DIR="$2"; shift 2 ;;
    -h|--help) usage 0 ;;
    *) echo "bench_big.sh: unknown option $1" >&2; usage 2 >&2 ;;
  esac
done
for n in "$RUNS" "$TARGET_MB" "$RANKS" "$RSS_LIMIT_MB"; do
  case "$n" in ''|*[!0-9]*|0) echo "bench_big.sh: '$n' is not a positive whole number" >&2; usage 2 >&2 ;; esac
done
case "$ONLY" in ''|single|ranks) ;; *) echo "bench_big.sh: --only takes single or ranks" >&2; usage 2 >&2 ;; esac
[ -f "$SOURCE" ] || { echo "bench_big.sh: no source trace $SOURCE (--source FILE)" >&2; exit 2; }

mkdir -p "$SCRATCH/big"
SCRATCH="$(cd "$SCRATCH" && pwd)"
case "$SCRATCH/" in "$REPO"/*) echo "bench_big.sh: scratch dir must be outside the repo" >&2; exit 2 ;; esac
BIG_DIR="$SCRATCH/big"
LOG="$BIG_DIR/bench_big.log"
: >"$LOG"
say() { echo "[bench_big] $*" >&2; }
die() { echo "bench_big.sh: $*" >&2; echo "(log: $LOG)" >&2; exit 1; }
[ -x /usr/bin/time ] || die "needs GNU time (/usr/bin/time; Debian package time)"

if [ -n "$GPUSCOPE_BIN" ]; then
  [ -x "$GPUSCOPE_BIN" ] || die "$GPUSCOPE_BIN is not an executable"
  build_info="binary $GPUSCOPE_BIN"
else
  say "building gpuscope (Release) in $BUILD_DIR"
  nice -n 10 cmake -S "$REPO" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >>"$LOG" 2>&1 || die "cmake configure failed"
  nice -n 10 cmake --build "$BUILD_DIR" -j2 --target gpuscope >>"$LOG" 2>&1 || die "gpuscope build failed"
  GPUSCOPE_BIN="$BUILD_DIR/gpuscope"
  commit="$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo 'no commit')"
  [ -z "$(git -C "$REPO" status --porcelain -- src CMakeLists.txt 2>/dev/null)" ] || commit="$commit+dirty"
  build_info="$commit, Release build, $(cc --version 2>/dev/null | head -n1)"
fi

SINGLE="$BIG_DIR/big$((TARGET_MB / 1000))g.json"
[ "$TARGET_MB" -ge 1000 ] || SINGLE="$BIG_DIR/big${TARGET_MB}m.json"
RANK_DIR="$BIG_DIR/ranks$RANKS"

# Disk: the single trace is its target plus ~7 % as .gz; a rank, gzipped at
# level 1, is about 1.3x the source's .gz (measured on df_index_resolver).
src_mb=$(( $(stat -c %s "$SOURCE") / 1000000 + 1 ))
need_mb=0
if [ "$ONLY" != ranks ] && { [ ! -f "$SINGLE.meta.json" ] || [ ! -f "$SINGLE.gz" ]; }; then
  need_mb=$(( need_mb + TARGET_MB * 107 / 100 ))
fi
if [ "$ONLY" != single ] && [ ! -f "$RANK_DIR.meta.json" ]; then
  need_mb=$(( need_mb + RANKS * src_mb * 13 / 10 ))
fi
avail_mb=$(( $(df -Pk "$BIG_DIR" | awk 'NR == 2 { print $4 }') / 1024 ))
[ "$need_mb" -lt "$avail_mb" ] \
  || die "the inputs need about $need_mb MB under $BIG_DIR and only $avail_mb MB are free"

if [ "$ONLY" != ranks ]; then
  say "making $SINGLE and its .gz if missing (minutes for 5 GB)"
  nice -n 10 python3 "$HERE/make_big_trace.py" --source "$SOURCE" --out "$SINGLE" \
    --target-mb "$TARGET_MB" --gzip >>"$LOG" 2>&1 || die "make_big_trace.py failed"
fi
if [ "$ONLY" != single ]; then
  say "making $RANK_DIR if missing (minutes for 1,000 ranks)"
  nice -n 10 python3 "$HERE/make_rank_profile.py" --source "$SOURCE" --out "$RANK_DIR" \
    --ranks "$RANKS" --jobs 2 >>"$LOG" 2>&1 || die "make_rank_profile.py failed"
fi

# measure LABEL INPUT: R runs of `gpuscope report INPUT` under GNU time and the
# RSS watchdog; appends one line per run to $RUNS_FILE:
#   label wall_s cpu_s rss_mb end
# where end is "ok", "exit N" or "stopped>LIMIT". Wall time comes from
# /proc/uptime (a monotonic clock; GNU time's %e reads the realtime clock).
RUNS_FILE="$(mktemp "$BIG_DIR/runs.XXXXXX")"
SAID_FILE="$(mktemp "$BIG_DIR/said.XXXXXX")"
trap 'rm -f "$RUNS_FILE" "$SAID_FILE" "$BIG_DIR"/time.* "$BIG_DIR"/report.out "$BIG_DIR"/report.err' EXIT
uptime_s() { cut -d' ' -f1 /proc/uptime; }
# watchdog PID MARK: kills PID's children (gpuscope under GNU time) once one's
# resident size passes the limit, and says so in the file MARK.
watchdog() {
  local child rss
  while kill -0 "$1" 2>/dev/null; do
    for child in $(pgrep -P "$1" || true); do
      rss="$(awk '/^VmRSS:/ { print $2 }' "/proc/$child/status" 2>/dev/null || true)"
      if [ "${rss:-0}" -gt $(( RSS_LIMIT_MB * 1024 )) ]; then
        kill -KILL "$child" 2>/dev/null || true
        echo stopped >"$2"
      fi
    done
    sleep 0.2
  done
}
measure() {
  local label="$1" input="$2" i tfile mark t0 t1 tpid wpid rc end
  for i in $(seq 1 "$RUNS"); do
    say "gpuscope report $input (run $i of $RUNS)"
    tfile="$(mktemp "$BIG_DIR/time.XXXXXX")"
    mark="$tfile.stopped"
    echo "\$ gpuscope report $input" >>"$LOG"
    t0="$(uptime_s)"
    nice -n 10 /usr/bin/time -f '%M %U %S' -o "$tfile" "$GPUSCOPE_BIN" report "$input" \
      >"$BIG_DIR/report.out" 2>"$BIG_DIR/report.err" &
    tpid=$!
    watchdog "$tpid" "$mark" &
    wpid=$!
    rc=0
    wait "$tpid" || rc=$?
    t1="$(uptime_s)"
    kill "$wpid" 2>/dev/null || true
    wait "$wpid" 2>/dev/null || true
    cat "$BIG_DIR/report.err" >>"$LOG"
    cp "$BIG_DIR/report.out" "$BIG_DIR/report.${label// /_}.txt"  # to compare two binaries' reports
    end="ok"
    [ "$rc" -eq 0 ] || end="exit $rc"
    [ ! -f "$mark" ] || end="stopped>${RSS_LIMIT_MB}MB"
    awk -v l="$label" -v t0="$t0" -v t1="$t1" -v e="$end" 'NF == 3 && $1 ~ /^[0-9]+$/ { last = $0 }
      END { split(last, f, " "); printf "%s\t%.2f\t%.2f\t%.0f\t%s\n", l, t1 - t0, f[2] + f[3], f[1] / 1024, e }' \
      "$tfile" >>"$RUNS_FILE"
    rm -f "$tfile" "$mark"
    { grep -h -i -E 'sampl|skipp' "$BIG_DIR/report.out" "$BIG_DIR/report.err" || true; } \
      | head -n 3 | sed "s|^|$label: |" >>"$SAID_FILE"
  done
}

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
[ "$ONLY" = ranks ] || { measure "single trace .json" "$SINGLE"; measure "single trace .json.gz" "$SINGLE.gz"; }
[ "$ONLY" = single ] || measure "$RANKS-rank folder" "$RANK_DIR"

# ---- report ----
echo "gpuscope report on traces of any size, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine: $(nproc) cores ($(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)), $(awk '/^MemTotal/ { printf "%.1f GiB RAM", $2 / 1048576 }' /proc/meminfo); load average before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "gpuscope: $build_info ($("$GPUSCOPE_BIN" --version 2>/dev/null | head -n1)); $RUNS run(s) per input under nice; a run is killed over $RSS_LIMIT_MB MB resident"
[ "$ONLY" = ranks ] || python3 - "$SINGLE" <<'EOF'
import json, os, sys
p = sys.argv[1]
m = json.load(open(p + ".meta.json"))
print(f"input: {p}: {os.path.getsize(p) / 1e6:,.0f} MB JSON, {os.path.getsize(p + '.gz') / 1e6:,.0f} MB as .gz, "
      f"{m['events']:,} events = {m['copies']} time-shifted copies of {os.path.basename(m['source'])}")
EOF
[ "$ONLY" = single ] || python3 - "$RANK_DIR" <<'EOF'
import json, os, sys
d = sys.argv[1]
m = json.load(open(d + ".meta.json"))
print(f"input: {d}: {m['ranks']:,} ranks, {m['json_bytes'] / 1e6:,.0f} MB of JSON "
      f"({m['json_bytes'] / m['ranks'] / 1e6:.1f} MB per rank), {m['gz_bytes'] / 1e6:,.0f} MB as .json.gz, "
      f"{m['events_per_rank']:,} events per rank = copies of {os.path.basename(m['source'])}")
EOF
echo
echo "| input | runs | wall s (median) | CPU s (median) | peak RSS MB (max) | how the runs ended |"
echo "|---|---|---|---|---|---|"
awk -F'\t' '{ n[$1]++; w[$1, n[$1]] = $2; c[$1, n[$1]] = $3; if ($4 > r[$1]) r[$1] = $4
              e[$1] = e[$1] (e[$1] == "" ? "" : ", ") $5; if (!($1 in o)) { o[$1] = ++k; lab[k] = $1 } }
  function med(a, l, m,   i, j, t, v) { for (i = 1; i <= m; i++) v[i] = a[l, i]
    for (i = 2; i <= m; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2 }
  END { for (i = 1; i <= k; i++) { l = lab[i]
          printf "| %s | %d | %.2f | %.2f | %d | %s |\n", l, n[l], med(w, l, n[l]), med(c, l, n[l]), r[l], e[l] } }' \
  "$RUNS_FILE"
echo
if [ -s "$SAID_FILE" ]; then
  echo "what report said it sampled or skipped:"
  sort -u "$SAID_FILE" | sed 's/^/  /'
else
  echo "what report said it sampled or skipped: nothing (no line of its output mentions sampling or skipping)"
fi
echo "reports (last run of each input): $BIG_DIR/report.*.txt"
echo "notes: wall = whole process, from /proc/uptime; CPU = user+sys (GNU time %U+%S); peak RSS = GNU time %M; page cache as the previous step left it."
