#!/usr/bin/env python3
"""gpuscope with an NVML whose calls never return (tests/hostile/fake_nvml.c, built beside
gpuscope as fake-nvml/libnvidia-ml.so.1 and put first on LD_LIBRARY_PATH):

  1. `gpuscope run -- nvtx_target ranges 7` with NVML hung from its first sample, and from
     nvmlInit_v2: ends within a bound with the program's exit status 7, the trace holds every
     NVTX range, and (hung while sampling) the note that the GPU sampler was abandoned, which the
     run's summary says too;
  2. `gpuscope monitor` (printing, and --serve) with NVML hung from nvmlInit_v2 and from its
     second sample: SIGTERM and SIGINT each end it within STOP_BOUND_S, with a message that
     NVML hung.

usage: test_hung_nvml.py GPUSCOPE [--sanitized]   (exit 77: skipped)
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

STOP_BOUND_S = 2.0
# NVML calls made by opening it with one GPU (init, count, handle, name, UUID, PCI, memory,
# compute capability): the next call is the first of the first sample.
OPEN_CALLS = 8
# One sample of one GPU: utilization, memory, power, temperature, two clocks, throttle reasons,
# two PCIe directions, the process list twice (its size, then the list).
SAMPLE_CALLS = 11
ABANDONED = "the GPU sampler was abandoned: an NVML call had not returned"
failures = []
SANITIZER_REPORT = re.compile(r"runtime error|ERROR: (Address|Leak|UndefinedBehavior)Sanitizer")


def expect(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def env_with(fake_dir, hang_after):
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = ":".join(filter(None, [fake_dir, env.get("LD_LIBRARY_PATH")]))
    env["GS_FAKE_NVML_HANG_AFTER"] = str(hang_after)
    return env


def ranges_in(exe, trace):
    got = subprocess.run([exe, "ops", "--format", "csv", trace], capture_output=True, text=True)
    calls = dict(line.split(",")[:2] for line in got.stdout.splitlines()[1:])
    return got.returncode, calls


def run_case(exe, fake_dir, tmp, name, hang_after, bound_s, want_note):
    trace = os.path.join(tmp, name + ".gst")
    target = os.path.join(os.path.dirname(exe), "nvtx_target")
    t0 = time.monotonic()
    try:
        r = subprocess.run([exe, "run", "-o", trace, "--", target, "ranges", "7"],
                           env=env_with(fake_dir, hang_after), capture_output=True, text=True,
                           timeout=bound_s * 4 + 10)
    except subprocess.TimeoutExpired:
        expect(False, f"run, NVML hung {name}: ends (killed after {bound_s * 4 + 10:.0f} s)")
        return
    wall = time.monotonic() - t0
    expect(r.returncode == 7,
           f"run, NVML hung {name}: the program's exit status 7 ({r.returncode})")
    expect(wall < bound_s, f"run, NVML hung {name}: ends in {wall:.2f} s (bound {bound_s:.0f} s)")
    expect(not SANITIZER_REPORT.search(r.stderr), f"run, NVML hung {name}: no sanitizer report")
    rc, calls = ranges_in(exe, trace) if os.path.exists(trace) else (-1, {})
    want = {"outer": "1", "inner": "3", "worker": "10", "work-item": "20", "child": "2"}
    expect(rc == 0 and all(calls.get(k) == v for k, v in want.items()),
           f"run, NVML hung {name}: the trace has every NVTX range ({calls or 'no trace'})")
    if want_note:
        data = open(trace, "rb").read() if os.path.exists(trace) else b""
        expect(ABANDONED.encode() in data, f"run, NVML hung {name}: the trace holds the note")
        expect(ABANDONED in r.stderr, f"run, NVML hung {name}: the summary says it "
                                      f"({r.stderr.strip()[-300:]!r})")


def wait_for(predicate, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.02)
    return False


def monitor_case(exe, fake_dir, tmp, args, name, hang_after, sig, settle_s):
    err_path = os.path.join(tmp, "monitor.err")
    with open(err_path, "w") as err:
        p = subprocess.Popen([exe, "monitor"] + args, env=env_with(fake_dir, hang_after),
                             stdout=subprocess.DEVNULL, stderr=err)
    what = f"monitor {' '.join(args)}, NVML hung {name}, {signal.Signals(sig).name}"
    try:
        if "--serve" in args:
            wait_for(lambda: "serving" in open(err_path).read(), 10)
        time.sleep(settle_s)  # NVML is inside the call that never returns by now
        expect(p.poll() is None, f"{what}: still running before the signal")
        t0 = time.monotonic()
        p.send_signal(sig)
        try:
            rc = p.wait(timeout=STOP_BOUND_S * 5)
        except subprocess.TimeoutExpired:
            rc = None
        wall = time.monotonic() - t0
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    text = open(err_path).read()
    expect(rc is not None and wall < STOP_BOUND_S,
           f"{what}: ends {wall:.2f} s after the signal (bound {STOP_BOUND_S} s)")
    expect(rc == 4 and "NVML did not answer" in text and not SANITIZER_REPORT.search(text),
           f"{what}: exit 4 and says NVML hung (exit {rc}: {text.strip()[-200:]!r})")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    exe = os.path.abspath(sys.argv[1])
    sanitized = "--sanitized" in sys.argv[2:]
    fake_dir = os.path.join(os.path.dirname(exe), "fake-nvml")
    if not os.path.exists(os.path.join(fake_dir, "libnvidia-ml.so.1")):
        print(f"skip: the fake NVML was not built ({fake_dir})")
        return 77
    slack = 6 if sanitized else 1
    with tempfile.TemporaryDirectory(prefix="gpuscope-hung-nvml-") as tmp:
        if os.path.exists(os.path.join(os.path.dirname(exe), "libgpuscope_agent.so")):
            # The sampler is waited for 2 s, NVML's start 5 s.
            run_case(exe, fake_dir, tmp, "while sampling", OPEN_CALLS, 4 * slack, True)
            run_case(exe, fake_dir, tmp, "in nvmlInit_v2", 0, 7 * slack, False)
        else:
            print("skip gpuscope run: the agent was not built (no CUDA toolkit headers)")
        for args in (["--format", "csv"], ["--serve", "127.0.0.1:0"]):
            for sig in (signal.SIGTERM, signal.SIGINT):
                monitor_case(exe, fake_dir, tmp, args, "in nvmlInit_v2", 0, sig, 0.5 * slack)
                # The second sample hangs, an --interval after the first.
                monitor_case(exe, fake_dir, tmp, args + ["--interval", "0.2"],
                             "in its second sample", OPEN_CALLS + SAMPLE_CALLS, sig,
                             0.8 * slack)
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
