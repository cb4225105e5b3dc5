#!/usr/bin/env python3
"""What gpuscope leaves where it writes, in the cases a hostile Case cannot set up:

- a write that fails half way (the file size limit, RLIMIT_FSIZE, as a full disk would) leaves
  the file that was there as it was, and no temporary file beside it, for every command that
  writes a file;
- two gpuscope writing the same file at once leave one whole output, never a mix of both;
- a file that is replaced keeps its permissions;
- kernel names in gpuscope ncu's progress lines reach the terminal escaped.

    python3 tests/hostile/check_output_files.py path/to/gpuscope
"""

import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile_inputs as h  # noqa: E402

OLD = b"what was there before\n"


def big_trace(tmp, name, kernels, prefix="kernel"):
    """`kernels` kernels on one stream: an export of a few MB."""
    return h.write(os.path.join(tmp, name), h.trace([
        h.event("%s_%d" % (prefix, i), 10 + 3 * i, 2, cat="kernel", pid=0, tid=7)
        for i in range(kernels)]))


def limited(max_bytes):
    """In the child: files may not grow past max_bytes, and going past fails the write (EFBIG)
    instead of killing the process (SIGXFSZ ignored, as exec keeps it)."""
    def set_limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (max_bytes, max_bytes))
    return set_limit


def check_failed_write(exe, tmp, problems):
    trace = big_trace(tmp, "trace.json", 2000)
    commands = {
        "export": ["export", "-o", "{out}", trace],
        "export .gz": ["export", "-o", "{out}.gz", trace],
        "export --format sqlite": ["export", "--format", "sqlite", "-o", "{out}", trace],
        "export --format csv --table": ["export", "--format", "csv", "--table", "kernels", "-o",
                                        "{out}", trace],
        "report --html": ["report", "--html", "{out}", trace],
        "summarize": ["summarize", "-o", "{out}", trace],
    }
    for what, args in commands.items():
        folder = tempfile.mkdtemp(dir=tmp)
        out = os.path.join(folder, "out")
        if what.endswith(".gz"):
            out += ".gz"
        h.write(out, OLD)
        argv = [exe] + [a.replace("{out}", os.path.join(folder, "out")) for a in args]
        got = subprocess.run(argv, capture_output=True, preexec_fn=limited(4096))
        err = got.stderr.decode(errors="replace")
        if got.returncode != 4 or "gpuscope: " not in err or err.count("\n") != 1:
            problems.append("%s past the file size limit: exit %d, want 4: %r"
                            % (what, got.returncode, err))
        if not os.path.exists(out) or open(out, "rb").read() != OLD:
            problems.append("%s past the file size limit: the file that was there is gone" % what)
        left = sorted(set(os.listdir(folder)) - {os.path.basename(out)})
        if left:
            problems.append("%s past the file size limit: left behind %s" % (what, left))


def check_concurrent(exe, tmp, problems):
    # two traces whose exports have about the same length, started at once: their writes overlap
    first = big_trace(tmp, "first.json", 30000, "a")
    second = big_trace(tmp, "second.json", 30000, "bb")
    want = []
    for trace in (first, second):
        subprocess.run([exe, "export", "-o", tmp + "/same.json", trace], check=True)
        want.append(open(tmp + "/same.json", "rb").read())
    for round_ in range(6):
        os.unlink(tmp + "/same.json")
        procs = [subprocess.Popen([exe, "export", "-o", tmp + "/same.json", t])
                 for t in (first, second)]
        if any(p.wait() != 0 for p in procs):
            problems.append("concurrent exports: one failed")
        got = open(tmp + "/same.json", "rb").read()
        if got not in want:
            problems.append("concurrent exports, round %d: the file is neither export (%d bytes; "
                            "they have %d and %d)" % (round_, len(got), len(want[0]),
                                                      len(want[1])))
            break
    left = sorted(set(os.listdir(tmp)) - {"first.json", "second.json", "same.json"})
    if left:
        problems.append("concurrent exports: left behind %s" % left)


def check_mode_kept(exe, tmp, problems):
    out = h.write(tmp + "/kept.json", OLD)
    os.chmod(out, 0o640)
    got = subprocess.run([exe, "export", "-o", out, h.good_trace(tmp)], capture_output=True)
    mode = os.stat(out).st_mode & 0o7777
    if got.returncode != 0 or mode != 0o640:
        problems.append("export over a 0640 file: exit %d, mode %o" % (got.returncode, mode))


def check_ncu_progress(exe, tmp, problems):
    """A fake ncu that measures nothing: gpuscope says which kernel it runs on, then that the
    export is empty."""
    os.mkdir(tmp + "/bin")
    h.write(tmp + "/bin/ncu", "#!/bin/sh\nexit 0\n")
    os.chmod(tmp + "/bin/ncu", 0o755)
    trace = h.write(tmp + "/named.json", h.trace([
        h.event(r"k\u001b[2J\u009b", 10, 5, cat="kernel", pid=0, tid=7)]))
    env = dict(os.environ, PATH=tmp + "/bin:" + os.environ["PATH"])
    got = subprocess.run([exe, "ncu", "--top", "1", "-o", tmp + "/ncu.csv", trace, "--", "true"],
                         capture_output=True, env=env)
    err = got.stderr
    if b"\x1b" in err or b"\xc2\x9b" in err or b"k\\x1b[2J\\xc2\\x9b" not in err:
        problems.append("ncu progress: the kernel name is not escaped: %r" % err)


def main():
    exe = os.path.abspath(sys.argv[1])
    problems = []
    for check in (check_failed_write, check_concurrent, check_mode_kept, check_ncu_progress):
        tmp = tempfile.mkdtemp(prefix="gpuscope-outputs-")
        try:
            before = len(problems)
            check(exe, tmp, problems)
            print("%s %s" % ("ok  " if len(problems) == before else "FAIL", check.__name__))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    for p in problems:
        print("     " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
