#!/usr/bin/env python3
"""The Python API gives the CLI's JSON rows (doc/python.md): every view of gpuscope.VIEWS on each
PROFILE (one trace, or several comma-separated ranks) compared field by field with the document
that `gpuscope VIEW --format json` prints, the rows picked out here independently of the package.
As DataFrames (the default: pandas must be installed; integers stay integers, nulls are NA) or,
with --records, as lists of dicts (pandas must then be absent).

usage: check_api.py [--records] PROFILE...      (run where the wheel is installed)
"""
import json
import math
import subprocess
import sys

import gpuscope


def rows_of_ranks(doc, outer, inner):
    return [row for item in doc[outer] for row in item[inner]]


# view -> (command, the rows in its document)
EXPECTED = {
    "kernels": ("kernels", lambda d: d["rows"]),
    "ops": ("ops", lambda d: d["rows"]),
    "api": ("api", lambda d: d["rows"]),
    "memcpy": ("memcpy", lambda d: d["rows"]),
    "steps": ("steps", lambda d: rows_of_ranks(d, "traces", "rows")),
    "breakdown": ("breakdown", lambda d: rows_of_ranks(d, "traces", "rows")),
    "idle": ("idle", lambda d: d["temporal"]),
    "idle_gaps": ("idle", lambda d: d["gaps"]),
    "comm": ("comm", lambda d: d["ranks"]),
    "collectives": ("comm", lambda d: d["collectives"]),
    "memory": ("memory", lambda d: d["rows"]),
    "verdict": ("report", lambda d: [{"rank": diag["rank"], **row} for diag in d["diagnosis"]
                                     for row in diag["verdict"]]),
}
# Options pass through as command-line options: (view, keyword options, the same on the CLI).
WITH_OPTIONS = [
    ("kernels", {"by_launch": True, "limit": 3}, ["--by-launch", "--limit", "3"]),
    ("idle_gaps", {"limit": 0}, ["--limit", "0"]),
    ("steps", {"keep_warmup": True}, ["--keep-warmup"]),
]


def cli(command, options, traces):
    """The CLI's document, from the `gpuscope` command on PATH (the wheel's)."""
    out = subprocess.run(["gpuscope", command, "--format", "json", *options, *traces],
                         stdout=subprocess.PIPE, check=True).stdout
    return json.loads(out)


def is_null(value):
    try:
        import pandas as pd
    except ImportError:
        return value is None
    return value is None or (not isinstance(value, (list, tuple)) and bool(pd.isna(value)))


def same_value(want, got, float_column):
    """`float_column`: the JSON has non-integers in this column too (JSON writes 0.0 as 0), so
    its integers are numbers like the rest; elsewhere an integer must stay an integer."""
    if want is None:
        return is_null(got)
    if isinstance(want, list):
        return list(got) == want
    if isinstance(want, bool):
        return bool(got) == want and not isinstance(got, float)
    if isinstance(want, int) and float_column:
        return got == want
    if isinstance(want, int):
        return not isinstance(got, float) and int(got) == want and float(got).is_integer()
    if isinstance(want, float):
        return isinstance(got, float) and (got == want or (math.isnan(got) and math.isnan(want)))
    return got == want


def compare_frame(label, frame, rows):
    """Problems, and the number of values compared."""
    columns = list(dict.fromkeys(key for row in rows for key in row))
    if list(frame.columns) != columns:
        return [f"{label}: columns {list(frame.columns)}, want {columns}"], 0
    if len(frame) != len(rows):
        return [f"{label}: {len(frame)} rows, want {len(rows)}"], 0
    problems, compared = [], 0
    for name in columns:
        values = frame[name].tolist()
        float_column = any(isinstance(row.get(name), float) for row in rows)
        for i, row in enumerate(rows):
            compared += 1
            if not same_value(row.get(name), values[i], float_column):
                problems.append(f"{label}: row {i} {name} = {values[i]!r} "
                                f"({type(values[i]).__name__}), want {row.get(name)!r}")
        if name.endswith(("_ns", "_bytes")) and frame[name].dtype.kind == "f":
            problems.append(f"{label}: column {name} is {frame[name].dtype}, not integers")
    return problems, compared


def compare_records(label, records, rows):
    if not isinstance(records, list):
        return [f"{label}: {type(records).__name__}, want a list of dicts"], 0
    return ([] if records == rows else [f"{label}: the records differ from the JSON rows"]), len(rows)


def check_frame(records):
    """gpuscope.frame on rows no real trace has yet: integers with nulls, one past float's
    precision, and a float column whose JSON wrote 0."""
    rows = [{"id_ns": 2**62 + 1, "n": None, "x": 0.5, "s": "a"},
            {"id_ns": None, "n": 3, "x": 0, "s": None}]
    got = gpuscope.frame(rows)
    if records:
        return [] if got is rows else ["frame() without pandas must return the rows"]
    problems = compare_frame("frame()", got, rows)[0]
    if str(got["id_ns"].dtype) != "Int64" or str(got["n"].dtype) != "Int64":
        problems.append(f"frame(): integer columns with nulls are {got.dtypes.to_dict()}")
    return problems


def check_profile(traces, records):
    profile = gpuscope.load(*traces)
    compare = compare_records if records else compare_frame
    cases = [(view, {}, []) for view in EXPECTED] + WITH_OPTIONS
    problems, nrows, nvalues = [], 0, 0
    for view, options, flags in cases:
        command, pick = EXPECTED[view]
        rows = pick(cli(command, flags, traces))
        got = getattr(profile, view)(**options)
        found, compared = compare(f"{view}({options or ''})", got, rows)
        problems += found
        nrows += len(rows)
        nvalues += compared
    return problems, len(cases), nrows, nvalues


def main():
    args = sys.argv[1:]
    records = bool(args) and args[0] == "--records"
    profiles = args[1:] if records else args
    if not profiles:
        print(__doc__)
        return 2
    if set(EXPECTED) != set(gpuscope.VIEWS):
        print(f"FAIL the views of gpuscope.VIEWS {sorted(gpuscope.VIEWS)} are not the ones "
              f"checked here {sorted(EXPECTED)}")
        return 1
    try:
        import pandas  # noqa: F401
        have_pandas = True
    except ImportError:
        have_pandas = False
    if have_pandas == records:
        print("FAIL --records needs pandas absent, DataFrames need it installed")
        return 1
    frame_problems = check_frame(records)
    for problem in frame_problems:
        print(f"FAIL {problem}")
    failed = bool(frame_problems)
    for spec in profiles:
        traces = spec.split(",")
        problems, ncases, nrows, nvalues = check_profile(traces, records)
        for p in problems[:20]:
            print(f"FAIL {spec}: {p}")
        failed += bool(problems)
        kind = "records" if records else "DataFrames"
        print(f"{'FAIL' if problems else 'ok  '} {spec}: {ncases} views as {kind}, {nrows} rows"
              + ("" if records else f", {nvalues} values") + " equal to the CLI's JSON")
    print(f"{len(profiles) + 1 - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
