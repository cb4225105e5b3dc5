"""Hostile cases for what gpuscope writes: output files, CSV cells, printed commands, names in messages (run by tests/hostile/test_hostile.py)."""

import gzip
import os
import re
import subprocess

import hostile_inputs as h  # noqa: F401
from hostile_case import Case, E, LOSS  # noqa: F401

# ---- inputs --------------------------------------------------------------------------------------

# A kernel whose name, pasted inside single quotes, ends the quote and runs `touch X`: the
# template brackets make the whole name the function name ncu is given.
INJECTING = "<a';touch X;echo '>"
# A kernel whose name sets the terminal's title (OSC) and clears the screen (CSI).
ESCAPING = r"<k\u001b]0;pwned\u0007\u001b[2J>"
ESCAPING_REGEX = "<k\x1b\\]0;pwned\x07\x1b\\[2J>"  # ncu's regex: brackets escaped
# Cells a spreadsheet would run as formulas, one a plain number that must stay one.
ESCAPING_FILE = b"\x1b[31mred\xc2\x9b\xffx.json"
FORMULAS = ["=HYPERLINK(1)", "+SUM(1)", "-2+3", "@SUM(1)", r"\tTAB", "-3"]


def kernels_named(tmp, names, file="named.json"):
    """One kernel of each name, one after the other, and the folder for the case's paths."""
    h.write(os.path.join(tmp, file), h.trace([
        h.event(n, 10 + 10 * i, 5, cat="kernel", pid=0, tid=7) for i, n in enumerate(names)]))
    return tmp


def trace_and_link(tmp, to):
    """good.json, and out.json, a symbolic link to `to`; the folder for the case's paths."""
    h.good_trace(tmp)
    os.symlink(to, tmp + "/out.json")
    return tmp


def trace_and_device(tmp):
    """good.json and full, a character device that fails every write (as /dev/full): made with
    mknod as root, else a symbolic link to /dev/full."""
    h.good_trace(tmp)
    if os.geteuid() == 0:
        os.mknod(tmp + "/full", 0o666 | 0o020000, os.makedev(1, 7))
    else:
        os.symlink("/dev/full", tmp + "/full")
    return tmp


def trace_and_alias(tmp):
    """good.json and alias.json, a symbolic link to it."""
    h.good_trace(tmp)
    os.symlink("good.json", tmp + "/alias.json")
    return tmp


def sync_bound_named(tmp):
    """The planted synchronization-bound trace with its blocking operator, aten::item, renamed to
    clear the screen (and the operator inside it, which takes its place otherwise): the verdict's
    evidence names it."""
    text = gzip.open("tests/gen/scenarios/sync_bound.json.gz", "rt").read()
    for name in ("aten::item", "aten::_local_scalar_dense"):
        text = text.replace('"%s"' % name, '"%s\\u001b[2J"' % name)
    h.write(tmp + "/sync.json", text)
    return tmp + "/sync.json"


def escaping_file_name(tmp):
    """An empty file whose name holds ESC [ 31 m, a C1 CSI (U+009B) and a byte that is not UTF-8."""
    h.write(os.path.join(tmp.encode(), ESCAPING_FILE), "")
    return tmp

# ---- checks of what a command left ---------------------------------------------------------------


def still_a_link(name):
    return lambda tmp: [] if os.path.islink(tmp + "/" + name) else [name + " is no longer the link"]


def still_a_device(tmp):
    made = os.lstat(tmp + "/full") if os.path.lexists(tmp + "/full") else None
    return [] if made and (os.path.islink(tmp + "/full") or (made.st_mode & 0o170000) == 0o020000) \
        else ["the device was removed or replaced"]


def trace_intact(tmp):
    """good.json still the trace h.good_trace wrote."""
    fresh = h.good_trace(tmp + "/..", "gpuscope-hostile-fresh.json")
    try:
        same = open(fresh, "rb").read() == open(tmp + "/good.json", "rb").read()
    finally:
        os.unlink(fresh)
    return [] if same else ["the trace was overwritten"]


def no_stray_files(want):
    def check(tmp):
        left = sorted(set(os.listdir(tmp)) - set(want) - {"stdout", "stderr"})
        return ["left behind: " + ", ".join(left)] if left else []
    return check


def pasted_commands_are_inert(regex):
    """The printed ncu lines, run by sh with ncu a function that lists its arguments: nothing else
    runs, and each --kernel-name argument is `regex`, that of the whole name."""
    def check(tmp):
        got = subprocess.run(["sh", "-c", 'ncu() { printf "%s\\n" "$@" >>args; }; . ./stdout'],
                             cwd=tmp, capture_output=True)
        problems = ["sh: " + got.stderr.decode(errors="replace")] if got.returncode else []
        if os.path.exists(tmp + "/X"):
            problems.append("pasting the command ran touch X")
        args = open(tmp + "/args", "rb").read().decode() if os.path.exists(tmp + "/args") else ""
        got = [a for a in args.split("\n") if a.startswith("regex:")]
        if not got or any(r != "regex:^" + regex + "$" for r in got):
            problems.append("--kernel-name arguments %r, want regex:^%s$" % (got, regex))
        raw = open(tmp + "/stdout", "rb").read()
        if any(b < 0x20 and b != 0x0a or b == 0x7f for b in raw):
            problems.append("control characters printed: %r" % raw[:200])
        return problems
    return check


def cases():
    dry_run = ["ncu", "--dry-run", "--top", "1", "{}/named.json", "--", "prog", "arg"]
    return [
        # item: a write error never removes what gpuscope did not create
        Case("export -o a symbolic link to /dev/full", lambda t: trace_and_link(t, "/dev/full"),
             ["export", "-o", "{}/out.json", "{}/good.json"], 4,
             E % ".*out.json" + "write error: No space left on device\n",
             after=still_a_link("out.json")),
        Case("export -o a device that fails writes", trace_and_device,
             ["export", "-o", "{}/full", "{}/good.json"], 4,
             E % ".*full" + "write error: No space left on device\n", after=still_a_device),
        Case("export --format sqlite -o a link to /dev/full",
             lambda t: trace_and_link(t, "/dev/full"),
             ["export", "--format", "sqlite", "-o", "{}/out.json", "{}/good.json"], 4,
             E % ".*out.json" + "not a regular file: the database is written as a new file\n",
             after=still_a_link("out.json")),
        Case("export -o /dev/null", trace_and_alias, ["export", "-o", "/dev/null", "{}/good.json"],
             0, "", after=lambda t: [] if os.path.exists("/dev/null") and not os.path.isfile(
                 "/dev/null") else ["/dev/null was replaced"]),
        # item: an output that is an input is refused; nothing is written beside it
        Case("report --html TRACE TRACE", lambda t: (h.good_trace(t), t)[1],
             ["report", "--html", "{}/good.json", "{}/good.json"], 2,
             E % ".*good.json" + "the output is also an input: write it to another file\n",
             after=lambda t: trace_intact(t) + no_stray_files(["good.json"])(t)),
        Case("summarize -o TRACE TRACE", lambda t: (h.good_trace(t), t)[1],
             ["summarize", "-o", "{}/good.json", "{}/good.json"], 2,
             E % ".*good.json" + "the output is also an input: write it to another file\n",
             after=trace_intact),
        Case("export -o TRACE TRACE", lambda t: (h.good_trace(t), t)[1],
             ["export", "-o", "{}/good.json", "{}/good.json"], 2,
             E % ".*good.json" + "the output is also an input: write it to another file\n",
             after=trace_intact),
        Case("export -o a link to the trace", trace_and_alias,
             ["export", "-o", "{}/alias.json", "{}/good.json"], 2,
             E % ".*alias.json" + "the output is also an input: write it to another file\n",
             after=lambda t: trace_intact(t) + still_a_link("alias.json")(t)),
        Case("export --format sqlite -o TRACE TRACE", lambda t: (h.good_trace(t), t)[1],
             ["export", "--format", "sqlite", "-o", "{}/good.json", "{}/good.json"], 2,
             E % ".*good.json" + "the output is also an input: write it to another file\n",
             after=trace_intact),
        Case("ncu -o TRACE TRACE", lambda t: (h.good_trace(t), t)[1],
             ["ncu", "-o", "{}/good.json", "{}/good.json", "--", "true"], 2,
             E % ".*good.json" + "the output is also an input: write it to another file\n",
             after=trace_intact),
        Case("export -o a new file leaves only it", lambda t: (h.good_trace(t), t)[1],
             ["export", "-o", "{}/out.json", "{}/good.json"], 0, "",
             after=no_stray_files(["good.json", "out.json"])),
        # item: printed command lines are quoted for the shell
        Case("ncu --dry-run, a kernel name that ends the quote",
             lambda t: kernels_named(t, [INJECTING]), dry_run, 0, "",
             out=r"--kernel-name 'regex:\^<a'\\''", after=pasted_commands_are_inert(INJECTING)),
        Case("ncu --dry-run, a kernel name of terminal escapes",
             lambda t: kernels_named(t, [ESCAPING]), dry_run, 0, "",
             out="--kernel-name", after=pasted_commands_are_inert(ESCAPING_REGEX)),
        # item: names in messages and CSV cells
        Case("a file name of terminal escapes in a message", escaping_file_name,
             ["kernels", "{}/" + os.fsdecode(ESCAPING_FILE)], 3,
             r"gpuscope: .*/\\x1b\[31mred\\xc2\\x9b\\xffx\.json: empty file\n"),
        Case("an option value of terminal escapes in a message", lambda t: (h.good_trace(t), t)[1],
             ["kernels", "--sort", "\x1b[2J", "{}/good.json"], 2,
             r"gpuscope: kernels: cannot sort by '\\x1b\[2J'; columns:[a-z_ ]+\n"),
        Case("a command of terminal escapes", lambda t: t, ["\x1b[2J"], 2,
             r"gpuscope: '\\x1b\[2J' is not a command; see 'gpuscope --help'\n"),
        Case("report: a name of terminal escapes in the verdict's evidence", sync_bound_named,
             ["report", "{}"], 0, "", out="mostly under aten::item\ufffd\\[2J\n"),
        Case("CSV cells that a spreadsheet would run", lambda t: kernels_named(t, FORMULAS),
             ["kernels", "--format", "csv", "--sort", "name", "{}/named.json"], 0, "",
             out="(?s)" + "".join("(?=.*,%s\n)" % re.escape(c) for c in
                                  ["'=HYPERLINK(1)", "'+SUM(1)", "'-2+3", "'@SUM(1)", "'\tTAB",
                                   "-3"])),
    ]
