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


# A PyTorch execution trace (the operator graph, no times): not a trace gpuscope reads.
NOT_TRACES = ("benchmark_simple_add_et.json.gz",)


def corpus_paths(roots=None):
    """Every trace and capture under roots (default: traces_root() and captures_root()), folder by
    folder in name order: each .json, .json.gz and .gst file but NOT_TRACES."""
    found = []
    for root in roots if roots is not None else (traces_root(), captures_root()):
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            found += [os.path.join(dirpath, f) for f in sorted(filenames)
                      if f.endswith((".json", ".json.gz", ".gst")) and f not in NOT_TRACES]
    return found


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)
