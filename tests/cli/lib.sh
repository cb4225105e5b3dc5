# Shared by the CLI tests: source it after setting `exe` (the gpuscope binary) and `golden` (the
# folder of expected outputs). Each check counts; `finish` prints the tally and sets the status.
failed=0
ran=0

# fail TEXT: one failed check, said.
fail() {
    echo "FAIL $*"
    failed=$((failed + 1))
}

# check NAME ACTUAL EXPECTED: one check that ACTUAL is EXPECTED (a test may define its own check
# after sourcing this file).
check() {
    ran=$((ran + 1))
    [ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
}

# check_golden NAME ARGS...: gpuscope ARGS exits 0 and prints exactly golden/NAME.
# GS_UPDATE_GOLDEN=1 rewrites golden/NAME instead (review the diff before committing!).
check_golden() {
    local name=$1 out rc
    shift
    ran=$((ran + 1))
    out=$("$exe" "$@" 2>&1)
    rc=$?
    # Paths in the test's temporary folder show as bare names: goldens hold no /tmp/tmp.XXXX/.
    [ -n "${tmp:-}" ] && out=${out//"$tmp/"/}
    if [ $rc -ne 0 ]; then
        echo "FAIL $name: exit $rc"
        echo "$out"
        failed=$((failed + 1))
    elif [ -n "${GS_UPDATE_GOLDEN:-}" ]; then
        printf '%s\n' "$out" >"$golden/$name"
        echo "updated $golden/$name"
    elif ! diff -u "$golden/$name" <(printf '%s\n' "$out"); then
        echo "FAIL $name: output differs from $golden/$name"
        failed=$((failed + 1))
    fi
}

# check_error WANT ARGS...: gpuscope ARGS exits WANT with one line on stderr that starts
# 'gpuscope: ' and nothing on stdout.
check_error() {
    local want=$1 err stdout rc lines
    shift
    ran=$((ran + 1))
    err=$(mktemp)
    stdout=$("$exe" "$@" 2>"$err")
    rc=$?
    lines=$(wc -l <"$err")
    if [ $rc -ne "$want" ] || [ -n "$stdout" ] || [ "$lines" -ne 1 ] ||
        ! grep -q '^gpuscope: ' "$err"; then
        echo "FAIL '$*': exit $rc (want $want), stderr:"
        cat "$err"
        failed=$((failed + 1))
    fi
    rm -f "$err"
}

finish() {
    echo "$((ran - failed)) passed, $failed failed"
    [ $failed -eq 0 ]
}
