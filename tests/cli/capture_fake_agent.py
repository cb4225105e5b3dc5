#!/usr/bin/env python3
"""A stand-in for the dormant agent of `gpuscope run --on-demand` (src/common/ondemand.h): the
agent's side of the control folder, without CUDA or the agent library, for tests of `gpuscope
capture` (tests/cli/test_capture.sh).

It writes its status <host>.<pid>.agent, counts a step every --step-ms, reads `request` every
100 ms, and serves a request that names it (and that its own user or root wrote): it waits for
the window (from step `start_step`, or the next one; or from `from_ns` for `duration_ns`),
then writes <pid>.gst (a copy of the committed .gst fixture) and <pid>.target (the output
pattern expanded as the agent expands it) into the request's `dir`, and its status says
`written`. Each window served is one line of --log: "pid=P rank=R window=ID first=F last=L
from_ns=T to_ns=T", F and L the first and last step recorded.

  capture_fake_agent.py --control DIR [--mode answer|fail|silent] [--first-step N]
                        [--output PATTERN] [--log FILE] [--children N] [--keep-status]
"""
import argparse
import os
import signal
import socket
import subprocess
import sys
import time

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "gst",
                       "sample.gst")
HOST = socket.gethostname()[:63]  # as the agent cuts it (GS_OD_HOST_MAX)


def window_gst():
    """The committed fixture with the agent's clock: its header says CLOCK_REALTIME (epoch 0), as
    an agent's window file does, since `capture` merges only those (src/common/gst_format.h:
    the file header, clock at byte 16, epoch_ns at byte 24). Its times stay as they were."""
    data = bytearray(open(FIXTURE, "rb").read())
    data[16:20] = (1).to_bytes(4, "little")
    data[24:32] = (0).to_bytes(8, "little")
    return bytes(data)


def parse(text):
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)


def write_whole(folder, name, text):
    tmp = os.path.join(folder, ".%s.%d.tmp" % (name, os.getpid()))
    with open(tmp, "w") as f:
        f.write(text)
    os.rename(tmp, os.path.join(folder, name))


def expand(pattern, window, rank):
    """%p %h %q{VAR} %w %% as the agent expands -o (src/common/out_pattern.h)."""
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if c != "%" or i + 1 == len(pattern):
            out.append(c)
            i += 1
            continue
        k = pattern[i + 1]
        if k == "q" and pattern[i + 2:i + 3] == "{":
            end = pattern.index("}", i)
            out.append(os.environ.get(pattern[i + 3:end], ""))
            i = end + 1
            continue
        out.append({"p": str(os.getpid()), "h": HOST, "w": str(window), "%": "%"}.get(k, k))
        i += 2
    return "".join(out)


class Agent:
    def __init__(self, a):
        self.a = a
        self.step, self.seen, self.windows, self.last_request = a.first_step - 1, 0, 0, 0
        self.status = {"state": "dormant", "request": 0, "file": "", "error": ""}
        self.name = "%s.%d.agent" % (HOST, os.getpid())
        self.rank = int(os.environ.get("RANK", "-1"))

    def write_status(self):
        s = dict(self.status, pid=os.getpid(), host=HOST, rank=self.rank, step=self.step,
                 step_ns=self.a.step_ms * 1000000 if self.seen > 1 else 0,
                 steps_seen=self.seen, updated_ns=time.time_ns(), windows=self.windows)
        write_whole(self.a.control, self.name,
                    "".join("%s=%s\n" % (k, v) for k, v in s.items()))

    def tick(self, sleep_s):
        """Sleeps, counting the steps that begin meanwhile."""
        until = time.monotonic() + sleep_s
        while True:
            now = time.monotonic()
            due = self.next_step
            if due > until:
                time.sleep(max(0.0, until - now))
                return
            time.sleep(max(0.0, due - now))
            self.step += 1
            self.seen += 1
            self.next_step += self.a.step_ms / 1000

    def request(self):
        path = os.path.join(self.a.control, "request")
        try:
            st = os.lstat(path)
            r = parse(open(path).read())
            rid = int(r["id"])
        except (OSError, KeyError, ValueError):
            return None
        if rid <= self.last_request or st.st_uid not in (os.geteuid(), 0):
            return None
        me = "%s:%d" % (HOST, os.getpid())
        if r.get("targets") != "*" and me not in r.get("targets", "").split(","):
            return None
        self.last_request = rid
        return r

    def serve(self, r):
        rid = int(r["id"])
        self.status.update(state="armed", request=rid)
        self.write_status()
        if self.a.mode == "silent":
            return
        if self.a.mode == "fail":
            self.status.update(state="failed", error="fake failure of window %d" % rid)
            self.write_status()
            return
        steps = int(r.get("steps", "0"))
        if steps:
            start = int(r.get("start_step", "-1"))
            first = start if start > self.step else self.step + 1
            while self.step < first:
                self.tick(0.005)
            t0 = time.time_ns()
            while self.step < first + steps:
                self.tick(0.005)
            last, t1 = first + steps - 1, time.time_ns()
        else:
            t0 = int(r.get("from_ns", "0")) or time.time_ns()
            self.tick(max(0.0, (t0 - time.time_ns()) / 1e9))
            first = self.step + 1
            self.tick(int(r["duration_ns"]) / 1e9)
            last, t1 = self.step, time.time_ns()
        folder = r["dir"]
        gst = os.path.join(folder, "%d.gst" % os.getpid())
        with open(gst, "wb") as f:
            f.write(window_gst())
        pattern = r.get("output") or self.a.output
        with open(os.path.join(folder, "%d.target" % os.getpid()), "w") as f:
            f.write(expand(pattern, rid, self.rank))
        self.windows += 1
        self.status.update(state="written", file=gst)
        self.write_status()
        if self.a.log:
            with open(self.a.log, "a") as f:
                f.write("pid=%d rank=%d window=%d first=%d last=%d from_ns=%d to_ns=%d\n"
                        % (os.getpid(), self.rank, rid, first, last, t0, t1))

    def run(self):
        self.next_step = time.monotonic()
        self.write_status()
        last_write = time.monotonic()
        while True:
            self.tick(0.1)
            r = self.request()
            if r:
                self.serve(r)
            if time.monotonic() - last_write >= 0.2:
                self.write_status()
                last_write = time.monotonic()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--control", required=True)
    p.add_argument("--mode", choices=["answer", "fail", "silent"], default="answer")
    p.add_argument("--step-ms", type=int, default=50)
    p.add_argument("--first-step", type=int, default=0)
    p.add_argument("--output", default="gpuscope-%p-w%w.gst")
    p.add_argument("--log")
    p.add_argument("--children", type=int, default=0, help="as many child agents, forked")
    p.add_argument("--keep-status", action="store_true",
                   help="leave the status behind at exit, as a killed program does")
    a = p.parse_args()
    children = [subprocess.Popen(child_argv(a)) for _ in range(a.children)]
    agent = Agent(a)

    def stop(*_):
        for c in children:
            c.terminate()
            c.wait()
        if not a.keep_status:
            try:
                os.unlink(os.path.join(a.control, agent.name))
            except OSError:
                pass
        os._exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    agent.run()


def child_argv(a):
    argv = [sys.executable, os.path.abspath(__file__), "--control", a.control, "--mode", a.mode,
            "--step-ms", str(a.step_ms), "--first-step", str(a.first_step), "--output", a.output]
    return argv + (["--log", a.log] if a.log else []) + (["--keep-status"] * a.keep_status)


if __name__ == "__main__":
    main()
