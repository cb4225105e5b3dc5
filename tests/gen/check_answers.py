#!/usr/bin/env python3
"""Checks gpuscope against the known answers of synthetic traces (tests/gen/gen_trace.py).

usage: check_answers.py GPUSCOPE [-v] [--keep DIR]

Generates a trace in every dialect (and scenario variants, a gzipped 2-rank pair) into a temporary
folder, runs `gpuscope kernels|ops|api|memcpy --format json --limit 0` on each and compares with
the generator's --answers file.  The generated times are exact in every dialect, so every number
must match exactly (no tolerance).  Also checks that tests/data/gen and examples/train.json.gz are
what tests/gen/make_fixtures.sh produces today (their decompressed bytes).
Independent of ../shared.  Prints one line per case and "N passed, N failed"; exit 0 or 1.
Python 3 standard library only.
"""

import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "traces"))
import trace_facts  # noqa: E402

GEN = os.path.join(HERE, "gen_trace.py")
TIMEOUT_S = 120

# (case name, file name, generator options)
CASES = [
    ("modern", "modern.json", ["--dialect", "modern", "--seed", "11"]),
    ("epoch_us", "epoch_us.json", ["--dialect", "epoch_us", "--seed", "11"]),
    ("ns_float", "ns_float.json", ["--dialect", "ns_float", "--seed", "11"]),
    ("old", "old.json", ["--dialect", "old", "--seed", "11"]),
    ("legacy", "legacy.json", ["--dialect", "legacy", "--seed", "11"]),
    ("reserialized", "reserialized.json", ["--dialect", "reserialized", "--seed", "11"]),
    ("modern.gz", "modern.json.gz", ["--dialect", "modern", "--seed", "12", "--steps", "2"]),
    ("epoch_us.dataloader_bound", "dl.json", ["--dialect", "epoch_us", "--scenario", "dataloader_bound"]),
    ("ns_float.launch_bound", "lb.json", ["--dialect", "ns_float", "--scenario", "launch_bound", "--steps", "2"]),
    ("old.rank1of2", "old_r1.json", ["--dialect", "old", "--rank", "1", "--world-size", "2", "--seed", "3"]),
    ("modern.rank0of2", "ranks/rank0.json.gz", ["--dialect", "modern", "--rank", "0", "--world-size", "2",
                                                 "--seed", "4"]),
    ("modern.rank1of2", "ranks/rank1.json.gz", ["--dialect", "modern", "--rank", "1", "--world-size", "2",
                                                 "--seed", "4"]),
]
# A folder of ranks is one profile: its tables sum the ranks' tables.
FOLDER_CASES = [("modern.ranks_folder", "ranks", ["modern.rank0of2", "modern.rank1of2"])]


def run_gpuscope(exe, cmd, path):
    # The generator's answers are over the whole trace; the views default to the kept steps.
    p = subprocess.run([exe, cmd, "--all-steps", "--format", "json", "--limit", "0", path],
                       stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=TIMEOUT_S)
    if p.returncode != 0:
        err = p.stderr.decode("utf-8", "replace").strip().splitlines()
        raise ValueError("gpuscope %s: exit %d%s" % (cmd, p.returncode, (": " + err[-1][:200]) if err else ""))
    try:
        doc = json.loads(p.stdout.decode("utf-8"))
    except ValueError as e:
        raise ValueError("gpuscope %s: output is not JSON (%s)" % (cmd, e))
    if not isinstance(doc, dict) or not isinstance(doc.get("rows"), list):
        raise ValueError("gpuscope %s: no \"rows\" array" % cmd)
    return doc["rows"]


def pick(row, *keys):
    for k in keys:
        if k in row:
            return row[k]
    return None


def _short(s, n=60):
    s = str(s)
    return s if len(s) <= n else s[:n - 3] + "..."


def compare_table(what, expected, got, fields, problems):
    """expected: key -> {field: value}; got: key -> row; fields: [(answer field, (gpuscope keys...))]."""
    for k in sorted(set(expected) - set(got)):
        problems.append("%s: missing %r" % (what, _short(k)))
    for k in sorted(set(got) - set(expected)):
        problems.append("%s: unexpected %r" % (what, _short(k)))
    for k in sorted(set(expected) & set(got)):
        for field, keys in fields:
            want = expected[k].get(field)
            have = pick(got[k], *keys)
            if want is None:
                continue
            if have is None and field in ("min_ns", "max_ns"):
                continue  # optional columns
            if have != want:
                problems.append("%s %r: %s is %r, expected %r" % (what, _short(k), keys[0], have, want))


def index_rows(rows, what, problems, key=lambda r: r.get("name")):
    out = {}
    for r in rows:
        k = key(r)
        if k in out:
            problems.append("%s: %r listed twice" % (what, _short(k)))
        out[k] = r
    return out


def check(exe, path, ans):
    problems = []
    try:
        rows = run_gpuscope(exe, "kernels", path)
        compare_table("kernel", ans["kernels"], index_rows(rows, "kernel", problems),
                      [("count", ("instances", "count")), ("total_ns", ("total_ns",)),
                       ("min_ns", ("min_ns",)), ("max_ns", ("max_ns",))], problems)
    except (ValueError, subprocess.TimeoutExpired) as e:
        problems.append(str(e))
    try:
        rows = run_gpuscope(exe, "ops", path)
        compare_table("op", ans["ops"], index_rows(rows, "op", problems),
                      [("calls", ("calls",)), ("cpu_total_ns", ("cpu_total_ns",)),
                       ("self_cpu_ns", ("self_cpu_ns",)), ("self_cuda_ns", ("self_cuda_ns",)),
                       ("cuda_total_ns", ("cuda_total_ns",))], problems)
    except (ValueError, subprocess.TimeoutExpired) as e:
        problems.append(str(e))
    try:
        rows = run_gpuscope(exe, "api", path)
        compare_table("api", ans["api"], index_rows(rows, "api", problems),
                      [("calls", ("calls", "num_calls", "instances", "count")), ("total_ns", ("total_ns",))],
                      problems)
    except (ValueError, subprocess.TimeoutExpired) as e:
        problems.append(str(e))
    try:
        rows = run_gpuscope(exe, "memcpy", path)
        expected = dict(ans["memcpy"])
        if ans["memset"]["count"]:
            expected["memset"] = ans["memset"]

        def key(r):
            # doc/output-json.md: kind HtoD|DtoH|DtoD|...|Memset, src/dst Pageable|Pinned|Device|...
            kind = r.get("kind")
            if kind == "Memset":
                return "memset"
            if kind in ("HtoD", "DtoH", "DtoD"):
                host = {"HtoD": r.get("src"), "DtoH": r.get("dst"), "DtoD": "Device"}[kind]
                return "%s %s" % (kind, str(host).lower())
            return "unexpected row %r" % (r.get("operation"),)
        compare_table("memcpy", expected, index_rows(rows, "memcpy", problems, key),
                      [("count", ("count", "instances", "calls")), ("bytes", ("bytes", "total_bytes")),
                       ("total_ns", ("total_ns",))], problems)
    except (ValueError, subprocess.TimeoutExpired) as e:
        problems.append(str(e))
    return problems


def merge_answers(answers):
    """The answers of several ranks summed (what one profile of all of them must show)."""
    out = {"kernels": {}, "ops": {}, "api": {}, "memcpy": {},
           "memset": {"count": 0, "bytes": 0, "total_ns": 0}}
    for a in answers:
        for table in ("kernels", "ops", "api", "memcpy"):
            for name, row in a[table].items():
                m = out[table].setdefault(name, {})
                for f, v in row.items():
                    if f == "min_ns":
                        m[f] = v if f not in m else min(m[f], v)
                    elif f == "max_ns":
                        m[f] = v if f not in m else max(m[f], v)
                    elif isinstance(v, int):
                        m[f] = m.get(f, 0) + v
                    else:
                        m[f] = v
        for f in ("count", "bytes", "total_ns"):
            out["memset"][f] += a["memset"][f]
    return out


def read_text(path):
    with open(path, "rb") as f:
        data = f.read()
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def check_fixtures(tmp):
    """make_fixtures.sh output must equal the committed files (compared decompressed)."""
    root = os.path.join(tmp, "fixtures")
    shutil.copytree(os.path.join(REPO, "tests", "gen"), os.path.join(root, "tests", "gen"))
    p = subprocess.run(["sh", os.path.join(root, "tests", "gen", "make_fixtures.sh")], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=TIMEOUT_S)
    if p.returncode != 0:
        return ["make_fixtures.sh failed: %s" % p.stdout.decode("utf-8", "replace")[-300:]]
    problems = []
    made = []
    for sub in ("tests/data/gen", "examples"):
        for f in sorted(os.listdir(os.path.join(root, sub))):
            made.append(sub + "/" + f)
    for rel in made:
        committed = os.path.join(REPO, rel)
        if not os.path.exists(committed):
            problems.append("%s is not committed" % rel)
        elif read_text(committed) != read_text(os.path.join(root, rel)):
            problems.append("%s differs from what make_fixtures.sh writes now (run it)" % rel)
    for f in sorted(os.listdir(os.path.join(REPO, "tests", "data", "gen"))):
        if "tests/data/gen/" + f not in made:
            problems.append("tests/data/gen/%s is not made by make_fixtures.sh" % f)
    return problems


def main(argv):
    args = list(argv[1:])
    verbose = "-v" in args
    args = [a for a in args if a != "-v"]
    keep = None
    if "--keep" in args:
        i = args.index("--keep")
        keep = args[i + 1]
        del args[i:i + 2]
    if len(args) != 1:
        sys.stderr.write("usage: check_answers.py GPUSCOPE [-v] [--keep DIR]\n")
        return 2
    exe = os.path.abspath(args[0])
    tmp = keep or tempfile.mkdtemp(prefix="gs_answers_")
    os.makedirs(tmp, exist_ok=True)
    passed = failed = 0
    answers = {}

    def report(name, problems, detail=""):
        nonlocal passed, failed
        if problems:
            failed += 1
            shown = problems if verbose else problems[:4]
            more = "" if len(shown) == len(problems) else " (+%d more)" % (len(problems) - len(shown))
            print("FAIL %s: %d problem(s): %s%s" % (name, len(problems), " | ".join(shown), more))
        else:
            passed += 1
            print("PASS %s%s" % (name, detail))
        sys.stdout.flush()

    try:
        for name, fname, opts in CASES:
            path = os.path.join(tmp, fname)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            apath = os.path.join(tmp, name + ".answers.json")
            p = subprocess.run([sys.executable, GEN] + opts + ["-o", path, "--answers", apath],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT_S)
            if p.returncode != 0:
                report(name, ["generator failed: %s" % p.stderr.decode("utf-8", "replace")[-300:]])
                continue
            with open(apath) as f:
                ans = json.load(f)
            answers[name] = ans
            c = ans["counts"]
            report(name, check(exe, path, ans), ": %d kernels, %d ops+annotations, %d api calls, %d copies" % (
                c["kernels"], c["cpu_ops"] + c["annotations"], c["api_calls"], c["memcpys"]))
        for name, folder, parts in FOLDER_CASES:
            if not all(p in answers for p in parts):
                report(name, ["a rank's trace was not generated"])
                continue
            report(name, check(exe, os.path.join(tmp, folder), merge_answers([answers[p] for p in parts])),
                   ": %d ranks summed" % len(parts))
        report("fixtures", check_fixtures(tmp), ": tests/data/gen and examples/ are up to date")
    finally:
        if keep is None:
            shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
