"""What the checks against the shared folder beside the repository (../shared: public traces and
GPU captures, read in place) have in common: where its folders are, and a tally of named checks,
each printed as it is made."""
import os

failures = []


def _shared(folder, env):
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return os.environ.get(env) or os.path.normpath(os.path.join(repo, "..", "shared", folder))


def captures_root():
    """../shared/gpu-captures, or GS_GPU_CAPTURES."""
    return _shared("gpu-captures", "GS_GPU_CAPTURES")


def traces_root():
    """../shared/traces, or GS_SHARED_TRACES."""
    return _shared("traces", "GS_SHARED_TRACES")


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)
