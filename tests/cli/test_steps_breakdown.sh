#!/bin/bash
# Golden tests of the steps and breakdown views in every format and with their options, on
# tests/data/steps_small.json (made by `python3 tests/gen/gen_trace.py --steps 4 --seed 3`: four
# ProfilerStep#N, the first a warm-up, a DataLoader range per step). The step durations equal the
# generator's answers; the breakdown with --keep-warmup --tb-compat equals what the TensorBoard
# plugin computes on the same file (tests/anchors/README-tb.md).
#
#   bash tests/cli/test_steps_breakdown.sh path/to/gpuscope          # run from the source root
#   GS_UPDATE_GOLDEN=1 bash tests/cli/test_steps_breakdown.sh ...     # rewrite (then review!)
set -u
exe=${1:?usage: test_steps_breakdown.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
fixture=tests/data/steps_small.json
golden=tests/cli/golden

# case name, then the arguments before the fixture
cases=(
    "steps.table|steps"
    "steps.csv|steps --format csv"
    "steps.json|steps --format json"
    "steps-keep-warmup.table|steps --keep-warmup"
    "steps-regex.table|steps --step ProfilerStep#[23]"
    "breakdown.table|breakdown"
    "breakdown.csv|breakdown --format csv"
    "breakdown.json|breakdown --format json"
    "breakdown-keep-warmup-limit-2.table|breakdown --keep-warmup --limit 2"
    "breakdown-tb-compat.json|breakdown --keep-warmup --tb-compat --format json"
)

. tests/cli/lib.sh
for c in "${cases[@]}"; do
    read -r -a args <<<"${c#*|}"
    check_golden "${c%%|*}" "${args[@]}" "$fixture"
done

# Errors: one line on stderr, the documented exit code, nothing on stdout.
errors=(
    "2|steps --step ("
    "2|steps --step ^no-such-range$"
    "2|breakdown --step"
    "2|breakdown --sort total"
    "2|steps --format xml"
)
for e in "${errors[@]}"; do
    read -r -a args <<<"${e#*|}"
    check_error "${e%%|*}" "${args[0]}" "$fixture" "${args[@]:1}"
done
finish
