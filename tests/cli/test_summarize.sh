#!/bin/bash
# gpuscope summarize (doc/summarize.md): each rank of tests/data/ranks/r4 summarised to a .gsum;
# stragglers on the summaries gives the same JSON (ranks, offsets, residuals, waits, the
# straggler) as on the traces, alone and mixed with traces; bad summaries get one line, exit 3.
set -u
exe=${1:?usage: test_summarize.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
r4=tests/data/ranks/r4
mkdir "$tmp/sum" "$tmp/mixed"
for i in 0 1 2 3; do
    "$exe" summarize "$r4/rank-$i.json.gz" -o "$tmp/sum/rank-$i.gsum" || { echo "FAIL summarize rank $i"; fail=1; }
done
cp "$tmp/sum/rank-0.gsum" "$tmp/sum/rank-1.gsum" "$tmp/mixed/"
cp "$r4/rank-2.json.gz" "$r4/rank-3.json.gz" "$tmp/mixed/"
"$exe" stragglers --format json "$r4" >"$tmp/traces.json"
"$exe" stragglers --format json "$tmp/sum" >"$tmp/sums.json"
"$exe" stragglers --format json "$tmp/mixed" >"$tmp/mixed.json"
# the paths differ (mixed: the two traces' copies); every number must not
sed -i -E 's#"(path|file)": "[^"]*"#"\1": ""#g' "$tmp/traces.json" "$tmp/sums.json" "$tmp/mixed.json"
diff -u "$tmp/traces.json" "$tmp/sums.json" || { echo "FAIL stragglers from summaries differ"; fail=1; }
diff -u "$tmp/traces.json" "$tmp/mixed.json" || { echo "FAIL stragglers from mixed inputs differ"; fail=1; }
# bad summaries: one line on stderr, exit 3, nothing on stdout
printf '{"format": "nope"}' >"$tmp/bad1.gsum"
head -c 2000 "$tmp/sum/rank-1.gsum" >"$tmp/bad2.gsum"
sed 's/"version": 1/"version": 99/' "$tmp/sum/rank-1.gsum" >"$tmp/bad3.gsum"
sed 's/"kind": 0/"kind": 42/' "$tmp/sum/rank-1.gsum" >"$tmp/bad4.gsum"
for b in bad1 bad2 bad3 bad4; do
    "$exe" stragglers "$tmp/$b.gsum" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -ne 3 ] || [ -s "$tmp/out" ] || [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
        echo "FAIL $b: rc $rc, stderr:"; cat "$tmp/err"; fail=1
    fi
done
"$exe" summarize "$r4/rank-0.json.gz" >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL summarize without -o"; fail=1; }
[ $fail -eq 0 ] && echo "ok"
exit $fail
