#!/bin/bash
# gpuscope export on the bundled traces (the .gst fixture, the example, every generator dialect):
#   - chrome round trip: the export read back by gpuscope gives the same `report --format json`,
#     byte for byte once the fields that name the file are blanked: "path" and "file" (the
#     export's own path) and "format" ("kineto" for the export, "gst"/"legacy" for the source);
#   - the export's structure (tests/cli/check_chrome_json.py), gzip output, several ranks in one file;
#   - sqlite queried with the sqlite3 CLI: kernels by total time and copies by kind equal
#     `gpuscope kernels|memcpy --format csv`, row counts equal the model's (report's "events");
#   - csv: the folder's files and --table equal the views' own CSV;
#   - errors: bad input is one line and exit 3, usage errors exit 2, an unwritable output exit 4.
# The real traces are checked by tests/traces/check_export_traces.py, HTA by tests/anchors/check_export_hta.py.
#
#   bash tests/cli/test_export.sh path/to/gpuscope          # run from the source root
set -u
exe=${1:?usage: test_export.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
source tests/cli/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check NAME COMMAND...: the command succeeds (its output is shown when it does not).
check() {
    local name=$1 out
    shift
    ran=$((ran + 1))
    if ! out=$("$@" 2>&1); then
        echo "FAIL $name"
        printf '%s\n' "$out" | head -20
        failed=$((failed + 1))
    fi
}

blank_names() { sed -E 's/"(path|file|format)": "[^"]*"/"\1": "-"/g'; }

# round_trip OUT TRACE...: export to OUT, check its structure, compare the reports.
round_trip() {
    local out=$1
    shift
    "$exe" export --format chrome -o "$out" "$@" &&
        python3 tests/cli/check_chrome_json.py "$out" &&
        diff <("$exe" report --format json "$@" | blank_names) \
            <("$exe" report --format json "$out" | blank_names)
}

traces=(tests/data/gst/sample.gst examples/train.json.gz tests/data/gen/modern.json
        tests/data/gen/epoch_us.json tests/data/gen/ns_float.json tests/data/gen/old.json
        tests/data/gen/legacy.json tests/data/gen/reserialized.json tests/data/gen/rank0.json.gz
        tests/data/gen/rank1.json.gz)
for t in "${traces[@]}"; do
    check "chrome round trip of $t" round_trip "$tmp/rt.json" "$t"
done
check "chrome round trip through gzip" round_trip "$tmp/rt.json.gz" examples/train.json.gz
check "chrome to standard output is the -o file" \
    cmp <("$exe" export --format chrome -o "$tmp/a.json" examples/train.json.gz && cat "$tmp/a.json") \
    <("$exe" export --format chrome examples/train.json.gz | sed 's|"traceName": ".*"|"traceName": "'"$tmp/a.json"'"|')
# Two ranks in one file: valid, one process group per rank, flows still one to one.
pair=(tests/data/gen/rank0.json.gz tests/data/gen/rank1.json.gz)
check "two ranks in one chrome file" python3 tests/cli/check_chrome_json.py \
    <("$exe" export "${pair[@]}")
check "each rank is named" bash -c "'$exe' export ${pair[*]} | grep -q '\"rank 0 GPU 0' &&
    '$exe' export ${pair[*]} | grep -q '\"rank 1 GPU 0'"

# ---- sqlite -------------------------------------------------------------------------------------

# csv_cols FILE COL...: the named columns of a CSV file, re-written by Python's csv module so
# that two CSV writers' quoting does not matter.
csv_cols() {
    python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
head = rows[0]
idx = [head.index(c) if c in head else int(c) for c in sys.argv[2:]]
w = csv.writer(sys.stdout, lineterminator="\n")
for r in rows[1:]:
    w.writerow([r[i] for i in idx])' "$@"
}

kernels_sql='SELECT SUM("end" - start), COUNT(*), s.value
  FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName
  GROUP BY s.value ORDER BY SUM("end" - start) DESC, COUNT(*), s.value'
# Operation as the memcpy view names it: kind, then the known sides.
memcpy_sql="WITH ops AS (
  SELECT \"end\" - start AS dur, bytes, CASE copyKind WHEN 1 THEN 'HtoD' WHEN 2 THEN 'DtoH'
    WHEN 8 THEN 'DtoD' WHEN 9 THEN 'HtoH' WHEN 10 THEN 'PtoP' ELSE 'Copy' END AS kind,
    srcKind, dstKind FROM CUPTI_ACTIVITY_KIND_MEMCPY
  UNION ALL SELECT \"end\" - start, bytes, 'Memset', 0, memKind FROM CUPTI_ACTIVITY_KIND_MEMSET)
SELECT SUM(dur), COUNT(*), SUM(bytes), kind || CASE
    WHEN srcKind > 0 AND dstKind > 0 THEN ' (' || s.label || ' -> ' || d.label || ')'
    WHEN srcKind > 0 THEN ' (' || s.label || ')' WHEN dstKind > 0 THEN ' (' || d.label || ')'
    ELSE '' END
  FROM ops JOIN ENUM_CUDA_MEM_KIND s ON s.id = srcKind JOIN ENUM_CUDA_MEM_KIND d ON d.id = dstKind
  GROUP BY kind, srcKind, dstKind ORDER BY SUM(dur) DESC, COUNT(*)"
# Rows per table, named as report's "events" counts.
counts_sql="SELECT 'kernels', COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL
UNION ALL SELECT 'memcpys', COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY
UNION ALL SELECT 'memsets', COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMSET
UNION ALL SELECT 'gpu_syncs', COUNT(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION
UNION ALL SELECT 'api_calls', COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME
UNION ALL SELECT 'ops', COUNT(*) FROM OPS WHERE kind = 'cpu_op'
UNION ALL SELECT 'annotations', COUNT(*) FROM OPS WHERE kind = 'user_annotation'
UNION ALL SELECT 'nvtx_ranges', COUNT(*) FROM NVTX_EVENTS
UNION ALL SELECT 'python_functions', COUNT(*) FROM OPS WHERE kind = 'python_function'
UNION ALL SELECT 'gpu_annotations', COUNT(*) FROM OPS WHERE kind = 'gpu_user_annotation'
UNION ALL SELECT 'other_ranges', COUNT(*) FROM OPS WHERE kind = 'other'
UNION ALL SELECT 'instants', COUNT(*) FROM INSTANTS
UNION ALL SELECT 'memory_events', COUNT(*) FROM MEMORY_EVENTS
UNION ALL SELECT 'counters', COUNT(*) FROM COUNTERS"
model_counts() {
    "$exe" report --format json "$@" | python3 -c '
import json, sys
for k, v in json.load(sys.stdin)["profile"]["events"].items():
    print(f"{k},{v}")'
}

# sqlite_checks TRACE...: the three comparisons on one export.
sqlite_checks() {
    local db=$tmp/t.sqlite
    "$exe" export --format sqlite -o "$db" "$@" || return 1
    # The database holds the whole trace; the views, by default, the kept steps.
    "$exe" kernels --all-steps --format csv "$@" >"$tmp/k.csv" &&
        "$exe" memcpy --all-steps --format csv "$@" >"$tmp/m.csv" &&
        sqlite3 -csv -header "$db" "$kernels_sql" >"$tmp/k.sql.csv" &&
        sqlite3 -csv -header "$db" "$memcpy_sql" >"$tmp/m.sql.csv" || return 1
    diff <(csv_cols "$tmp/k.csv" "Total Time (ns)" Instances Name) \
        <(csv_cols "$tmp/k.sql.csv" 0 1 2) &&
        diff <(csv_cols "$tmp/m.csv" "Total Time (ns)" Count "Total (bytes)" Operation) \
            <(csv_cols "$tmp/m.sql.csv" 0 1 2 3) &&
        diff <(model_counts "$@") <(sqlite3 -csv "$db" "$counts_sql") &&
        [ "$(sqlite3 "$db" 'SELECT COUNT(DISTINCT rank) FROM META')" -eq $# ]
}
check "sqlite of the .gst fixture" sqlite_checks tests/data/gst/sample.gst
check "sqlite of the example" sqlite_checks examples/train.json.gz
check "sqlite of two ranks" sqlite_checks "${pair[@]}"
# What report does not show survives the round trip too: NVTX domains, counters, kernel details.
details_sql="SELECT start, \"end\", t.value, d.value FROM NVTX_EVENTS n
  JOIN StringIds t ON t.id = n.textId JOIN StringIds d ON d.id = n.domainId;
SELECT ts, s.value, deviceId, value FROM COUNTERS c JOIN StringIds s ON s.id = c.nameId;
SELECT start, \"end\", deviceId, streamId, correlationId, gridX, blockX, registersPerThread,
  sharedMemory, blocksPerSm, warpsPerSm, s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k
  JOIN StringIds s ON s.id = k.demangledName"
details_same() {
    "$exe" export --format sqlite -o "$tmp/d1.sqlite" "$1" &&
        "$exe" export --format chrome -o "$tmp/d.json" "$1" &&
        "$exe" export --format sqlite -o "$tmp/d2.sqlite" "$tmp/d.json" &&
        diff <(sqlite3 "$tmp/d1.sqlite" "$details_sql") <(sqlite3 "$tmp/d2.sqlite" "$details_sql") &&
        [ "$(sqlite3 "$tmp/d2.sqlite" "SELECT COUNT(*) FROM NVTX_EVENTS n JOIN StringIds d
            ON d.id = n.domainId WHERE d.value = 'my_domain'")" -eq 2 ]
}
check "NVTX domains, counters and kernel details survive the round trip" \
    details_same tests/data/gst/sample.gst
check "sqlite indexes on start and correlationId" bash -c "
    '$exe' export --format sqlite -o '$tmp/i.sqlite' examples/train.json.gz &&
    sqlite3 '$tmp/i.sqlite' 'EXPLAIN QUERY PLAN SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL
        WHERE correlationId = 5' | grep -q 'USING INDEX CUPTI_ACTIVITY_KIND_KERNEL_correlationId'"
check "sqlite replaces an existing file" bash -c "
    '$exe' export --format sqlite -o '$tmp/i.sqlite' tests/data/gst/sample.gst &&
    [ \"\$(sqlite3 '$tmp/i.sqlite' 'SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL')\" = 6 ]"

# ---- csv ----------------------------------------------------------------------------------------

csv_checks() {
    "$exe" export --format csv -o "$tmp/csv" "$@" || return 1
    for v in kernels ops api memcpy; do
        cmp "$tmp/csv/$v.csv" <("$exe" $v --format csv "$@") || return 1
    done
    cmp <("$exe" export --format csv --table ops "$@") <("$exe" ops --format csv "$@")
}
check "csv of the example" csv_checks examples/train.json.gz
check "csv of two ranks" csv_checks "${pair[@]}"
check "csv --rank" cmp <("$exe" export --format csv --table kernels --rank 1 "${pair[@]}") \
    <("$exe" kernels --format csv --rank 1 "${pair[@]}")

# ---- errors -------------------------------------------------------------------------------------

printf '{"traceEvents": [{"ph": "X", "name": ' >"$tmp/truncated.json"
check_error 3 export -o "$tmp/x.json" "$tmp/truncated.json"
check_error 3 export --format sqlite -o "$tmp/x.sqlite" "$tmp/absent.json"
check_error 3 export --format csv -o "$tmp/x" tests/data/gst/sample.gst.absent
check_error 2 export --format pdf examples/train.json.gz
check_error 2 export --format sqlite examples/train.json.gz
check_error 2 export --format csv examples/train.json.gz
check_error 2 export --table kernels examples/train.json.gz
check_error 2 export --format csv --table nope examples/train.json.gz
check_error 2 export --rank 7 examples/train.json.gz
check_error 2 export
check_error 4 export -o "$tmp/absent/dir/x.json" examples/train.json.gz
# The SQLite export replaces a file, never a FIFO or a device (as root it replaced /dev/null).
mkfifo "$tmp/fifo.sqlite"
check_error 4 export --format sqlite -o "$tmp/fifo.sqlite" examples/train.json.gz
check "a FIFO at the output is left alone" test -p "$tmp/fifo.sqlite"
check "no file left by a failed export" bash -c "! ls '$tmp/x.json' '$tmp/x.sqlite' 2>/dev/null"

finish
