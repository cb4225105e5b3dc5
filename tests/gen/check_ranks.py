#!/usr/bin/env python3
"""Multi-rank profiles with planted answers (tests/gen/gen_ranks.py): gpuscope finds the planted
straggler, recovers the planted clock offsets to within 5 us, reports the residual, measures the
exposed communication, and names the straggler first in every rank's verdict; a profile without
a straggler gets no straggler finding. The committed profiles (tests/data/ranks/) must be what
the generator writes today, byte for byte (compared after gunzip: the gzip layer belongs to the
local zlib, the trace text to the generator).

    python3 tests/gen/check_ranks.py path/to/gpuscope
"""
import gzip
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GEN = os.path.join(ROOT, "tests", "gen", "gen_ranks.py")
DATA = os.path.join(ROOT, "tests", "data", "ranks")
# name: generator options (also written in tests/data/ranks/README.md)
SETS = {
    "r4": ["--ranks", "4", "--steps", "8", "--seed", "1", "--gzip"],
    "r8": ["--ranks", "8", "--steps", "5", "--seed", "2", "--straggler", "5", "--slowdown", "15",
           "--gzip"],
}
BALANCED = ["--ranks", "4", "--steps", "6", "--seed", "3", "--slowdown", "0"]
# All-to-alls run by NCCL's generic SendRecv kernel under c10d::alltoall_base_, the forward in
# DDP's annotation (a mixture of experts under DDP), the last rank late.
ALL_TO_ALL = ["--ranks", "4", "--steps", "6", "--seed", "5", "--collective", "all_to_all"]
OFFSET_TOLERANCE_NS = 5000

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL " + what)


def gen(out, opts, answers):
    subprocess.run([sys.executable, GEN, "-o", out, "--answers", answers] + opts, check=True)


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    return gzip.decompress(data) if path.endswith(".gz") else data


def run(exe, *args):
    p = subprocess.run([exe] + list(args), capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit("gpuscope %s failed (%d): %s" % (" ".join(args), p.returncode, p.stderr))
    return json.loads(p.stdout)


def reproduced(tmp):
    for name, opts in SETS.items():
        out = os.path.join(tmp, name)
        gen(out, opts, out + ".answers.json")
        for f in sorted(os.listdir(os.path.join(DATA, name))):
            check(read(os.path.join(DATA, name, f)) == read(os.path.join(out, f)),
                  "%s/%s is not what the generator writes" % (name, f))
        check(read(os.path.join(DATA, name + ".answers.json")) == read(out + ".answers.json"),
              "%s.answers.json is not what the generator writes" % name)


def planted(exe, name, folder, ans):
    s = run(exe, "stragglers", "--format", "json", folder)
    tag = name + ": "
    check(s["straggler"] == ans["straggler"],
          tag + "straggler %s, planted %s" % (s["straggler"], ans["straggler"]))
    check(s["aligned"] and s["matched"] == ans["collectives"],
          tag + "matched %d of %d collectives" % (s["matched"], ans["collectives"]))
    jitter = 2 * ans["end_jitter_ns"]
    check(0 < s["residual_max_ns"] <= jitter,
          tag + "residual max %d ns, ends planted within +-%d" % (s["residual_max_ns"], jitter // 2))
    for got, want in zip(s["ranks"], ans["per_rank"]):
        r = want["rank"]
        err = got["offset_ns"] - want["offset_vs_rank0_ns"]
        print("  %s rank %d: offset %d ns, planted %d ns (error %+d ns), residual med %d max %d"
              % (name, r, got["offset_ns"], want["offset_vs_rank0_ns"], err,
                 got["residual_med_ns"], got["residual_max_ns"]))
        check(abs(err) <= OFFSET_TOLERANCE_NS, tag + "rank %d offset off by %d ns" % (r, err))
        check(got["last"] == want["last_count"], tag + "rank %d last %d times, planted %d"
              % (r, got["last"], want["last_count"]))
        check(abs(got["compute_per_step_ns"] - want["compute_per_step_ns"]) <= 1000,
              tag + "rank %d compute per step %d, planted %d"
              % (r, got["compute_per_step_ns"], want["compute_per_step_ns"]))
        check(abs(got["wait_per_step_ns"] - want["wait_per_step_ns"]) <= OFFSET_TOLERANCE_NS,
              tag + "rank %d wait per step %d, planted %d"
              % (r, got["wait_per_step_ns"], want["wait_per_step_ns"]))
    if ans["straggler"] is not None:
        check(abs(s["others_wait_per_step_ns"] - ans["others_wait_per_step_ns"])
              <= OFFSET_TOLERANCE_NS, tag + "others wait %d, planted %d"
              % (s["others_wait_per_step_ns"], ans["others_wait_per_step_ns"]))
    # the files' own clocks: offsets 0, and the straggler view still answers
    raw = run(exe, "stragglers", "--no-align", "--format", "json", folder)
    check(not raw["aligned"] and all(r["offset_ns"] == 0 for r in raw["ranks"]),
          tag + "--no-align applied offsets")
    return s


def verdicts(exe, name, folder, ans):
    rep = run(exe, "report", "--format", "json", folder)
    by_rank = {r["rank"]: r for r in ans["per_rank"]}
    for d in rep["diagnosis"]:
        fired = [v["class"] for v in d["verdict"]]
        bd = {b["category"]: b["avg_ns"] for b in d["breakdown"]}
        want = by_rank[d["rank"]]["exposed_comm_per_step_ns"]
        check(abs(bd["Communication"] - want) <= 1000, "%s rank %d: exposed communication %d ns "
              "per step, planted %d" % (name, d["rank"], bd["Communication"], want))
        if ans["straggler"] is None:
            check("straggler" not in fired, "%s rank %d: a straggler finding without a straggler"
                  % (name, d["rank"]))
            continue
        check(fired and fired[0] == "straggler", "%s rank %d: verdict starts %s, not straggler"
              % (name, d["rank"], fired[:1]))
        ev = d["verdict"][0]["evidence"] if fired else ""
        check(ev.startswith("rank %d" % ans["straggler"]), "%s rank %d: evidence %r"
              % (name, d["rank"], ev))


def all_to_all_facts(exe, folder):
    """The SendRecv kernels are all-to-alls: the parallelism is DDP and expert parallel, not
    pipeline; the communication rule leaves the pipeline's advice out, and the embedding tables'
    (no embedding kernel), and keeps DDP's and the experts' (said when the rule fires)."""
    rep = run(exe, "report", "--format", "json", folder)
    for d in rep["diagnosis"]:
        tag = "all_to_all rank %d: " % d["rank"]
        ctx = d["context"]
        check(ctx["parallel_kinds"] == ["data", "expert"],
              tag + "parallel kinds %s, want data and expert" % ctx["parallel_kinds"])
        check(ctx["all_to_alls"] == 12 and ctx["send_recvs"] == 0,
              tag + "%d all-to-all, %d send/recv; want 12, 0"
              % (ctx["all_to_alls"], ctx["send_recvs"]))
        comm = [v for v in d["rules"] if v["class"] == "communication_bound"]
        left = " | ".join(a["action"] for a in comm[0].get("actions_left_out", [])) if comm else ""
        check("interleaved schedule" in left, tag + "pipeline advice not left out: " + left)
        check("embedding all-to-all" in left, tag + "embedding advice not left out: " + left)
        check("expert-parallel" not in left and "DDP" not in left,
              tag + "expert or DDP advice left out: " + left)
        fired = [v for v in d["verdict"] if v["class"] == "communication_bound"]
        for v in fired:
            acts = " | ".join(v["actions"])
            check("expert-parallel all-to-all" in acts and "interleaved schedule" not in acts,
                  tag + "actions " + acts)


def main():
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        reproduced(tmp)
        for name in SETS:
            with open(os.path.join(DATA, name + ".answers.json")) as f:
                ans = json.load(f)
            planted(exe, name, os.path.join(DATA, name), ans)
            verdicts(exe, name, os.path.join(DATA, name), ans)
        bal = os.path.join(tmp, "balanced")
        gen(bal, BALANCED, bal + ".answers.json")
        with open(bal + ".answers.json") as f:
            ans = json.load(f)
        planted(exe, "balanced", bal, ans)
        verdicts(exe, "balanced", bal, ans)
        a2a = os.path.join(tmp, "all_to_all")
        gen(a2a, ALL_TO_ALL, a2a + ".answers.json")
        with open(a2a + ".answers.json") as f:
            ans = json.load(f)
        planted(exe, "all_to_all", a2a, ans)
        verdicts(exe, "all_to_all", a2a, ans)
        all_to_all_facts(exe, a2a)
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
