"""A profile (one trace, or one per rank) and its views as DataFrames or lists of dicts."""
import os

from gpuscope._binary import GpuscopeError, run_json

# Each view: the command that computes it and where its rows are in that command's JSON
# document. A path through a list of objects (steps' "traces", report's "diagnosis") gathers the
# rows of every element; rows that lack the element's "rank" get it, so several ranks stay apart.
VIEWS = {
    "kernels": ("kernels", ("rows",)),
    "ops": ("ops", ("rows",)),
    "api": ("api", ("rows",)),
    "memcpy": ("memcpy", ("rows",)),
    "steps": ("steps", ("traces", "rows")),
    "breakdown": ("breakdown", ("traces", "rows")),
    "idle": ("idle", ("temporal",)),
    "idle_gaps": ("idle", ("gaps",)),
    "comm": ("comm", ("ranks",)),
    "collectives": ("comm", ("collectives",)),
    "memory": ("memory", ("rows",)),
    "verdict": ("report", ("diagnosis", "verdict")),
}


def _flags(options):
    """Keyword options as command-line options: limit=5 -> --limit 5, by_launch=True ->
    --by-launch; False and None leave an option out."""
    out = []
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            out.append(flag)
        elif value is not None and value is not False:
            out += [flag, str(value)]
    return out


def _gather(node, path, rank=None):
    """Copies of the rows at `path` under `node` (the kept document stays as it was), each given
    the rank of the object it came from when it has none of its own."""
    if not path:
        rows = node if isinstance(node, list) else [node]
        return [dict(row) if "rank" in row or rank is None else {"rank": rank, **row}
                for row in rows]
    if isinstance(node, list):
        return [row for item in node for row in _gather(item, path, rank)]
    return _gather(node.get(path[0], []), path[1:], node.get("rank", rank))


def _column(pd, values):
    """One column: integers stay exact (a column with nulls becomes pandas' nullable Int64,
    not float); everything else as pandas infers it."""
    present = [v for v in values if v is not None]
    if present and len(present) < len(values) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in present):
        return pd.array(values, dtype="Int64")
    return values


def frame(rows):
    """Rows (dicts) as a pandas DataFrame, columns in the order the JSON gives them; the rows
    themselves when pandas is not installed."""
    try:
        import pandas as pd
    except ImportError:
        return rows
    names = list(dict.fromkeys(key for row in rows for key in row))
    return pd.DataFrame({name: _column(pd, [row.get(name) for row in rows]) for name in names},
                        columns=names)


class Profile:
    """One profile: a trace, or the traces of several ranks (as `gpuscope COMMAND TRACE...` reads
    them). Views run the binary when first asked for and are kept; load again to re-read."""

    def __init__(self, traces):
        argv = ["gpuscope.load", *map(repr, traces)]
        try:
            self.traces = [os.fspath(t) for t in traces]
        except TypeError:
            raise GpuscopeError(argv, 2, "gpuscope.load: a trace is a path (str, bytes or "
                                "os.PathLike), not " + ", ".join(argv[1:])) from None
        if not self.traces:
            raise GpuscopeError(argv, 2, "gpuscope.load: no trace given")
        self._documents = {}

    def __repr__(self):
        return f"gpuscope.Profile({self.traces!r})"

    def document(self, command, **options):
        """The JSON document of `gpuscope COMMAND --format json [OPTIONS] TRACES...`, parsed."""
        args = _flags(options)
        key = (command, tuple(args))
        if key not in self._documents:
            self._documents[key] = run_json(command, *args, traces=self.traces)
        return self._documents[key]

    def records(self, view, **options):
        """The rows of one view (a name in gpuscope.VIEWS) as a list of dicts."""
        if view not in VIEWS:
            raise GpuscopeError(["gpuscope", str(view)], 2, f"gpuscope: no view {view!r} (views: "
                                + ", ".join(VIEWS) + ")")
        command, path = VIEWS[view]
        document = self.document(command, **options)
        try:
            return _gather(document, path)
        except (AttributeError, TypeError, ValueError) as e:  # a document of another shape
            raise GpuscopeError([command], 3, f"gpuscope: {command}'s JSON has no rows where "
                                f"{view} expects them ({e})") from e

    def view(self, view, **options):
        """The rows of one view as a DataFrame (a list of dicts without pandas)."""
        return frame(self.records(view, **options))

    def kernels(self, **options):
        """GPU kernels summed by name (doc/kernels.md); by_launch=True splits by grid/block. Like
        every summary view, over the kept steps unless all_steps=True (or range="NAME")."""
        return self.view("kernels", **options)

    def ops(self, **options):
        """Operators and annotations (doc/ops.md); group_by_shape=True adds input_dims."""
        return self.view("ops", **options)

    def api(self, **options):
        """CUDA runtime and driver calls (doc/api.md)."""
        return self.view("api", **options)

    def memcpy(self, **options):
        """Copies and memsets by kind (doc/memcpy.md)."""
        return self.view("memcpy", **options)

    def steps(self, **options):
        """One row per step and rank (doc/steps.md); step="REGEX", keep_warmup=True."""
        return self.view("steps", **options)

    def breakdown(self, **options):
        """Each step split into categories, one row per step and rank (doc/breakdown.md)."""
        return self.view("breakdown", **options)

    def idle(self, **options):
        """Idle, compute and non-compute time per rank (doc/idle.md)."""
        return self.view("idle", **options)

    def idle_gaps(self, **options):
        """The largest GPU idle gaps with what the host was doing (doc/idle.md); limit=0: all."""
        return self.view("idle_gaps", **options)

    def comm(self, **options):
        """Communication per rank: overlap, exposed time (doc/comm.md)."""
        return self.view("comm", **options)

    def collectives(self, **options):
        """Collectives by kind and rank: sizes, algbw, busbw (doc/comm.md)."""
        return self.view("collectives", **options)

    def memory(self, **options):
        """Memory peaks, growth and headroom per device and rank (doc/memory.md)."""
        return self.view("memory", **options)

    def verdict(self, **options):
        """The verdict: the rules that fired, worst first, one row per rule and rank
        (doc/diagnosis.md)."""
        return self.view("verdict", **options)


def load(*traces):
    """A Profile of one trace, a folder of ranks, or several traces (paths, or one list)."""
    if len(traces) == 1 and isinstance(traces[0], (list, tuple)):
        traces = tuple(traces[0])
    return Profile(traces)
