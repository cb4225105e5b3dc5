#!/usr/bin/env python3
"""The verdict corpus's runner judges cases as tests/verdicts/README.md says, checked against a
fake gpuscope whose verdict is known: a matching case is ok, a differing one FAILs with what
differed, a failing pending case is pending and does not fail the run, a passing pending case
fails it ("remove pending"), a real trace that is not here is skipped, and an action the GPU
cannot run or training advice on inference fails even when the case does not ask.

usage: test_check_verdicts.py"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# The fake's verdict: host-bound first, then communication with a bf16 hook and DDP advice.
VERDICT = [{"class": "host_bound", "actions": ["torch.compile to cut framework overhead"]},
           {"class": "communication_bound",
            "actions": ["all-reduce in bf16/fp16 (communication hooks)",
                        "overlap gradient all-reduce with backward (DDP bucket_cap_mb)"]}]
# Of README.md it says it read inference that does not decode; of other traces, nothing.
FAKE = """#!/usr/bin/env python3
import json, sys
if sys.argv[1] == "kernels":
    print("Time (%%),Name\\n100,ncclKernel_AllReduce_RING_LL_Sum_float")
else:
    diag = {"verdict": %s}
    if sys.argv[-1].endswith("README.md"):
        diag["context"] = {"workload": "inference", "decode": False}
    print(json.dumps({"diagnosis": [diag]}))
""" % json.dumps(VERDICT)

BASE = {"trace": "CMakeLists.txt", "gpu": "NVIDIA A100 8.0", "stack": "eager",
        "workload": "training", "first_finding": "host_bound", "why": "test"}
CASES = {
    "passes": ({"findings_must": ["communication_bound"], "actions_must": ["bucket_cap_mb"]},
               "ok      passes: host_bound"),
    "wrong_first": ({"first_finding": "compute_bound"},
                    "FAIL    wrong_first: first finding host_bound, expected compute_bound"),
    "forbidden_action": ({"actions_must_not": ["torch.compile"]},
                         "FAIL    forbidden_action: an action says 'torch.compile'"),
    "pending_fails": ({"findings_must_not": ["host_bound"], "pending": "not yet"},
                      "pending pending_fails: not yet [host_bound fired]"),
    "pending_passes": ({"pending": "fixed already"},
                       "FAIL    pending_passes: passes: remove pending"),
    "absent_trace": ({"trace": "../no-such-folder/trace.json"},
                     "skip    absent_trace: ../no-such-folder/trace.json absent"),
    "bf16_on_volta": ({"gpu": "Tesla V100 7.0"},
                      "FAIL    bf16_on_volta: global: 'bf16' on a GPU of compute capability 7.0"),
    "ddp_on_inference": ({"workload": "inference"},
                         "FAIL    ddp_on_inference: global: training advice ('gradient') on "
                         "inference"),
    "bad_stack": ({"stack": "jax"}, "FAIL    bad_stack: keys unknown [] missing [], stack jax"),
    "compile_on_pascal": ({"gpu": "Tesla P100 6.0"},
                          "FAIL    compile_on_pascal: global: 'bf16' on a GPU of compute "
                          "capability 6.0: 'all-reduce in bf16/fp16 (communication hooks)'; "
                          "global: 'torch.compile' on a GPU of compute capability 6.0"),
    "decode_unread": ({"trace": "README.md", "workload": "decode"},
                      "FAIL    decode_unread: global: the report reads the workload as inference, "
                      "the trace is decode"),
}


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        fake = os.path.join(tmp, "gpuscope")
        with open(fake, "w") as f:
            f.write(FAKE)
        os.chmod(fake, 0o755)
        cases = os.path.join(tmp, "cases")
        os.mkdir(cases)
        for name, (fields, _) in CASES.items():
            with open(os.path.join(cases, name + ".json"), "w") as f:
                json.dump(dict(BASE, **fields), f)
        out = subprocess.run([sys.executable, os.path.join(HERE, "check_verdicts.py"), fake],
                             capture_output=True, text=True,
                             env=dict(os.environ, GS_VERDICT_CASES=cases))
    lines = out.stdout.splitlines()
    for name, (_, want) in CASES.items():
        got = next((ln for ln in lines if ln.split()[1:2] in ([name + ":"], [name])), "")
        ok = got.startswith(want)
        print(("ok    " if ok else "FAIL  ") + f"{name}: {got[:150]!r}")
        if not ok:
            failures.append(f"{name}: want {want!r}")
    summary = "1 ok, 8 fail, 1 pending, 1 skip"
    if out.returncode != 1 or not out.stdout.rstrip().endswith(summary):
        failures.append(f"exit {out.returncode}, last line {lines[-1:]}, want 1 and {summary!r}")
    for f in failures:
        print("FAIL  " + f)
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
