#!/bin/bash
# gpuscope export --format chrome of several ranks, read back:
#   - one file for every rank (tests/data/ranks/r4 and r8, whose ranks share most of their
#     correlation and External ids; two generated ranks; two .gst traces of one rank): its ids are
#     unique across the ranks, and gpuscope reads it back as its ranks, so every view in JSON with
#     its messages and exit status, diff, and the export of the export are the folder's once what
#     names the file is blanked ("path", "file", "format"; file names in messages); the same for
#     a .json.gz export; such a file given with other traces is judged as the ranks it holds
#     (report refuses a rank given twice, world sizes that differ);
#   - one file per rank (--rank R): every view, in JSON, is `VIEW --rank R FOLDER`'s once the
#     fields that name the file are blanked, collectives' sizes included.
#
#   bash tests/cli/test_export_ranks.sh path/to/gpuscope          # run from the source root
set -u
exe=${1:?usage: test_export_ranks.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
source tests/cli/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
folder=tests/data/ranks/r4
views=(kernels ops callsites api memcpy steps breakdown idle comm stragglers launch sync memory
       report)

# The fields that name a file: a view's "path", "file" and "format", diff's "base" and "new".
blank_names() { sed -E 's/"(path|file|format|base|new)": "[^"]*"/"\1": "-"/g'; }

# same NAME FILE_A FILE_B: one check that the two outputs are equal (the first lines that differ
# are shown when not).
same() {
    ran=$((ran + 1))
    if ! cmp -s "$2" "$3"; then
        fail "$1"
        diff "$2" "$3" | head -6 | cut -c1-240
    fi
}

# Every rank in one file.
"$exe" export -o "$tmp/all.json" "$folder" || fail "export of $folder"
ids=$(python3 - "$tmp/all.json" <<'EOF'
import json, sys
events = json.load(open(sys.argv[1]))["traceEvents"]
# A rank's process group is its pids' 10^7 (doc/export.md): an id seen in two groups is shared.
for key in ("correlation", "External id"):
    groups = {}
    for e in events:
        v = e.get("args", {}).get(key)
        if v:
            groups.setdefault(v, set()).add(e["pid"] // 10**7)
    print("%s: %d shared" % (key, sum(len(g) > 1 for g in groups.values())))
EOF
)
check "ids of several ranks in one file" "$ids" "correlation: 0 shared
External id: 0 shared"

# run_blank OUT ARGS...: gpuscope ARGS' stdout, the fields that name a file blanked, into OUT,
# then its exit status, then its stderr with each trace's name (a folder's [DIR/]NAME, a part of
# a file's [DIR/]FILE (rank R)) written TRACE, and the command a refusal suggests left out (it
# names the folder's files, or the one file of every rank: checked on its own below).
run_blank() {
    local out=$1
    shift
    "$exe" "$@" 2>"$out.err" | blank_names >"$out"
    echo "exit ${PIPESTATUS[0]}" >>"$out"
    sed -E -e 's#[^ :,]+\.(json|json\.gz|gst)( \(rank [0-9]+\))?#TRACE#g' \
        -e 's/\. Name one (job|run).s traces to report it, e\.g\. .*/. Name one \1'"'"'s traces (.../' \
        "$out.err" >>"$out"
}

# The chrome JSON FILE (gzip or not) with the trace's name and its sources' paths blanked, and
# what a reader does not keep of a source (doc/export.md): its format and host name; its lines
# sorted, since tracks named by the source are named in another order than those named by the
# export.
blank_export() {
    gzip -dcf "$1" | sed -E -e 's/"(path|traceName|format|hostname)": "[^"]*"/"\1": "-"/g' \
        -e 's/("name":"rank [0-9]+ pid [0-9]+) \([^"]*\)"/\1"/' | LC_ALL=C sort
}

# same_views FOLDER FILE: every view of FILE, the export of FOLDER, is the FOLDER's.
same_views() {
    local name=$1 file=$2 v
    for v in "${views[@]}" "kernels --rank 1" "steps --rank 1" "report --rank 0"; do
        run_blank "$tmp/folder.json" $v --format json "$name"
        run_blank "$tmp/export.json" $v --format json "$file"
        same "$v: $name and its export in one file" "$tmp/folder.json" "$tmp/export.json"
    done
    run_blank "$tmp/folder.json" diff --format json "$name" "$name"
    run_blank "$tmp/export.json" diff --format json "$file" "$file"
    same "diff: $name and its export in one file" "$tmp/folder.json" "$tmp/export.json"
    # The export of the export is the export: the same model, rank by rank.
    "$exe" export -o "$tmp/again.json" "$file" || fail "export of the export of $name"
    blank_export "$file" >"$tmp/folder.json"
    blank_export "$tmp/again.json" >"$tmp/export.json"
    same "export of the export of $name" "$tmp/folder.json" "$tmp/export.json"
}

same_views "$folder" "$tmp/all.json"
"$exe" export -o "$tmp/r8.json.gz" tests/data/ranks/r8 || fail "export of r8"
same_views tests/data/ranks/r8 "$tmp/r8.json.gz"
mkdir "$tmp/pair"
cp tests/data/gen/rank0.json.gz tests/data/gen/rank1.json.gz "$tmp/pair"
"$exe" export -o "$tmp/pair.json" "$tmp/pair" || fail "export of two generated ranks"
same_views "$tmp/pair" "$tmp/pair.json"
# Two .gst traces of one rank: each part keeps its own tracing cost, recorder and lost events,
# and report refuses the rank given twice as it does for the files.
mkdir "$tmp/gst"
cp tests/data/gst/sample.gst "$tmp/gst/a.gst"
cp tests/data/gst/sample.gst "$tmp/gst/b.gst"
"$exe" export -o "$tmp/gst.json" "$tmp/gst" || fail "export of two .gst"
same_views "$tmp/gst" "$tmp/gst.json"

# A file of several ranks among other traces: its ranks are judged with theirs. "EXPORT|SOURCES"
for args in "$tmp/all.json $folder/rank-2.json.gz|$folder $folder/rank-2.json.gz" \
            "$tmp/all.json $tmp/r8.json.gz|$folder tests/data/ranks/r8" \
            "$tmp/all.json $tmp/all.json|$folder $folder"; do
    for v in report kernels; do
        run_blank "$tmp/folder.json" $v --format json ${args#*|}
        run_blank "$tmp/export.json" $v --format json ${args%|*}
        same "$v ${args%|*}: as $v ${args#*|}" "$tmp/folder.json" "$tmp/export.json"
    done
done

# The way out a refusal suggests names a file of several ranks once, as it is typed.
way_out=$("$exe" report "$tmp/all.json" tests/data/ranks/r8 2>&1 | sed -n 's/.*e\.g\. //p')
check "the way out of a refusal names the file, not its parts" "$way_out" \
    "gpuscope report DIR/all.json"

# One file per rank.
for rank in 0 1 2 3; do
    "$exe" export --rank "$rank" -o "$tmp/rank$rank.json" "$folder" || fail "export --rank $rank"
    for v in "${views[@]}"; do
        "$exe" "$v" --rank "$rank" --format json "$folder" 2>&1 | blank_names >"$tmp/folder.json"
        "$exe" "$v" --format json "$tmp/rank$rank.json" 2>&1 | blank_names >"$tmp/export.json"
        same "$v: rank $rank of the folder and its export" "$tmp/folder.json" "$tmp/export.json"
    done
done
finish
