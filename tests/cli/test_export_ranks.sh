#!/bin/bash
# gpuscope export --format chrome of a folder of ranks (tests/data/ranks/r4, whose ranks share
# most of their correlation and External ids), read back:
#   - one file for every rank: its correlation and External ids are unique across the ranks, and
#     the views that sum the whole of every trace (kernels, ops, callsites, api, memcpy with
#     --all-steps, and memory) read from it are the folder's, byte for byte: each launch still finds its
#     own kernels and each operator its own;
#   - one file per rank (--rank R): every view, in JSON, is `VIEW --rank R FOLDER`'s once the
#     fields that name the file are blanked ("path", "file", "format"), collectives' sizes
#     included.
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

blank_names() { sed -E 's/"(path|file|format)": "[^"]*"/"\1": "-"/g'; }

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
for v in "kernels --all-steps" "ops --all-steps" "callsites --all-steps" "api --all-steps" \
         "memcpy --all-steps" memory; do
    "$exe" $v --format csv "$folder" >"$tmp/folder.csv" || fail "$v $folder"
    "$exe" $v --format csv "$tmp/all.json" >"$tmp/export.csv" || fail "$v on the export"
    same "$v: the folder and its export in one file" "$tmp/folder.csv" "$tmp/export.csv"
done

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
