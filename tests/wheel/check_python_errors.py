#!/usr/bin/env python3
"""The Python package (python/gpuscope, doc/python.md) from the source tree, on a built binary:
traces named like options are read as traces (the package puts `--` before them), and every
failure raises gpuscope.GpuscopeError with gpuscope's exit code class: no trace, a trace that is
not a path, a missing file, a view that does not exist, a binary that cannot run, output that is
not JSON. Runs without pandas (records) and without installing anything.

usage: check_python_errors.py GPUSCOPE      (from the source root)
"""
import os
import shutil
import stat
import sys
import tempfile

failed = 0


def check(name, ok, detail=""):
    global failed
    if not ok:
        failed += 1
        print(f"FAIL {name}{': ' + detail if detail else ''}")


def raises(name, code, call, message):
    """call() raises GpuscopeError with returncode `code` and `message` in its text."""
    try:
        call()
    except gpuscope.GpuscopeError as e:
        check(name, e.returncode == code and message in str(e),
              f"returncode {e.returncode}, message {str(e)!r}")
        return
    except Exception as e:  # noqa: BLE001: any other exception is the failure under test
        check(name, False, f"raised {type(e).__name__}: {e}")
        return
    check(name, False, "raised nothing")


def main():
    exe = os.path.abspath(sys.argv[1])
    os.environ["GPUSCOPE_BINARY"] = exe
    example = os.path.abspath("examples/train.json.gz")
    want = gpuscope.load(example).records("kernels")
    check("the example's kernels", len(want) > 0)
    tmp = tempfile.mkdtemp()
    try:
        os.chdir(tmp)
        for name in ("--help", "-h", "--rank"):
            shutil.copy(example, name)
            try:
                got = gpuscope.load(name).records("kernels")
                check(f"a trace named {name}", got == want, f"{len(got)} rows, want {len(want)}")
            except Exception as e:  # noqa: BLE001
                check(f"a trace named {name}", False, f"raised {type(e).__name__}: {e}")
        # Every command the package runs takes the `--`.
        named_help = gpuscope.load("--help")
        for view in gpuscope.VIEWS:
            try:
                named_help.records(view)
            except Exception as e:  # noqa: BLE001
                check(f"{view} of a trace named --help", False, f"raised {type(e).__name__}: {e}")
        raises("no trace", 2, lambda: gpuscope.load(), "no trace given")
        raises("a trace that is no path", 2, lambda: gpuscope.load(3), "not 3")
        raises("a missing trace", 3, lambda: gpuscope.load("missing.json").records("kernels"),
               "missing.json: No such file or directory")
        raises("a view that does not exist", 2, lambda: gpuscope.load("--help").records("nope"),
               "no view 'nope'")
        raises("an option that prints help", 3,
               lambda: gpuscope.load("--help").records("kernels", help=True),
               "printed no JSON document")
        broken = os.path.join(tmp, "not-a-program")
        with open(broken, "w") as f:
            f.write("not a program\n")
        os.chmod(broken, stat.S_IRWXU)
        os.environ["GPUSCOPE_BINARY"] = broken
        raises("a binary that cannot run", 4, lambda: gpuscope.load("--help").records("kernels"),
               "cannot run")
    finally:
        os.chdir("/")
        shutil.rmtree(tmp)
    print("ok" if not failed else f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                    "python"))
    import gpuscope  # noqa: E402: from the source tree, after its path is set
    sys.exit(main())
