#!/bin/bash
# gpuscope stragglers on the generated multi-rank profiles of tests/data/ranks (README.md there):
# golden output in every format and with its options, usage errors, then tests/gen/check_ranks.py,
# which checks the numbers against the generator's planted answers (straggler, clock offsets
# within 5 us, residual, exposed communication, the verdict naming the straggler first, no
# straggler finding on a balanced profile) and that the committed files are reproduced.
#
#   bash tests/cli/test_stragglers.sh path/to/gpuscope          # run from the source root
#   GS_UPDATE_GOLDEN=1 bash tests/cli/test_stragglers.sh ...     # rewrite (then review!)
set -u
exe=${1:?usage: test_stragglers.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
r4=tests/data/ranks/r4
r8=tests/data/ranks/r8
golden=tests/cli/golden

# case name, then the arguments before the profile
cases=(
    "stragglers-r4.table|stragglers"
    "stragglers-r4.csv|stragglers --format csv"
    "stragglers-r4.json|stragglers --format json"
    "stragglers-r4-collectives-limit-3.table|stragglers --collectives --limit 3"
    "stragglers-r4-no-align.table|stragglers --no-align"
    "stragglers-r4-rank-1.table|stragglers --rank 1"
)

. tests/cli/lib.sh
for c in "${cases[@]}"; do
    read -r -a args <<<"${c#*|}"
    check_golden "${c%%|*}" "${args[@]}" "$r4"
done
check_golden "stragglers-r8.table" stragglers "$r8"

# Errors: one line on stderr, the documented exit code, nothing on stdout.
check_error 2 stragglers "$r4" --format xml
check_error 2 stragglers "$r4" --sort last
check_error 2 stragglers "$r4" --no-such-option
check_error 3 stragglers tests/data/ranks/r4.answers.json

ran=$((ran + 1))
if ! python3 tests/gen/check_ranks.py "$exe"; then
    echo "FAIL tests/gen/check_ranks.py"
    failed=$((failed + 1))
fi
finish
