#!/usr/bin/env python3
"""Hostile requests to `monitor --serve`'s Alertmanager webhook (POST /trigger), while a replayed
log is watched by a --trigger too:

  - 8 firing notifications at once, from 8 loopback addresses: exactly one is 202, 7 are 429
    (the cooldown is claimed once); the capture it starts is said with its alert's name;
  - a chunked body past 64 KiB without Content-Length: 413; a string with a NUL byte: 400; a
    notification nested 20000 deep before its status: 429 (read through, in the cooldown); a
    prefix of the token, or the token and more: 401;
  - a body sent a byte at a time does not hold up /metrics;
  - the cooldown is on the samples' clock: the webhook's capture, at the start of a log of 2024,
    does not stop the trigger's captures 65 and 95 s of log later (cooldown 30 s);
  - at the end every capture child has been reaped and its end said; SIGTERM ends it with 0;
  - a webhook before the first sample (the log a FIFO nothing was written to yet): its cooldown
    starts at the first sample's time, so the trigger's captures come as they would after it.

The captures are of an empty job folder: each `gpuscope capture` ends at once with status 3.

usage: monitor_trigger_webhook.py GPUSCOPE [--sanitized]
"""
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

T0 = 1717000000
INTERVAL_S = 0.2  # 100 samples: 20 s; the webhook must land in the first 30 (6 s)
TOKEN = "s3cret-token"
SCRAPE_BOUND_S = 3.0 if "--sanitized" in sys.argv else 1.0
FAILS = []


def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + (f": {detail}" if detail and not ok else ""))
    if not ok:
        FAILS.append(name)


def write_log(path):
    with open(path, "w") as f:
        for t in range(100):
            f.write(json.dumps({"ts": T0 + t, "hostname": "node-7", "host_cpu_pct": 10,
                                "host_mem_used_bytes": 1, "host_mem_total_bytes": 2, "agents": 2,
                                "step_ns": (100 if t < 60 else 250) * 1000000}) + "\n")


def post(port, body, token=TOKEN, source="127.0.0.1", headers=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                                   source_address=(source, 0))
    h = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}
    h.update(headers or {})
    c.request("POST", "/trigger", body=body, headers=h)
    status = c.getresponse().status
    c.close()
    return status


def chunked_post(port, size):
    """A body of `size` bytes in chunks, with no Content-Length."""
    def chunks():
        for _ in range(size // 4096):
            yield b"x" * 4096
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.request("POST", "/trigger", body=chunks(), encode_chunked=True,
              headers={"Authorization": "Bearer " + TOKEN, "Transfer-Encoding": "chunked"})
    status = c.getresponse().status
    c.close()
    return status


def firing(prefix=""):
    return prefix + '"status":"firing","alerts":[{"labels":{"alertname":"Slow"}}]}'


def start_monitor(exe, log, interval, token, job):
    """`monitor --replay LOG --serve` with the webhook and a trigger: the process, the first line
    it said and the port that line names (0: none)."""
    m = subprocess.Popen([exe, "monitor", "--replay", log, "--interval", str(interval),
                          "--format", "csv", "--serve", "127.0.0.1:0", "--trigger-token-file",
                          token, "--agents", job, "--trigger", "step_time>200ms for 5s",
                          "--cooldown", "30"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    line = m.stderr.readline()
    got = re.search(r":(\d+)/metrics", line)
    return m, line, int(got.group(1)) if got else 0


def stop_monitor(m):
    """SIGTERM, then what it said on stderr."""
    m.send_signal(signal.SIGTERM)
    try:
        return m.communicate(timeout=30)[1]
    except subprocess.TimeoutExpired:
        m.kill()
        return m.communicate()[1]


def trigger_holds(err):
    """The trigger's captures: from and to, in seconds of log."""
    return [(int(a) - T0, int(b) - T0) for a, b in
            re.findall(r"trigger 'step_time>200ms for 5s' held from (\d+)\.000 to (\d+)\.000",
                       err)]


def webhook_before_samples(exe, tmp):
    """The log is a FIFO: the monitor serves, then waits in the log's open for a writer, so the
    webhook's capture is claimed before any sample, every time."""
    fifo, job, token = (os.path.join(tmp, n) for n in ("early.jsonl", "job", "token"))
    plain = os.path.join(tmp, "early-log.jsonl")
    write_log(plain)
    os.mkfifo(fifo)
    m, _, port = start_monitor(exe, fifo, 0.02, token, job)
    status = post(port, firing("{")) if port else 0
    with open(fifo, "w") as f, open(plain) as log:
        f.write(log.read())
    time.sleep(100 * 0.02 + 1)
    err = stop_monitor(m)
    check("before the first sample: 202, and the trigger's captures at 65 and 95 s of log",
          status == 202 and trigger_holds(err) == [(60, 65), (66, 95)], f"{status}\n{err}")


def main():
    exe = os.path.abspath(sys.argv[1])
    tmp = tempfile.mkdtemp()
    log, job, token = (os.path.join(tmp, n) for n in ("log.jsonl", "job", "token"))
    write_log(log)
    os.mkdir(job, 0o700)
    with open(token, "w") as f:
        f.write(TOKEN + "\n")
    os.chmod(token, 0o600)
    m, line, port = start_monitor(exe, log, INTERVAL_S, token, job)
    check("the exporter serves", port > 0, line)
    try:
        results = []
        threads = [threading.Thread(target=lambda a=a: results.append(post(port, firing("{"),
                                                                           source=a)))
                   for a in (f"127.0.0.{i}" for i in range(2, 10))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        check("8 at once: one 202, seven 429", sorted(results) == [202] + [429] * 7, results)
        check("a chunked body past 64 KiB: 413", chunked_post(port, 100 << 10) == 413)
        check("a NUL in the status: 400", post(port, '{"status":"firing\\u0000"}') == 400)
        deep = '{"x":' + "[" * 20000 + "]" * 20000 + ","
        check("nested 20000 deep before the status: 429", post(port, firing(deep)) == 429)
        check("a prefix of the token: 401", post(port, firing("{"), token=TOKEN[:-1]) == 401)
        check("the token and more: 401", post(port, firing("{"), token=TOKEN + "x") == 401)

        slow = socket.create_connection(("127.0.0.1", port))
        slow.sendall(("POST /trigger HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TOKEN +
                      "\r\nContent-Length: 1000\r\n\r\n").encode())
        stalls = []
        for _ in range(5):
            slow.sendall(b" ")
            start = time.monotonic()
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            c.request("GET", "/metrics")
            ok = c.getresponse().status == 200
            c.close()
            stalls.append(ok and time.monotonic() - start < SCRAPE_BOUND_S)
            time.sleep(0.1)
        slow.close()
        check("a body a byte at a time does not hold up /metrics", all(stalls), stalls)
        time.sleep(100 * INTERVAL_S + 1)  # the end of the log
    finally:
        err = stop_monitor(m)
    check("SIGTERM: exit 0", m.returncode == 0, f"{m.returncode}\n{err}")
    check("the webhook's capture", len(re.findall(
        r"Alertmanager webhook \(Slow\): capture --job \S+/job --steps 5 \(process \d+\)\n",
        err)) == 1,
        err)
    check("then the trigger's, at 65 s of log, and at 95 as the cooldown ends",
          trigger_holds(err) == [(60, 65), (66, 95)], err)
    check("every capture ended, said", len(re.findall(
        r"capture \(process \d+\) ended with status 3\n", err)) == 3, err)
    webhook_before_samples(exe, tmp)
    print("FAILED: " + ", ".join(FAILS) if FAILS else "all passed")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
