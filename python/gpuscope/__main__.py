"""`python -m gpuscope ARGS` and the `gpuscope` command of the wheel: become the bundled binary.

The process is replaced (exec), so the binary gets the same argv, and its exit status and any
signal that ends it reach the caller as they would from the binary itself.
"""
import os
import signal
import sys

from gpuscope._binary import GpuscopeError, binary

# Python starts with these ignored, and an ignored signal stays ignored across exec: restore the
# defaults a shell would give, so that `gpuscope ... | head` ends on SIGPIPE like the binary does
# and the programs `gpuscope run` starts inherit what they would without Python in between.
_PYTHON_IGNORES = ("SIGPIPE", "SIGXFSZ")


def main():
    try:
        exe = binary()
    except GpuscopeError as e:
        print(e.stderr, file=sys.stderr)
        return e.returncode
    for name in _PYTHON_IGNORES:
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    try:
        os.execv(exe, [exe] + sys.argv[1:])
    except OSError as e:
        print(f"gpuscope: cannot run {exe}: {e.strerror}", file=sys.stderr)
        return 4


if __name__ == "__main__":
    sys.exit(main())
