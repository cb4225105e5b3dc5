#!/usr/bin/env python3
"""doc/python.md's notebook is real: its ```python cells run in order in one namespace (from the
source root, as a notebook would run them) and each cell's output, what it prints and the value
of a last bare expression as a console shows it, must be exactly the ``` block that follows the
cell (a cell with no block after it must print nothing). pandas prints at 100 columns here.

usage: check_python_doc.py     (where gpuscope and pandas are importable; GPUSCOPE_BINARY may
                                point the package at a CMake build)
"""
import ast
import contextlib
import io
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CELL = re.compile(r"```python\n(.*?)```\n(?:\n```\n(.*?)```\n)?", re.S)


def run_cell(code, namespace):
    """What the cell shows: its prints, then the repr of a last bare expression (not None)."""
    tree = ast.parse(code)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(tree, "<doc/python.md>", "exec"), namespace)
        if last is not None:
            value = eval(compile(ast.Expression(last.value), "<doc/python.md>", "eval"), namespace)
            if value is not None:
                print(repr(value))
    return out.getvalue()


def main():
    import pandas as pd
    pd.set_option("display.width", 100)
    pd.set_option("display.max_columns", 20)
    os.chdir(ROOT)
    text = open("doc/python.md", encoding="utf-8").read()
    namespace = {"__name__": "__doc__"}
    passed = failed = 0
    for n, (code, want) in enumerate(CELL.findall(text), 1):
        got = run_cell(code, namespace)
        if got.rstrip("\n") == (want or "").rstrip("\n"):
            passed += 1
        else:
            failed += 1
            print(f"FAIL doc/python.md cell {n}:\n{code}--- shows:\n{got}--- the page says:\n{want}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
