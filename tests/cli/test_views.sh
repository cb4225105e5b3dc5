#!/bin/bash
# Golden tests of the views: every command in every format (and the grouping, sort, limit and rank
# options) on tests/data/views_small.json, compared with tests/cli/golden/<case> by `diff -u`.
# The numbers in the goldens were checked by hand against the definitions in doc/<command>.md;
# the fixture's timeline is laid out in tests/data/views_small.md.
#
#   bash tests/cli/test_views.sh path/to/gpuscope          # run from the source root
#   GS_UPDATE_GOLDEN=1 bash tests/cli/test_views.sh ...     # rewrite the goldens (then review!)
set -u
exe=${1:?usage: test_views.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
fixture=tests/data/views_small.json
golden=tests/cli/golden

# case name, then the arguments before the fixture
cases=(
    "kernels.table|kernels"
    "kernels.csv|kernels --format csv"
    "kernels.json|kernels --format json"
    "kernels-by-launch.table|kernels --by-launch"
    "kernels-by-launch.json|kernels --by-launch --format json"
    "kernels-sort-instances.csv|kernels --sort instances --format csv"
    "ops.table|ops"
    "ops.csv|ops --format csv"
    "ops.json|ops --format json"
    "ops-by-shape.table|ops --group-by-shape"
    "ops-by-shape.json|ops --group-by-shape --format json"
    "ops-sort-self-cpu-limit.table|ops --sort self_cpu --limit 4"
    "callsites.table|callsites"
    "callsites.csv|callsites --format csv"
    "callsites.json|callsites --format json"
    "callsites-tree-all-steps.json|callsites --tree --all-steps --format json"
    "callsites-modules.table|callsites --modules"
    "api.table|api"
    "api.csv|api --format csv"
    "api.json|api --format json"
    "memcpy.table|memcpy"
    "memcpy.csv|memcpy --format csv"
    "memcpy.json|memcpy --format json"
    "memcpy-sort-bandwidth.table|memcpy --sort bandwidth"
    "report.table|report"
    "report.json|report --format json"
    "report-limit-2-rank-0.table|report --limit 2 --rank 0"
)

. tests/cli/lib.sh
for c in "${cases[@]}"; do
    read -r -a args <<<"${c#*|}"
    check_golden "${c%%|*}" "${args[@]}" "$fixture"
done

# Errors: one line on stderr, the documented exit code, nothing on stdout.
errors=(
    "2|kernels --format xml"
    "2|kernels --sort nope"
    "2|kernels --limit -1"
    "2|kernels --bogus"
    "2|callsites --sort nope"
    "2|callsites --depth x"
    "2|kernels --format"
    "2|report --format csv"
    "2|report --sort total"
    "2|ops --rank 7"
    "2|memcpy"
    "3|api tests/data/does-not-exist.json"
)
for e in "${errors[@]}"; do
    read -r -a args <<<"${e#*|}"
    # The fixture goes right after the command (options may follow paths), except in the case
    # that checks a command given no trace at all.
    [ "${args[*]}" = memcpy ] || args=("${args[0]}" "$fixture" "${args[@]:1}")
    check_error "${e%%|*}" "${args[@]}"
done
finish
