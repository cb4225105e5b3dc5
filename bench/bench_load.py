#!/usr/bin/env python3
"""Measure gpuscope `report` and HTA's trace load on the same big trace; print one table.

Called by bench_load.sh, which builds gpuscope, installs HTA and makes the
input first; it can be run on its own once those exist:

    bench_load.py --gpuscope build-bench/gpuscope --hta-python VENV/bin/python \
                  --input /tmp/gpuscope-bench/big_trace.json [--gz] [-r 3] [-R 1]

Every run is its own process, started under GNU time (`/usr/bin/time -f '%e %M'`)
for the peak RSS (%M, max resident set size, from wait4); the wall time is
taken around it with the monotonic clock (time's %e reads the realtime clock,
which was seen to jump on a VM). For HTA, bench/hta_load.py also reports the
load alone (TraceAnalysis(...) without Python start-up and imports); the time
ratio uses that, so the interpreter start is not counted against HTA.
Diagnostics go to --log; stdout gets only the report.
"""

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
GNU_TIME = "/usr/bin/time"

TARGET_SPEEDUP = 20.0  # gpuscope at least 20x faster than HTA's load
TARGET_MEM_FRACTION = 0.25  # gpuscope at most 1/4 of HTA's peak RSS


def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True,
                              timeout=30).stdout.strip()
    except Exception:
        return ""


def measure(cmd, log, timeout):
    """Run cmd once; return dict(wall_s, cpu_s, rss_mb, rc, stdout)."""
    with tempfile.NamedTemporaryFile(prefix="gs-bench-time-", delete=False) as tf:
        tfile = tf.name
    full = [GNU_TIME, "-f", "%e %M %U %S", "-o", tfile] + cmd
    log.write(f"\n$ {' '.join(cmd)}\n")
    log.flush()
    t0 = time.monotonic()
    try:
        p = subprocess.run(full, stdout=subprocess.PIPE, stderr=log, timeout=timeout)
        rc, out = p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        rc, out = 124, ""
    wall = time.monotonic() - t0
    rss_mb = cpu_s = None
    try:
        with open(tfile) as f:
            last = [ln for ln in f.read().splitlines() if ln.strip()][-1].split()
        rss_mb = int(last[-3]) / 1024.0
        cpu_s = float(last[-2]) + float(last[-1])
    except Exception:
        pass
    finally:
        os.unlink(tfile)
    log.write(f"[rc={rc} wall={wall:.3f}s cpu={cpu_s}s rss={rss_mb}MB]\n")
    log.flush()
    return {"wall_s": wall, "cpu_s": cpu_s, "rss_mb": rss_mb, "rc": rc, "stdout": out}


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return float(f.read().split()[0])
    except Exception:
        return None


def busy_cpu_s():
    """CPU seconds the whole machine spent non-idle since boot."""
    try:
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        idle = v[3] + (v[4] if len(v) > 4 else 0)
        return (sum(v[:8]) - idle) / os.sysconf("SC_CLK_TCK")
    except Exception:
        return None


def own_cpu_s():
    import resource
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def warm_cache(path):
    with open(path, "rb") as f:
        while f.read(1 << 24):
            pass


def fmt_s(x):
    if x is None:
        return "-"
    return f"{x:.2f}" if x < 100 else f"{x:.0f}"


def fmt_mb(x):
    return "-" if x is None else f"{x:,.0f}"


def summarize(runs, key):
    vals = [r[key] for r in runs if r["rc"] == 0 and r.get(key) is not None]
    if not vals:
        return None, None, None
    return statistics.median(vals), min(vals), max(vals)


def spread(lo, hi, n):
    if lo is None or n < 2:
        return "-"
    return f"{fmt_s(lo)}-{fmt_s(hi)}"


def machine_line():
    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            for ln in f:
                if ln.startswith("model name"):
                    cpu = ln.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kb = int(f.readline().split()[1])
        mem = f"{kb / 1024 / 1024:.1f} GiB RAM"
    except Exception:
        pass
    return (f"machine: {os.cpu_count()} CPUs (nproc {sh('nproc') or '?'}), {cpu or 'unknown CPU'}, "
            f"{mem}, {platform.system()} {platform.release()}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--gpuscope", required=True)
    p.add_argument("--hta-python", default="")
    p.add_argument("--input", required=True, help="big .json (its .gz beside it for --gz)")
    p.add_argument("--gz", action="store_true", help="also measure the .json.gz form")
    p.add_argument("-r", "--repeat", type=int, default=3, help="gpuscope runs per input")
    p.add_argument("-R", "--hta-repeat", type=int, default=1, help="HTA runs per input (0: skip)")
    p.add_argument("--timeout", type=float, default=1800.0, help="seconds per run")
    p.add_argument("--log", default=os.devnull)
    p.add_argument("--build-info", default="")
    a = p.parse_args()

    meta = {}
    try:
        with open(a.input + ".meta.json") as f:
            meta = json.load(f)
    except Exception:
        pass
    inputs = [(".json", a.input)]
    if a.gz and os.path.exists(a.input + ".gz"):
        inputs.append((".json.gz", a.input + ".gz"))
    hta_script = os.path.join(HERE, "hta_load.py")

    load_start = loadavg()
    busy0, own0, t_run0 = busy_cpu_s(), own_cpu_s(), time.monotonic()
    rows = []  # (tool, label, runs)
    hta_info = {}
    with open(a.log, "a") as log:
        log.write(f"\n==== bench_load {datetime.datetime.now().isoformat()} ====\n")
        for label, path in inputs:
            warm_cache(path)  # both tools read from the page cache
            gs_runs = [measure([a.gpuscope, "report", path], log, a.timeout)
                       for _ in range(a.repeat)]
            rows.append(("gpuscope report", label, gs_runs))
            if a.hta_python and a.hta_repeat > 0:
                warm_cache(path)
                hta_runs = []
                for _ in range(a.hta_repeat):
                    r = measure([a.hta_python, hta_script, path], log, a.timeout)
                    try:
                        info = json.loads(r["stdout"].strip().splitlines()[-1])
                        r["load_s"] = info["load_s"]
                        hta_info = info
                    except Exception:
                        r["load_s"] = None
                        if r["rc"] == 0:
                            r["rc"] = -1
                    hta_runs.append(r)
                rows.append(("HTA TraceAnalysis load", label, hta_runs))

    busy1, own1, t_run = busy_cpu_s(), own_cpu_s(), time.monotonic() - t_run0
    other = None if busy0 is None or busy1 is None else max(0.0, (busy1 - busy0) - (own1 - own0))
    # ---- report ----
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    print(f"gpuscope vs HTA: load benchmark, {now}")
    print(machine_line())
    if other is not None:
        frac = other / t_run if t_run > 0 else 0.0
        print(f"other processes: {other:.0f} CPU-s during the {t_run:.0f} s of measuring "
              f"({frac:.2f} cores busy on average; load average {load_start:.2f} at start)"
              + ("  <- timings are noisy" if frac > 0.2 else ""))
    if a.build_info:
        print(a.build_info)
    if hta_info:
        print(f"HTA: HolisticTraceAnalysis {hta_info.get('hta')} (pandas {hta_info.get('pandas')}, "
              f"Python {hta_info.get('python')}), default parser backend")
    size = os.path.getsize(a.input)
    gz = f", {os.path.getsize(a.input + '.gz') / 1e6:.1f} MB as .gz" if len(inputs) > 1 else ""
    ev = f"{meta['events']:,} events" if "events" in meta else "? events"
    src = ""
    if meta:
        src = (f" = {meta.get('copies')} time-shifted copies of {os.path.basename(meta.get('source', '?'))}"
               f" ({meta.get('source_events', 0):,} events)")
    print(f"input: {a.input}: {size / 1e6:.1f} MB JSON{gz}, {ev}{src}")
    if hta_info.get("rows"):
        print(f"       (HTA keeps {hta_info['rows']:,} rows of them in its DataFrame)")
    print()
    print("| tool | input | runs | wall s (median) | wall spread s | CPU s (median) | peak RSS MB (median) |")
    print("|---|---|---|---|---|---|---|")
    res = {}
    for tool, label, runs in rows:
        n_ok = sum(1 for r in runs if r["rc"] == 0)
        wmed, wlo, whi = summarize(runs, "wall_s")
        mmed, _, _ = summarize(runs, "rss_mb")
        cmed, _, _ = summarize(runs, "cpu_s")
        runs_s = f"{n_ok}/{len(runs)}" if n_ok != len(runs) else str(len(runs))
        if tool.startswith("HTA"):
            lmed, llo, lhi = summarize(runs, "load_s")
            res[("hta", label)] = (lmed, mmed)
            wall = (f"{fmt_s(lmed)} load ({fmt_s(wmed)} process)" if lmed is not None
                    else "FAILED")
            sp = spread(llo, lhi, n_ok)
        else:
            res[("gs", label)] = (wmed, mmed)
            wall = fmt_s(wmed) if wmed is not None else "FAILED"
            sp = spread(wlo, whi, n_ok)
        print(f"| {tool} | {label} | {runs_s} | {wall} | {sp} | {fmt_s(cmed)} | {fmt_mb(mmed)} |")

    verdicts = []
    for label, _ in inputs:
        g, h = res.get(("gs", label)), res.get(("hta", label))
        if not g or not h or None in g or None in h:
            continue
        speed = h[0] / g[0] if g[0] > 0 else float("inf")
        memr = h[1] / g[1] if g[1] > 0 else float("inf")
        print(f"| **HTA / gpuscope** | {label} | | **{speed:.1f}x** time | | | "
              f"**{memr:.1f}x** memory |")
        verdicts.append((label, speed, memr))
    print()
    if not verdicts:
        print("target (>=20x faster, <=1/4 memory): not evaluated "
              "(a tool failed or was skipped; see the log)")
    for label, speed, memr in verdicts:
        ok_t = speed >= TARGET_SPEEDUP
        ok_m = memr >= 1.0 / TARGET_MEM_FRACTION
        print(f"target on {label}: >=20x faster: {'MET' if ok_t else 'NOT MET'} ({speed:.1f}x); "
              f"<=1/4 of HTA's memory: {'MET' if ok_m else 'NOT MET'} "
              f"(gpuscope uses {100.0 / memr:.1f}% of HTA's peak RSS)")
    print("notes: wall = whole process (start to exit); HTA time = TraceAnalysis() load only, "
          "without interpreter start and imports; CPU = user+sys of the whole process; "
          "peak RSS = GNU time %M; page cache warm.")
    failed = [(t, l) for t, l, runs in rows if any(r["rc"] != 0 for r in runs)]
    if failed:
        print("FAILED runs: " + ", ".join(f"{t} on {l}" for t, l in failed) +
              (f" (see {a.log})" if a.log != os.devnull else ""))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
