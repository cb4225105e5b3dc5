#!/bin/bash
# The command pages in doc/ show what the program does: for every command `gpuscope --help`
# lists, the block between <!-- help:begin --> and <!-- help:end --> of doc/COMMAND.md is exactly
# `gpuscope COMMAND --help` (and -h), and every fenced block after <!-- golden:NAME --> is exactly
# tests/cli/golden/NAME (itself checked by test_views.sh). And --help describes every option and
# every column it lists: those lines are made from the option specs and the column tables
# (src/cmd/help.c), so an option or a column given no help shows there as a bare name.
set -u
exe=${1:?usage: test_docs.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }

# The first fenced block after the line matching $2 in file $1, fences removed.
block_after() {
    awk -v marker="$2" '
        $0 == marker { found = 1; next }
        found && /^```/ { if (inside) exit; inside = 1; next }
        inside { print }' "$1"
}

# The names under "commands:" in `gpuscope --help`, up to the blank line after them.
commands=$("$exe" --help | awk '/^commands:$/ { on = 1; next } on && /^$/ { exit } on { print $1 }')
[ -n "$commands" ] || { echo "FAIL: 'gpuscope --help' lists no command"; exit 1; }

# The sections of a --help written as paragraphs, not as a name and its text per line: diff's.
prose='^(step time|setup|tables):$'

# The entries of the sections from "options:" on that say nothing: a name at column 2 with no
# text two spaces after it and no line under it. Those are the options, the column lines made
# from the tables ("columns:", idle's "definitions:", breakdown's "categories:" ...) and the
# definitions written beside them, all but the paragraphs of $prose.
undescribed() {
    awk -v prose="$prose" '
        function flush() { if (pending != "") print pending; pending = "" }
        /^options:$/ { on = 1 }
        /^[^ ].*:$/ { flush(); checked = on && $0 !~ prose; next }
        !checked { next }
        /^  [^ ]/ { flush(); if (substr($0, 3) !~ /[^ ]  +[^ ]/) pending = $0; next }
        /^   +[^ ]/ { pending = ""; next }
        { flush(); checked = 0 }
        END { flush() }'
}

failed=0
for cmd in $commands; do
    bare=$("$exe" "$cmd" --help | undescribed)
    if [ -n "$bare" ]; then
        printf 'FAIL: %s --help says nothing of:\n%s\n' "$cmd" "$bare"
        failed=$((failed + 1))
    fi
    page=doc/$cmd.md
    if [ ! -f "$page" ]; then
        echo "FAIL: '$cmd' has no page $page"
        failed=$((failed + 1))
        continue
    fi
    for flag in --help -h; do
        if ! diff -u <(block_after "$page" "<!-- help:begin -->") <("$exe" "$cmd" "$flag"); then
            echo "FAIL: '$cmd $flag' differs from the help block in $page"
            failed=$((failed + 1))
        fi
    done
    for name in $(sed -n 's/^<!-- golden:\(.*\) -->$/\1/p' "$page"); do
        if ! diff -u "tests/cli/golden/$name" <(block_after "$page" "<!-- golden:$name -->"); then
            echo "FAIL: the example $name in $page differs from tests/cli/golden/$name"
            failed=$((failed + 1))
        fi
    done
done
[ $failed -eq 0 ] && echo "ok: help and examples of the $(echo $commands | wc -w) command pages match"
exit $((failed > 0))
