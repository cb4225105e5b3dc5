"""Where the gpuscope binary is, and running it for JSON."""
import json
import os
import subprocess

# The wheel installs the binary and its agent side by side in gpuscope/_bin/ (the launcher finds
# the agent beside itself). GPUSCOPE_BINARY points the package at another build instead, e.g. a
# source checkout's build/gpuscope.
_BUNDLED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bin", "gpuscope")


class GpuscopeError(RuntimeError):
    """gpuscope exited with an error: `argv` is what ran, `returncode` its exit code (2 usage,
    3 bad input, 4 environment) and `stderr` what it said."""

    def __init__(self, argv, returncode, stderr):
        self.argv = list(argv)
        self.returncode = returncode
        self.stderr = stderr
        lines = [line for line in stderr.splitlines() if line.strip()]
        super().__init__(lines[-1] if lines else f"gpuscope exited with status {returncode}")


def binary():
    """The path of the gpuscope binary this package runs."""
    path = os.environ.get("GPUSCOPE_BINARY") or _BUNDLED
    if not os.access(path, os.X_OK):
        raise GpuscopeError([path], 4, f"gpuscope: no executable binary at {path} (install the "
                            "wheel, or set GPUSCOPE_BINARY to a built gpuscope)")
    return path


def run_json(command, *args):
    """Runs `gpuscope COMMAND --format json ARGS...` and returns the parsed document."""
    argv = [binary(), command, "--format", "json", *[os.fspath(a) for a in args]]
    done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if done.returncode != 0:
        raise GpuscopeError(argv, done.returncode, done.stderr.decode("utf-8", "replace"))
    return json.loads(done.stdout)
