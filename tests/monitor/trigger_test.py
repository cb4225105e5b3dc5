#!/usr/bin/env python3
"""monitor --trigger and the Alertmanager webhook, end to end on a machine without a GPU.

Two ranks of tests/run/nvtx_target's training loop run dormant under `gpuscope run --on-demand
--job DIR`. Then:
  1. a replayed log whose step time rises from 100 to 150 ms at t=60 s, with
     --trigger 'step_time>1.2*baseline for 20s' --agents DIR: it fires once, held from t=60 to
     t=80, and the capture it starts writes one window of 3 steps per rank;
  2. 'step_time>120ms for 10s' with --cooldown 60 over 300 s: captures at 70, 130, 190 and 250 s
     (at most one per cooldown, the next as soon as the cooldown ends);
  3. the webhook (--serve with --trigger-token-file): 405 for GET, 401 without or with a wrong
     token, 400 for a body that is no notification, 413 for one too large, 200 for a resolved
     notification, 202 for a firing one, whose capture writes a window, then 429 in the
     cooldown; a token file others can read is refused (exit 2); a request from a non-loopback
     address of this machine is 403 (when it has one); /metrics has the step time.

usage: trigger_test.py GPUSCOPE
"""
import glob
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

FAILS = []


def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + (f": {detail}" if detail and not ok else ""))
    if not ok:
        FAILS.append(name)


def write_log(path, seconds, step_ms):
    with open(path, "w") as f:
        for t in range(seconds):
            f.write(json.dumps({"ts": 1717000000 + t, "hostname": "node-7", "host_cpu_pct": 10,
                                "host_mem_used_bytes": 1, "host_mem_total_bytes": 2,
                                "agents": 2, "step_ns": int(step_ms(t) * 1e6)}) + "\n")


def steps_of(exe, path):
    out = subprocess.run([exe, "steps", path, "--keep-warmup", "--format", "json"],
                         capture_output=True, text=True).stdout
    try:
        return [r["step"] for r in json.loads(out)["traces"][0]["rows"]]
    except (ValueError, KeyError, IndexError):
        return None


def request(port, method, path="/trigger", body=None, headers=None, host="127.0.0.1"):
    c = http.client.HTTPConnection(host, port, timeout=10)
    c.request(method, path, body=body, headers=headers or {})
    r = c.getresponse()
    request.body = r.read().decode(errors="replace")
    c.close()
    return r.status


def non_loopback_address():
    """An IPv4 address of this machine's own interfaces other than loopback, or None.

    The host name often resolves to 127.0.x.1 only (/etc/hosts), so the interfaces are asked:
    the source address the kernel picks for a route out (a UDP connect() sends nothing), else
    the addresses `ip` lists."""
    for far in ("10.255.255.255", "203.0.113.1"):  # private and documentation: never reached
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                s.connect((far, 9))
                addr = s.getsockname()[0]
            except OSError:
                continue
        if addr != "0.0.0.0" and not addr.startswith("127."):
            return addr
    try:
        listed = subprocess.run(["ip", "-4", "-o", "addr", "show"], capture_output=True,
                                text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        listed = ""
    for addr in re.findall(r"\binet (\d+\.\d+\.\d+\.\d+)/", listed):
        if not addr.startswith("127."):
            return addr
    return None


def main():
    exe = os.path.abspath(sys.argv[1])
    target = os.path.join(os.path.dirname(exe), "nvtx_target")
    if not os.path.exists(target) or not os.path.exists(
            os.path.join(os.path.dirname(exe), "libgpuscope_agent.so")):
        print("skip: the agent was not built")
        return 77
    tmp = tempfile.mkdtemp()
    job, out = os.path.join(tmp, "job"), os.path.join(tmp, "out")
    os.mkdir(job, 0o700)
    os.mkdir(out)
    env = dict(os.environ)
    env.pop("CUDA_INJECTION64_PATH", None)
    env.pop("NVTX_INJECTION64_PATH", None)
    ranks = [subprocess.Popen([exe, "run", "-q", "--on-demand", "--job", job, "-o", out + "/", "--",
                               target, "train", "3000", "20", "0", os.path.join(tmp, "pids")],
                              env=dict(env, RANK=str(r))) for r in range(2)]
    try:
        for _ in range(200):
            if len(glob.glob(job + "/*.agent")) == 2:
                break
            time.sleep(0.05)
        check("two dormant ranks", len(glob.glob(job + "/*.agent")) == 2)

        # 1. a relative trigger on a replayed log, capturing the live ranks
        log = os.path.join(tmp, "rise.jsonl")
        write_log(log, 120, lambda t: 100 if t < 60 else 150)
        p = subprocess.run([exe, "monitor", "--replay", log, "--interval", "0", "--format", "json",
                            "--trigger", "step_time>1.2*baseline for 20s", "--agents", job,
                            "--capture-steps", "3", "--capture-output", out + "/w%w-r%q{RANK}.gst"],
                           capture_output=True, text=True, env=env, timeout=120)
        fired = re.findall(r"held from (\d+\.\d+) to (\d+\.\d+)", p.stderr)
        check("monitor exits 0", p.returncode == 0, p.stderr)
        check("at the end of the log, it says it waits for the capture",
              re.search(r"monitor: waiting for 1 capture under way \(process \d+\)\n.*"
                        r"monitor: capture \(process \d+\) ended with status 0\n", p.stderr,
                        re.S) is not None, p.stderr)
        check("fires once, held from t=60 to t=80",
              fired == [("1717000060.000", "1717000080.000")], p.stderr)
        windows = sorted(glob.glob(out + "/w*-r*.gst"))
        check("one window per rank", len(windows) == 2, f"{windows}\n{p.stderr}")
        got = [steps_of(exe, w) for w in windows]
        check("3 steps each, the same ones", len(got) == 2 and got[0] == got[1] and
              got[0] is not None and len(got[0]) == 3, f"{got}")

        # 2. at most one capture per cooldown
        log2 = os.path.join(tmp, "slow.jsonl")
        write_log(log2, 300, lambda t: 100 if t < 60 else 150)
        p = subprocess.run([exe, "monitor", "--replay", log2, "--interval", "0", "--format", "json",
                            "--trigger", "step_time>120ms for 10s", "--cooldown", "60"],
                           capture_output=True, text=True, env=env, timeout=60)
        ends = [t for _, t in re.findall(r"held from (\d+\.\d+) to (\d+\.\d+)", p.stderr)]
        check("captures at 70, 130, 190, 250 s",
              ends == [f"{1717000000 + s}.000" for s in (70, 130, 190, 250)], p.stderr)

        # 3. the webhook
        token = os.path.join(tmp, "token")
        with open(token, "w") as f:
            f.write("s3cret-token\n")
        os.chmod(token, 0o644)
        p = subprocess.run([exe, "monitor", "--replay", log2, "--once", "--serve", "127.0.0.1:0",
                            "--trigger-token-file", token], capture_output=True, text=True,
                           env=env, timeout=30)
        check("a token file others can read is refused", p.returncode == 2 and
              "chmod 600" in p.stderr, p.stderr)
        os.chmod(token, 0o600)
        m = subprocess.Popen([exe, "monitor", "--replay", log2, "--once", "--serve", "0.0.0.0:0",
                              "--trigger-token-file", token, "--agents", job, "--capture-steps",
                              "2", "--capture-output", out + "/hook-w%w-r%q{RANK}.gst"],
                             stderr=subprocess.PIPE, text=True, env=env)
        line = m.stderr.readline()
        port = int(re.search(r":(\d+)/metrics", line).group(1)) if "serving" in line else 0
        check("the exporter serves", port > 0, line)
        auth = {"Authorization": "Bearer s3cret-token", "Content-Type": "application/json"}
        firing = json.dumps({"version": "4", "status": "firing", "receiver": "gpuscope",
                             "alerts": [{"status": "firing", "labels": {"alertname": "Slow"}}]})
        resolved = json.dumps({"version": "4", "status": "resolved", "alerts": []})
        check("GET /trigger: 405", request(port, "GET") == 405)
        check("no token: 401", request(port, "POST", body=firing) == 401)
        check("a wrong token: 401", request(port, "POST", body=firing,
                                            headers={"Authorization": "Bearer nope"}) == 401)
        check("not a notification: 400", request(port, "POST", body="{}", headers=auth) == 400)
        check("too large: 413", request(port, "POST", body="x" * (70 << 10), headers=auth) == 413)
        check("resolved: 200", request(port, "POST", body=resolved, headers=auth) == 200)
        check("firing: 202", request(port, "POST", body=firing, headers=auth) == 202)
        check("again in the cooldown: 429", request(port, "POST", body=firing, headers=auth) == 429)
        check("metrics still served", request(port, "GET", "/metrics") == 200)
        check("the watched step time is a metric",
              "gpuscope_step_seconds{Hostname=\"node-7\"} 0.1\n" in request.body and
              "gpuscope_agents{Hostname=\"node-7\"} 2\n" in request.body, request.body[-600:])
        other = non_loopback_address()
        if other:
            check(f"from another address ({other}): 403",
                  request(port, "POST", body=firing, headers=auth, host=other) == 403)
        else:
            print("skipped: this machine has no IPv4 address but loopback to call from")
        for _ in range(100):
            if len(glob.glob(out + "/hook-w*.gst")) == 2:
                break
            time.sleep(0.1)
        m.terminate()
        err = m.communicate(timeout=30)[1]
        check("the webhook's capture wrote a window per rank",
              len(glob.glob(out + "/hook-w*.gst")) == 2, err)
    finally:
        for r in ranks:
            r.kill()
            r.wait()
    print(f"{'FAILED: ' + ', '.join(FAILS) if FAILS else 'all passed'}")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
