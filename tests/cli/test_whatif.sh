#!/bin/bash
# gpuscope whatif (doc/whatif.md) on the committed fixtures: golden output in every format, with
# --action, --workers, --explain, --keep-warmup and --rank, on one trace and on a folder of ranks;
# a trace with nothing to replay beside one that has steps; usage errors; then
# tests/cli/check_whatif.py, which reads the JSON: every key there, no action a speedup of 1,
# positive times, one step per kept step, the actions alone best first.
#
#   bash tests/cli/test_whatif.sh path/to/gpuscope          # run from the source root
#   GS_UPDATE_GOLDEN=1 bash tests/cli/test_whatif.sh ...     # rewrite (then review!)
set -u
exe=${1:?usage: test_whatif.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
golden=tests/cli/golden
train=examples/train.json.gz
# A trace whose only event is an operator on the host: no step launched GPU work.
host_only=tests/data/whatif/host_only.json

. tests/cli/lib.sh
# case name, then the arguments (the trace last)
cases=(
    "whatif.table|whatif $train"
    "whatif.csv|whatif --format csv $train"
    "whatif.json|whatif --format json $train"
    "whatif-action.table|whatif --action cuda_graphs,compile $train"
    "whatif-action-workers.json|whatif --action dataloader_workers --workers 8 --format json $train"
    "whatif-explain.table|whatif --explain --action remove_syncs,pinned_memory tests/data/gen/modern.json"
    "whatif-explain.csv|whatif --explain --format csv tests/data/gen/modern.json"
    "whatif-keep-warmup.table|whatif --keep-warmup --action compile $train"
    "whatif-ranks.table|whatif tests/data/ranks/r4"
    "whatif-ranks-rank-2.json|whatif --rank 2 --action no_profiler --format json tests/data/ranks/r4"
    "whatif-not-replayed.table|whatif --action compile $host_only tests/data/gen/modern.json"
    "whatif-not-replayed.json|whatif --format json $host_only tests/data/gen/modern.json"
)
for c in "${cases[@]}"; do
    read -r -a args <<<"${c#*|}"
    check_golden "${c%%|*}" "${args[@]}"
done

# Errors: one line on stderr, the documented exit code, nothing on stdout.
check_error 2 whatif --action ,, $train
check_error 2 whatif --action compile, $train
check_error 2 whatif --action compile,,cuda_graphs $train
check_error 2 whatif --action fast $train
check_error 2 whatif --action "" $train
check_error 2 whatif --workers 0 $train
check_error 2 whatif --workers 1025 $train
check_error 2 whatif --workers 2.5 $train
check_error 2 whatif --workers many $train
check_error 2 whatif --format xml $train
check_error 2 whatif --limit 3 $train
check_error 2 whatif --rank 9 tests/data/ranks/r4
check_error 2 whatif --step 'NoSuchRange' $train
check_error 3 whatif $host_only
check_error 3 whatif $host_only $host_only
check_error 3 whatif tests/data/whatif/absent.json

# What the refusals say: the names --action takes, the name it was given.
ran=$((ran + 1))
msg=$("$exe" whatif --action compile,fast $train 2>&1 >/dev/null)
case $msg in
*"no action is named 'fast'; actions: cuda_graphs compile dataloader_workers "*) ;;
*) fail "--action compile,fast said: $msg" ;;
esac
ran=$((ran + 1))
msg=$("$exe" whatif $host_only 2>&1 >/dev/null)
[ "$msg" = "gpuscope: $host_only: nothing to replay: no kept step launched GPU work" ] ||
    fail "a trace without GPU work said: $msg"

ran=$((ran + 1))
if ! python3 tests/cli/check_whatif.py "$exe"; then
    fail "tests/cli/check_whatif.py"
fi
finish
