#!/usr/bin/env python3
"""The verdict on the inference traces of tests/gen/gen_inference.py, made at run time: the
workload and decoding are recognised, no training-only action reaches an inference trace, and a
decode loop whose first pass meets a new shape every token gets first_use_per_shape (not
warm-up), with the generator's counts and its extra time per step (to within 1 %).

usage: check_inference.py GPUSCOPE
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_inference  # noqa: E402


def check(exe, trace, want):
    out = subprocess.run([exe, "report", "--format", "json", trace], capture_output=True,
                         text=True, check=True).stdout
    d = json.loads(out)["diagnosis"][0]
    problems = []
    ctx = d["context"]
    if ctx["workload"] != want["workload"] or ctx.get("decode", False) != want["decode"]:
        problems.append("workload %s, decode %s; expected %s, %s"
                        % (ctx["workload"], ctx.get("decode", False), want["workload"],
                           want["decode"]))
    fired = {f["class"]: f for f in d["verdict"]}
    classes = [f["class"] for f in d["verdict"]]
    if "first" in want and (not classes or classes[0] != want["first"]):
        problems.append("verdict %s, expected %s first" % (classes, want["first"]))
    if "verdict_has" in want and want["verdict_has"] not in fired:
        problems.append("verdict %s lacks %s" % (classes, want["verdict_has"]))
    for cls in want.get("not_fired", []):
        if cls in fired:
            problems.append("%s fired: %s" % (cls, fired[cls]["evidence"]))
    for cls, needles in want.get("gives", {}).items():
        given = fired.get(cls, {}).get("actions", [])
        for needle in needles:
            if not any(needle in a for a in given):
                problems.append("%s does not give %r: %s" % (cls, needle, given))
    for f in d["verdict"]:
        for a in f["actions"]:
            for word in want["never"]:
                if word in a:
                    problems.append("%s gives %r" % (f["class"], a))
    rule = next((r for r in d["rules"] if r["class"] == "first_use_per_shape"), None)
    for key, value in want.get("inputs", {}).items():
        if rule is None or rule["inputs"].get(key) != value:
            problems.append("first_use_per_shape input %s = %s, expected %s"
                            % (key, rule and rule["inputs"].get(key), value))
    if "extra_per_step_ns" in want:
        got = fired.get("first_use_per_shape", {}).get("at_stake_ns")
        expect = want["extra_per_step_ns"]
        if got is None or abs(got - expect) > 0.01 * expect:
            problems.append("at stake %s ns per step, generator says %s" % (got, expect))
    return problems


def main():
    exe = sys.argv[1]
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, make in gen_inference.SCENARIOS.items():
            want = make(tmp)
            problems = check(exe, os.path.join(tmp, name + ".json"), want)
            for p in problems:
                print("FAIL %s: %s" % (name, p))
            if not problems:
                print("ok   %s" % name)
            failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
