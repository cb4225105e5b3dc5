"""What the checks against ../shared/gpu-captures share: where the captures are, and a tally of
named checks, each printed as it is made."""
import os

failures = []


def captures_root():
    env = os.environ.get("GS_GPU_CAPTURES")
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return env or os.path.normpath(os.path.join(repo, "..", "shared", "gpu-captures"))


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)
