#!/bin/bash
# Nsight Compute: kernels --ncu on a small export of the views fixture's kernels (golden), the
# export's own percentages in the output (check_ncu.py), gpuscope ncu's ncu command lines with a
# fake `ncu` on PATH that records its arguments and writes the export, and the message where ncu
# is missing. With ../shared/gpu-captures present, the real exports of the H100 captures too:
# every kernel joined to a kernel of its capture.
set -u
exe=${1:?usage: test_ncu.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
exe=$(cd "$(dirname "$exe")" && pwd)/$(basename "$exe")
golden=tests/cli/golden
fixture=tests/data/views_small.json
export_csv=tests/data/ncu/views_small_details.csv
. tests/cli/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check_golden kernels-ncu.table kernels --ncu "$export_csv" "$fixture"
check_golden kernels-ncu-sort-memory.csv kernels --ncu "$export_csv" --sort memory --format csv "$fixture"
ran=$((ran + 1))
python3 tests/cli/check_ncu.py "$exe" "$export_csv" "$fixture" || failed=$((failed + 1))

# Errors: an export that is not one, a missing one.
printf 'a,b\n1,2\n' >"$tmp/bad.csv"
check_error 3 kernels --ncu "$tmp/bad.csv" "$fixture"
check_error 3 kernels --ncu "$tmp/missing.csv" "$fixture"

# gpuscope ncu where ncu is not on PATH: exit 4, one line.
mkdir "$tmp/empty"
ran=$((ran + 1))
msg=$(PATH="$tmp/empty" "$exe" ncu "$fixture" -- python3 train.py 2>&1 >/dev/null)
rc=$?
if [ $rc -ne 4 ] || ! grep -q "^gpuscope: ncu: Nsight Compute's 'ncu' is not on PATH" <<<"$msg"; then
    echo "FAIL ncu without ncu: exit $rc: $msg"
    failed=$((failed + 1))
fi

# A fake ncu: records its arguments, writes the export where --log-file says.
mkdir "$tmp/bin"
cat >"$tmp/bin/ncu" <<FAKE
#!/bin/sh
echo "\$*" >>"$tmp/args"
while [ \$# -gt 0 ]; do
    [ "\$1" = --log-file ] && cp "$PWD/$export_csv" "\$2"
    shift
done
FAKE
chmod +x "$tmp/bin/ncu"
ran=$((ran + 1))
out=$(PATH="$tmp/bin:$PATH" "$exe" ncu --top 3 -o "$tmp/out.csv" "$fixture" -- python3 train.py --steps 5 2>"$tmp/err")
rc=$?
want="--csv --page details --set detailed --kernel-name regex:^ampere_sgemm_128x64_tn$ --launch-skip 0 --launch-count 1 --log-file $tmp/out.csv.part python3 train.py --steps 5
--csv --page details --set detailed --kernel-name regex:^ampere_sgemm_128x64_tn$ --launch-skip 1 --launch-count 1 --log-file $tmp/out.csv.part python3 train.py --steps 5
--csv --page details --set detailed --kernel-name regex:^reduce_kernel$ --launch-skip 0 --launch-count 1 --log-file $tmp/out.csv.part python3 train.py --steps 5"
if [ $rc -ne 0 ] || [ "$(cat "$tmp/args")" != "$want" ]; then
    echo "FAIL gpuscope ncu: exit $rc, ncu ran with:"
    cat "$tmp/args" "$tmp/err"
    failed=$((failed + 1))
fi
# Three runs, each the 3-kernel export: 9 kernels, 6 joined.
ran=$((ran + 1))
if ! grep -q "^Nsight Compute: 9 kernels, 6 joined with the trace's, 3 unmatched" <<<"$out" ||
    [ -e "$tmp/out.csv.part" ]; then
    echo "FAIL gpuscope ncu output:"
    echo "$out"
    failed=$((failed + 1))
fi
check_golden ncu-dry-run.table ncu --dry-run --top 2 "$fixture" -- python3 train.py

# The real exports of the H100 captures (../shared/gpu-captures/README.md).
captures=../shared/gpu-captures
if [ -d "$captures/ncu" ]; then
    for pair in "ncu_gpt_details.csv gpt2_train.gst" "ncu_gpt_raw.csv gpt2_train.gst" \
        "ncu_resnet_details.csv resnet50_unmodified.gst"; do
        set -- $pair
        ran=$((ran + 1))
        python3 tests/cli/check_ncu.py "$exe" "$captures/ncu/$1" "$captures/$2" --all-joined ||
            failed=$((failed + 1))
    done
else
    echo "note: $captures absent: the real ncu exports are not checked"
fi
finish
