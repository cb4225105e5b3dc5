"""gpuscope from Python: the `gpuscope` command, and its views as pandas DataFrames.

    >>> import gpuscope
    >>> profile = gpuscope.load("train.json.gz")      # or several ranks, or a folder
    >>> profile.kernels().head()

Every view runs the bundled `gpuscope` binary with `--format json` and converts the rows: the
columns have the names and units of the JSON output (doc/output-json.md), and nothing is computed
in Python. Without pandas a view is a list of dicts. doc/python.md has the whole API.
"""
from gpuscope._binary import GpuscopeError, binary, run_json
from gpuscope._profile import VIEWS, Profile, frame, load

__all__ = ["GpuscopeError", "Profile", "VIEWS", "binary", "frame", "load", "run_json", "__version__"]


def _version():
    """The wheel's version; in a source checkout (python/ on sys.path), its VERSION file."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("gpuscope")
    except PackageNotFoundError:
        import os
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "VERSION")
        try:
            with open(path, encoding="utf-8") as f:
                return f.read().strip()
        except OSError:
            return "unknown"


__version__ = _version()
