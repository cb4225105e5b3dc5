#!/usr/bin/env python3
"""The verdict corpus (tests/verdicts/README.md): for each case of tests/verdicts/cases/, run
`gpuscope report --format json` on its trace and compare the verdict with the one an expert wrote
by hand: the first finding, the findings and the actions that must and must not appear. Every case
also passes the global checks: no action the trace's GPU cannot run (doc/diagnosis.md, "What the
GPU can run"), no training-only action on inference, no pipeline advice without send/recv, no
channels_last without a convolution.

A case's trace is a path relative to the repository root (the real traces of ../shared, skipped
when absent), "gen:SCENARIO[@GPU][+STACK]" (a scenario of tests/gen/scenarios rewritten to a GPU
generation and a software stack by tests/verdicts/stack_rewrite.py), or "github:OWNER/REPO:PATH"
or "github:OWNER/REPO@COMMIT:PATH" (a public trace read from a fetched mirror under /work/.mirror,
skipped when absent).

A case with "pending" that fails prints "pending: ..." and does not fail the run; a pending case
that passes fails it ("remove pending"), so that a pending cannot outlive its fix.

usage: check_verdicts.py GPUSCOPE [CASE_NAME ...]
Exit 0 all passed (or pending, or skipped), 1 some failed."""
import concurrent.futures
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import stack_rewrite  # noqa: E402  (beside this file)
from global_rules import global_problems  # noqa: E402

MIRRORS = os.environ.get("GS_MIRRORS", "/work/.mirror")
# Another folder of cases: tests/verdicts/test_check_verdicts.py checks the runner on its own.
CASES = os.environ.get("GS_VERDICT_CASES", os.path.join(HERE, "cases"))
KEYS = {"trace", "also", "rank", "args", "gpu", "stack", "workload", "first_finding",
        "findings_must", "findings_must_not", "actions_must", "actions_must_not", "why", "pending"}
STACKS = ("eager", "compile", "cuda-graphs", "fp8", "ep")
WORKLOADS = ("training", "inference", "decode")


class Skip(Exception):
    pass


def mirror_git_dir(repo):
    """The fetched mirror's git directory: /work/.mirror/OWNER+REPO/..., wherever fetch put it."""
    base = os.path.join(MIRRORS, repo.replace("/", "+"))
    for path in [base] + sorted(glob.glob(os.path.join(base, "**"), recursive=True)):
        if os.path.isfile(os.path.join(path, "HEAD")) \
                and os.path.isdir(os.path.join(path, "objects")):
            return path
    return None


def materialize(trace, tmp):
    """The trace file to read, made in tmp when generated or read from a mirror."""
    if trace.startswith("gen:"):
        return stack_rewrite.make(trace[4:], tmp)
    if trace.startswith("github:"):
        repo, path = trace[7:].split(":", 1)
        repo, _, commit = repo.partition("@")   # a file a later commit removed: OWNER/REPO@COMMIT
        git_dir = mirror_git_dir(repo)
        if git_dir is None:
            raise Skip(f"no fetched mirror of {repo} under {MIRRORS}")
        out = os.path.join(tmp, f"{len(os.listdir(tmp))}_{os.path.basename(path)}")
        with open(out, "wb") as f:
            r = subprocess.run(["git", "--git-dir", git_dir, "show",
                                (commit or "HEAD") + ":" + path], stdout=f, stderr=subprocess.PIPE)
        if r.returncode != 0:
            raise Skip(f"{path} not in {repo}'s mirror: {r.stderr.decode().strip()}")
        return out
    path = os.path.normpath(os.path.join(ROOT, trace))
    if not os.path.exists(path):
        raise Skip(f"{trace} absent (../shared is not here)")
    return path


def run_report(exe, case, paths):
    """The diagnosis of the case's rank (the first rank when it names none): the other traces
    of "also" are the other ranks of the same run, read together for the cross-rank rules."""
    cmd = [exe, "report", "--format", "json"] + case.get("args", []) + paths
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"exit {out.returncode}: {out.stderr.strip()[:300]}")
    diagnosis = json.loads(out.stdout)["diagnosis"]
    if "rank" not in case:
        return diagnosis[0]
    return next(d for d in diagnosis if d["rank"] == case["rank"])


def kernel_names(exe, path):
    """Every kernel name of the trace, for the global checks (send/recv, convolutions)."""
    out = subprocess.run([exe, "kernels", "--format", "csv", "--limit", "0", path],
                         capture_output=True, text=True)
    return out.stdout if out.returncode == 0 else ""


def expected_problems(case, diag):
    verdict = diag["verdict"]
    classes = [f["class"] for f in verdict]
    actions = [a for f in verdict for a in f["actions"]]
    problems = []
    first = classes[0] if classes else None
    if first != case["first_finding"]:
        problems.append(f"first finding {first}, expected {case['first_finding']} ({classes})")
    problems += [f"{c} missing ({classes})" for c in case.get("findings_must", [])
                 if c not in classes]
    problems += [f"{c} fired" for c in case.get("findings_must_not", []) if c in classes]
    problems += [f"no action says {a!r}" for a in case.get("actions_must", [])
                 if not any(a in x for x in actions)]
    for a in case.get("actions_must_not", []):
        bad = [x for x in actions if a in x]
        if bad:
            problems.append(f"an action says {a!r}: {bad[0][:90]!r}")
    return problems


def check_case(exe, name, case):
    """(status, text): status ok, fail, pending or skip."""
    with tempfile.TemporaryDirectory() as tmp:
        try:
            paths = [materialize(t, tmp) for t in [case["trace"]] + case.get("also", [])]
        except Skip as e:
            return "skip", str(e)
        path = paths[0]
        try:
            diag = run_report(exe, case, paths)
        except (RuntimeError, ValueError, KeyError, IndexError, StopIteration) as e:
            problems = [f"report failed: {e}"]
        else:
            problems = expected_problems(case, diag)
            problems += global_problems(case, diag, kernel_names(exe, path))
    pending = case.get("pending")
    if pending and problems:
        return "pending", f"{pending} [{'; '.join(problems)}]"
    if pending:
        return "fail", "passes: remove pending"
    if problems:
        return "fail", "; ".join(problems)
    return "ok", case["first_finding"] or "no finding"


def load_cases(names):
    cases, bad = {}, []
    for path in sorted(glob.glob(os.path.join(CASES, "*.json"))):
        name = os.path.basename(path)[:-5]
        if names and name not in names:
            continue
        with open(path) as f:
            case = json.load(f)
        unknown = set(case) - KEYS
        missing = {"trace", "gpu", "stack", "workload", "first_finding", "why"} - set(case)
        if unknown or missing or case.get("stack") not in STACKS \
                or case.get("workload") not in WORKLOADS:
            bad.append(f"{name}: keys unknown {sorted(unknown)} missing {sorted(missing)}, "
                       f"stack {case.get('stack')}, workload {case.get('workload')}")
        else:
            cases[name] = case
    return cases, bad


def main():
    exe = sys.argv[1]
    cases, bad = load_cases(set(sys.argv[2:]))
    for b in bad:
        print("FAIL    " + b)
    counts = {"ok": 0, "fail": len(bad), "pending": 0, "skip": 0}
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        futures = {name: pool.submit(check_case, exe, name, case) for name, case in cases.items()}
        for name, fut in futures.items():
            status, text = fut.result()
            counts[status] += 1
            label = {"ok": "ok     ", "fail": "FAIL   ", "pending": "pending", "skip": "skip   "}
            print(f"{label[status]} {name}: {text}", flush=True)
    print(", ".join(f"{v} {k}" for k, v in counts.items()))
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
