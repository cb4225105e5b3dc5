#!/usr/bin/env python3
"""The README's examples are real: every block that starts with `$ gpuscope ARGS` must be exactly
what the built binary prints for ARGS (run from the source root).

usage: check_readme.py GPUSCOPE
"""
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    exe = sys.argv[1]
    text = open(os.path.join(ROOT, "README.md")).read()
    passed = failed = 0
    for cmd, want in re.findall(r"```\n\$ gpuscope (.*?)\n(.*?)```", text, re.S):
        got = subprocess.run([exe] + shlex.split(cmd), capture_output=True, text=True,
                             cwd=ROOT).stdout
        if got.rstrip("\n") == want.rstrip("\n"):
            passed += 1
        else:
            failed += 1
            print(f"FAIL README example 'gpuscope {cmd}' differs from the program's output")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
