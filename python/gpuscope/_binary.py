"""Where the gpuscope binary is, and running it for JSON."""
import json
import os
import subprocess

# The wheel installs the binary and its agent side by side in gpuscope/_bin/ (the launcher finds
# the agent beside itself). GPUSCOPE_BINARY points the package at another build instead, e.g. a
# source checkout's build/gpuscope.
_BUNDLED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bin", "gpuscope")


class GpuscopeError(RuntimeError):
    """What every failure of the package raises: gpuscope exited with an error, or could not be
    run, or was asked for something that is not there. `argv` is what ran (or would have),
    `returncode` gpuscope's exit code or the one it would have given (2 usage, 3 bad input,
    4 environment) and `stderr` what it said."""

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


def _arg(argv, value):
    """One argument as text: a str, bytes or path-like; anything else is a usage error."""
    try:
        value = os.fspath(value)
    except TypeError:
        raise GpuscopeError(argv, 2, f"gpuscope: {value!r} is not a path or an option "
                            "value") from None
    return os.fsdecode(value)


def run_json(command, *args, traces=()):
    """Runs `gpuscope COMMAND --format json ARGS... -- TRACES...` and returns the parsed
    document. The traces come after `--`, so a file named like an option ("--help") is read as
    a trace; ARGS are options."""
    argv = [binary(), command, "--format", "json"]
    argv += [_arg(argv, a) for a in args]
    argv += ["--"] + [_arg(argv, t) for t in traces]
    try:
        done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as e:
        raise GpuscopeError(argv, 4, f"gpuscope: cannot run {argv[0]}: {e.strerror}") from e
    stderr = done.stderr.decode("utf-8", "replace")
    if done.returncode != 0:
        raise GpuscopeError(argv, done.returncode, stderr)
    try:
        return json.loads(done.stdout)
    except ValueError as e:  # json.JSONDecodeError and invalid UTF-8 alike
        raise GpuscopeError(argv, 3, f"gpuscope: {command} printed no JSON document ({e})") from e
