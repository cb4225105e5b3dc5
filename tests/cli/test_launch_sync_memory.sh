#!/bin/bash
# Golden tests of the launch, sync and memory views on generated fixtures (tests/data/launch_sync_memory/,
# made by `python3 tests/gen/gen_trace.py --scenario basic --steps 5` and
# `--scenario launch_bound --steps 3`), compared with tests/cli/golden/<case> by `diff -u`.
# The analyses' arithmetic is checked by hand in tests/unit/test_{launch,sync,memory}.c; these
# goldens pin the views: columns, units, formats and options.
#
#   bash tests/cli/test_launch_sync_memory.sh path/to/gpuscope        # run from the source root
#   GS_UPDATE_GOLDEN=1 bash tests/cli/test_launch_sync_memory.sh ...   # rewrite (then review!)
set -u
exe=${1:?usage: test_launch_sync_memory.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
data=tests/data/launch_sync_memory
golden=tests/cli/golden

# case name | fixture | arguments before the fixture
cases=(
    "launch.table|basic.json|launch"
    "launch.csv|basic.json|launch --format csv"
    "launch.json|basic.json|launch --format json"
    "launch-per-step.table|basic.json|launch --per-step"
    "launch-per-step-rank-0-limit-2.json|basic.json|launch --per-step --rank 0 --limit 2 --format json"
    "launch-launch-bound.table|launch_bound.json.gz|launch"
    "launch-launch-bound-per-step.table|launch_bound.json.gz|launch --per-step"
    "sync.table|basic.json|sync"
    "sync.csv|basic.json|sync --format csv"
    "sync.json|basic.json|sync --format json"
    "sync-per-step.table|basic.json|sync --per-step"
    "sync-per-step-step-regex.table|basic.json|sync --per-step --step ^Optimizer.step"
    "sync-launch-bound.table|launch_bound.json.gz|sync"
    "memory.table|basic.json|memory"
    "memory.csv|basic.json|memory --format csv"
    "memory.json|basic.json|memory --format json"
    "memory-ops-limit-8.table|basic.json|memory --ops --limit 8"
    "memory-ops.json|basic.json|memory --ops --limit 3 --format json"
    "memory-timeline-limit-6.table|basic.json|memory --timeline --limit 6"
    "memory-per-step.table|basic.json|memory --per-step"
    "memory-per-step-keep-warmup.csv|basic.json|memory --per-step --keep-warmup --format csv"
    "memory-launch-bound.table|launch_bound.json.gz|memory"
)

. tests/cli/lib.sh
for c in "${cases[@]}"; do
    IFS='|' read -r name fixture argline <<<"$c"
    read -r -a args <<<"$argline"
    check_golden "$name" "${args[@]}" "$data/$fixture"
done

# Errors: one line on stderr, the documented exit code, nothing on stdout.
errors=(
    "2|memory --ops --timeline"
    "2|launch --step"
    "2|sync --sort blocked"
    "2|launch --format xml"
    "2|memory --rank 9"
    "2|sync --step ("
)
for e in "${errors[@]}"; do
    read -r -a args <<<"${e#*|}"
    # the fixture first: `--step` as the last argument must find no value
    check_error "${e%%|*}" "${args[0]}" "$data/basic.json" "${args[@]:1}"
done
finish
