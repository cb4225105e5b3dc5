#!/usr/bin/env python3
"""End-to-end test of `gpuscope monitor --serve` on a replayed log, from a second process:

  1. the first scrape is exactly the golden exposition text, valid for check_exposition.py and
     (when installed) `promtool check metrics`;
  2. HEAD /metrics is 200 without a body; other paths 404; other methods 405 (with Allow);
  3. a 100 KB URL and 20 KB of headers are answered 414 / 431 or dropped;
  4. 1000 GET /metrics (8 threads x 125, new connection each) are all 200, and the exporter's
     VmRSS grows by at most RSS_BOUND_KB between after a warm-up and after the load; twice;
  5. slowloris: SLOW_SOCKETS connections sending a header byte per second are held at most
     GS_HTTP_MAX_PER_IP at a time; a scrape from another address (127.0.0.2) succeeds during the
     attack and one from the attacker's address after it; the exporter is still up.

usage: exporter_test.py GPUSCOPE LOG GOLDEN       (GS_UPDATE_GOLDEN=1 rewrites GOLDEN)
"""
import http.client
import os
import shutil
import socket
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_exposition  # noqa: E402

RSS_BOUND_KB = 512
CAMEL_CASE_LINT = "label names should be written in 'snake_case' not 'camelCase'"
REQUESTS, THREADS = 1000, 8
SLOW_SOCKETS, SLOW_SECONDS = 40, 6
failures = []


def expect(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def start(exe, log):
    # Under AddressSanitizer freed memory waits in a quarantine (256 MB by default), which would
    # read as growth; without it RSS measures what the exporter keeps. Ignored by normal builds.
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = ":".join(filter(None, [env.get("ASAN_OPTIONS"), "quarantine_size_mb=0",
                                                 "thread_local_quarantine_size_kb=0"]))
    p = subprocess.Popen([exe, "monitor", "--replay", log, "--once", "--serve", "127.0.0.1:0"],
                         stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env)
    line = p.stderr.readline()
    prefix = "gpuscope: monitor: serving http://127.0.0.1:"
    if not line.startswith(prefix):
        p.kill()
        sys.exit(f"FAIL: the exporter did not start: {line!r}")
    return p, int(line[len(prefix):].split("/")[0])


def request(port, method="GET", path="/metrics", headers=None, source="127.0.0.1", timeout=10):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                   source_address=(source, 0))
    try:
        c.request(method, path, headers=headers or {})
        r = c.getresponse()
        return r.status, r.read(), dict(r.getheaders())
    finally:
        c.close()


def status_or_dropped(port, **kw):
    try:
        return request(port, **kw)[0]
    except (ConnectionError, http.client.HTTPException, socket.timeout, OSError):
        return "dropped"


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def first_scrape(exe, log):
    """Starts the exporter and takes its first scrape once the replayed sample is published.

    The exporter serves as soon as it listens; a scrape that comes before the first sample is
    published gets only the health families (up 0), which is right but not the golden text. So
    such a start is stopped and retried, rather than scraped twice (the count is in the text)."""
    for _ in range(20):
        p, port = start(exe, log)
        scrape = request(port)
        if b"gpuscope_exporter_up 1\n" in scrape[1]:
            return p, port, scrape
        p.kill()
        p.wait()
        time.sleep(0.1)
    sys.exit("FAIL: the exporter never served the replayed sample")


def golden_and_format(scrape, golden):
    status, body, headers = scrape
    expect(status == 200, "GET /metrics is 200")
    expect(headers.get("Content-Type", "").startswith("text/plain; version=0.0.4"),
           "Content-Type is the text exposition's")
    if os.environ.get("GS_UPDATE_GOLDEN"):
        with open(golden, "wb") as f:
            f.write(body)
        print("updated", golden)
    with open(golden, "rb") as f:
        expect(body == f.read(), f"the first scrape is exactly {os.path.relpath(golden)}")
    problems = check_exposition.check(body)
    expect(not problems, "check_exposition.py finds no problem " + "; ".join(problems[:3]))
    promtool = shutil.which("promtool")
    if promtool:
        # Its linter flags dcgm-exporter's own label names (UUID, modelName, Hostname) as
        # camelCase; they are kept on purpose, so that dashboards for dcgm-exporter work. Any
        # other remark, or a parse error, fails.
        r = subprocess.run([promtool, "check", "metrics"], input=body, capture_output=True)
        out = (r.stdout + r.stderr).decode(errors="replace").splitlines()
        other = [line for line in out if not line.endswith(CAMEL_CASE_LINT)]
        expect(not other, f"promtool check metrics: no parse error or lint but dcgm-exporter's "
                          f"label names ({len(out) - len(other)} of those) " + "; ".join(other[:3]))
    else:
        print("skip promtool check metrics: promtool is not installed (Debian: prometheus)")


def methods_and_paths(port):
    status, body, _ = request(port, "HEAD")
    expect(status == 200 and body == b"", "HEAD /metrics is 200 without a body")
    for m in ("POST", "PUT", "DELETE", "PATCH"):
        status, _, headers = request(port, m, headers={"Content-Length": "0"})
        expect(status == 405 and headers.get("Allow") == "GET, HEAD", f"{m} /metrics is 405")
    for path in ("/", "/metrics/", "/favicon.ico", "/../metrics"):
        expect(request(port, path=path)[0] == 404, f"GET {path} is 404")
    long_url = status_or_dropped(port, path="/" + "a" * 100000)
    expect(long_url in (414, "dropped"), f"a 100 KB URL is answered 414 or dropped ({long_url})")
    big = status_or_dropped(port, headers={f"X-Big-{i}": "b" * 1000 for i in range(20)})
    expect(big in (431, 414, "dropped"), f"20 KB of headers are answered 431 or dropped ({big})")
    expect(request(port)[0] == 200, "GET /metrics still works after the hostile requests")


def load(port, pid, warm_up):
    for _ in range(warm_up):
        request(port)
    before = rss_kb(pid)
    statuses = []
    lock = threading.Lock()

    def worker():
        mine = [status_or_dropped(port) for _ in range(REQUESTS // THREADS)]
        with lock:
            statuses.extend(mine)

    t0 = time.monotonic()
    threads = [threading.Thread(target=worker) for _ in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - t0
    after = rss_kb(pid)
    ok = statuses.count(200)
    expect(ok == REQUESTS, f"{ok} of {REQUESTS} requests answered 200 in {elapsed:.2f} s "
                           f"({THREADS} threads)")
    expect(after - before <= RSS_BOUND_KB,
           f"exporter VmRSS {before} kB after warm-up, {after} kB after the load "
           f"(+{after - before} kB, bound {RSS_BOUND_KB} kB)")


def slowloris(port, pid):
    socks = []
    for _ in range(SLOW_SOCKETS):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=2)
            s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            socks.append(s)
        except OSError:
            pass
    during = []
    for second in range(SLOW_SECONDS):
        alive = []
        for s in socks:
            try:
                s.sendall(b"a")
                alive.append(s)
            except OSError:
                s.close()
        socks = alive
        if second in (1, SLOW_SECONDS - 2):
            during.append(status_or_dropped(port, source="127.0.0.2", timeout=5))
        time.sleep(1)
    held = len(socks)
    # A socket the server closed still accepts a first write; count the ones it still answers.
    expect(all(s == 200 for s in during),
           f"a scrape from 127.0.0.2 during the attack succeeds ({during})")
    for s in socks:
        s.close()
    # The server frees the attackers' per-address slots when it notices the closes: give a loaded
    # machine up to 5 s before calling it a failure.
    after = None
    for _ in range(10):
        time.sleep(0.5)
        after = status_or_dropped(port)
        if after == 200:
            break
    expect(after == 200, f"a scrape from 127.0.0.1 after the attack succeeds ({after})")
    print(f"     slowloris: {SLOW_SOCKETS} sockets opened, {held} still writable after "
          f"{SLOW_SECONDS} s; VmRSS {rss_kb(pid)} kB")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    exe, log, golden = sys.argv[1:]
    p, port, scrape = first_scrape(exe, log)
    try:
        golden_and_format(scrape, golden)
        methods_and_paths(port)
        load(port, p.pid, 100)
        load(port, p.pid, 0)  # a second round: growth that goes on would show again
        slowloris(port, p.pid)
        expect(p.poll() is None, "the exporter is still running")
    finally:
        p.terminate()
        try:
            rc = p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            rc = "killed"
    expect(rc == 0, f"SIGTERM stops the exporter with exit 0 ({rc})")
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
