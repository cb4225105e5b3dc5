#!/usr/bin/env python3
"""`gpuscope monitor --serve` is not starved by slow clients spread over several addresses:

  while 6 loopback addresses (127.0.0.2 .. 127.0.0.7) each hold 16 connections that send their
  headers a byte at a time (slowloris), scrapes from a 7th address (127.0.0.8) are answered 200
  within SCRAPE_BOUND_S, every time, for ATTACK_S seconds; then SIGTERM, with those connections
  still open, ends the exporter with exit 0 within STOP_BOUND_S.

On Linux every 127.0.0.0/8 address routes to lo, so one machine plays seven clients.

usage: starvation_test.py GPUSCOPE LOG [--sanitized]
"""
import http.client
import os
import socket
import subprocess
import sys
import threading
import time

ATTACKERS = [f"127.0.0.{i}" for i in range(2, 8)]
PER_ATTACKER = 16
FRESH = "127.0.0.8"
ATTACK_S = 8
SCRAPE_BOUND_S = 1.0
STOP_BOUND_S = 1.0
failures = []


def expect(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def start(exe, log):
    p = subprocess.Popen([exe, "monitor", "--replay", log, "--once", "--serve", "127.0.0.1:0"],
                         stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    line = p.stderr.readline()
    prefix = "gpuscope: monitor: serving http://127.0.0.1:"
    if not line.startswith(prefix):
        p.kill()
        sys.exit(f"FAIL: the exporter did not start: {line!r}")
    return p, int(line[len(prefix):].split("/")[0])


def scrape(port, source, timeout):
    """The status of one GET /metrics and how long it took; "dropped" or "timeout" if none."""
    t0 = time.monotonic()
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        c.request("GET", "/metrics")
        r = c.getresponse()
        r.read()
        status = r.status
    except socket.timeout:
        status = "timeout"
    except (ConnectionError, http.client.HTTPException, OSError):
        status = "dropped"
    finally:
        c.close()
    return status, time.monotonic() - t0


class Slowloris:
    """Keeps PER_ATTACKER connections open from each attacker address, each sending its request's
    headers a byte every half second and reconnecting when the server closes it."""

    def __init__(self, port):
        self.port, self.stop, self.opened = port, threading.Event(), 0
        self.left, self.lock = [], threading.Lock()  # the sockets open when the attack stops
        self.threads = [threading.Thread(target=self.attack, args=(a,)) for a in ATTACKERS]

    def connect(self, source):
        try:
            s = socket.create_connection(("127.0.0.1", self.port), timeout=1,
                                         source_address=(source, 0))
            s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            with self.lock:
                self.opened += 1
            return s
        except OSError:
            return None

    def attack(self, source):
        socks = [None] * PER_ATTACKER
        while not self.stop.is_set():
            for i, s in enumerate(socks):
                if s is None:
                    socks[i] = self.connect(source)
                    continue
                try:
                    s.sendall(b"a")
                except OSError:
                    s.close()
                    socks[i] = self.connect(source)
            self.stop.wait(0.5)
        with self.lock:
            self.left += [s for s in socks if s]

    def __enter__(self):
        for t in self.threads:
            t.start()
        return self

    def finish(self):
        """Stops sending; the connections stay open until the end of the `with`."""
        self.stop.set()
        for t in self.threads:
            t.join()

    def __exit__(self, *exc):
        self.finish()
        for s in self.left:
            s.close()


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    exe, log = sys.argv[1:3]
    slack = 3 if "--sanitized" in sys.argv[3:] else 1
    p, port = start(exe, log)
    try:
        expect(scrape(port, FRESH, 5)[0] == 200, "a scrape before the attack is 200")
        with Slowloris(port) as attack:
            time.sleep(1.5)  # every attacker connection is open and sending
            results = []
            end = time.monotonic() + ATTACK_S
            while time.monotonic() < end:
                results.append(scrape(port, FRESH, 5))
                time.sleep(0.5)
            ok = [s for s, t in results if s == 200 and t < SCRAPE_BOUND_S * slack]
            worst = max(t for _, t in results)
            expect(len(ok) == len(results),
                   f"{len(ok)} of {len(results)} scrapes from {FRESH} answered 200 within "
                   f"{SCRAPE_BOUND_S * slack:.0f} s while {len(ATTACKERS)} addresses x "
                   f"{PER_ATTACKER} slow connections attack (slowest {worst:.2f} s; "
                   f"{[s for s, _ in results if s != 200][:5]})")
            attack.finish()
            print(f"     {attack.opened} attacker connections opened in {ATTACK_S + 1.5:.0f} s")
            t0 = time.monotonic()
            p.terminate()
            try:
                rc = p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                rc = "still running after 10 s"
            wall = time.monotonic() - t0
        expect(rc == 0 and wall < STOP_BOUND_S * slack,
               f"SIGTERM with the slow connections open: exit {rc} in {wall:.2f} s "
               f"(bound {STOP_BOUND_S * slack:.0f} s)")
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
