#!/usr/bin/env python3
"""Measure gpuscope `report`, HTA's load and TraceLens's load and report on the same
big trace, with `wc -l` and `zcat` as the floor; print one table.

Called by bench_load.sh, which builds gpuscope, installs HTA and TraceLens and
makes the input first; it can be run on its own once those exist:

    bench_load.py --gpuscope build-bench/gpuscope --hta-python VENV/bin/python \
                  --tracelens-python VENV2/bin/python \
                  --input /tmp/gpuscope-bench/big_trace.json [--gz] [-r 3] [-R 1] [-T 1]

Every run is its own process, started under GNU time (`/usr/bin/time -f '%e %M'`)
for the peak RSS (%M, max resident set size, from wait4); the wall time is
taken around it with the monotonic clock (time's %e reads the realtime clock,
which was seen to jump on a VM). For HTA, bench/hta_load.py also reports the
load alone (TraceAnalysis(...) without Python start-up and imports); the time
ratio uses that, so the interpreter start is not counted against HTA. The same
for TraceLens (bench/tracelens_load.py): its load (TreePerfAnalyzer.from_file)
and its whole standard report (generate_perf_report_pytorch, load included);
the ratio uses the report, since gpuscope's time is its whole report too.
`wc -l FILE` (reads every byte and counts newlines) and `zcat FILE.gz >
/dev/null` (inflates every byte) are the floors: no reader of the file can be
faster than reading it, or than inflating it.
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


def address_space_cap(mb):
    """A preexec_fn capping the child's address space at mb MB (None: no cap)."""
    if not mb:
        return None

    def cap():
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (mb << 20, mb << 20))
    return cap


def measure(cmd, log, timeout, discard_stdout=False, mem_cap_mb=0):
    """Run cmd once; return dict(wall_s, cpu_s, rss_mb, rc, stdout).

    discard_stdout sends the output to /dev/null (zcat's hundreds of MB must
    not go through a pipe into this process); mem_cap_mb caps the address space."""
    with tempfile.NamedTemporaryFile(prefix="gs-bench-time-", delete=False) as tf:
        tfile = tf.name
    full = [GNU_TIME, "-f", "%e %M %U %S", "-o", tfile] + cmd
    log.write(f"\n$ {' '.join(cmd)}\n")
    log.flush()
    t0 = time.monotonic()
    try:
        p = subprocess.run(full, stdout=subprocess.DEVNULL if discard_stdout else subprocess.PIPE,
                           stderr=log, timeout=timeout, preexec_fn=address_space_cap(mem_cap_mb))
        rc, out = p.returncode, (p.stdout or b"").decode("utf-8", "replace")
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


def python_tool_run(python, script, path, log, a):
    """One run of hta_load.py or tracelens_load.py: the process's numbers plus its JSON line."""
    r = measure([python, script, path], log, a.timeout, mem_cap_mb=a.mem_limit_mb)
    try:
        r["info"] = json.loads(r["stdout"].strip().splitlines()[-1])
    except Exception:
        r["info"] = {}
    if r["rc"] == 0 and "load_s" not in r["info"]:
        r["rc"] = -1
    r["load_s"], r["report_s"] = r["info"].get("load_s"), r["info"].get("report_s")
    return r


def first_line(cmd):
    return (sh(cmd).splitlines() or ["unknown"])[0]


def row_cells(tool, runs):
    """(time cell, spread cell) of a row: the Python tools show their own timers."""
    n_ok = sum(1 for r in runs if r["rc"] == 0)
    wmed, wlo, whi = summarize(runs, "wall_s")
    if tool.startswith("HTA"):
        lmed, llo, lhi = summarize(runs, "load_s")
        if lmed is None:
            return "FAILED", "-"
        return f"{fmt_s(lmed)} load ({fmt_s(wmed)} process)", spread(llo, lhi, n_ok)
    if tool.startswith("TraceLens"):
        lmed, _, _ = summarize(runs, "load_s")
        rmed, rlo, rhi = summarize(runs, "report_s")
        if rmed is None:
            return "FAILED", "-"
        return (f"{fmt_s(lmed)} load, {fmt_s(rmed)} report ({fmt_s(wmed)} process)",
                spread(rlo, rhi, n_ok))
    return (fmt_s(wmed) if wmed is not None else "FAILED"), spread(wlo, whi, n_ok)


def compared_time(tool, runs):
    """The time a ratio uses: the load for HTA, the whole report for TraceLens, else the process."""
    key = {"HTA": "load_s", "TraceLens": "report_s"}.get(tool.split()[0], "wall_s")
    return summarize(runs, key)[0]


# (numerator tool, denominator tool, input, what the ratio says); a missing row skips it
RATIOS = [
    ("HTA TraceAnalysis load", "gpuscope report", ".json", "HTA / gpuscope"),
    ("HTA TraceAnalysis load", "gpuscope report", ".json.gz", "HTA / gpuscope"),
    ("TraceLens load + report", "gpuscope report", ".json", "TraceLens / gpuscope"),
    ("TraceLens load + report", "gpuscope report", ".json.gz", "TraceLens / gpuscope"),
    ("gpuscope report", "floor: wc -l", ".json", "gpuscope / wc -l"),
    ("gpuscope report", "floor: zcat > /dev/null", ".json.gz", "gpuscope.gz / zcat"),
]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--gpuscope", required=True)
    p.add_argument("--hta-python", default="")
    p.add_argument("--tracelens-python", default="")
    p.add_argument("--tracelens-source", default="", help="what TraceLens was installed from")
    p.add_argument("--input", required=True, help="big .json (its .gz beside it for --gz)")
    p.add_argument("--gz", action="store_true", help="also measure the .json.gz form")
    p.add_argument("-r", "--repeat", type=int, default=3, help="gpuscope, wc -l, zcat runs per input")
    p.add_argument("-R", "--hta-repeat", type=int, default=1, help="HTA runs per input (0: skip)")
    p.add_argument("-T", "--tracelens-repeat", type=int, default=1,
                   help="TraceLens runs per input (0: skip)")
    p.add_argument("--mem-limit-mb", type=int, default=16000,
                   help="address-space cap of each HTA and TraceLens run (0: none)")
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
    tl_script = os.path.join(HERE, "tracelens_load.py")
    floors = {".json": ("floor: wc -l", ["wc", "-l"], False),
              ".json.gz": ("floor: zcat > /dev/null", ["zcat"], True)}

    load_start = loadavg()
    busy0, own0, t_run0 = busy_cpu_s(), own_cpu_s(), time.monotonic()
    rows = []  # (tool, label, runs)
    info = {}  # tool -> its last JSON line
    with open(a.log, "a") as log:
        log.write(f"\n==== bench_load {datetime.datetime.now().isoformat()} ====\n")
        for label, path in inputs:
            warm_cache(path)  # every tool reads from the page cache
            tool, cmd, discard = floors[label]
            rows.append((tool, label, [measure(cmd + [path], log, a.timeout, discard)
                                       for _ in range(a.repeat)]))
            gs_runs = [measure([a.gpuscope, "report", path], log, a.timeout)
                       for _ in range(a.repeat)]
            rows.append(("gpuscope report", label, gs_runs))
            for tool, python, script, n in (
                    ("HTA TraceAnalysis load", a.hta_python, hta_script, a.hta_repeat),
                    ("TraceLens load + report", a.tracelens_python, tl_script,
                     a.tracelens_repeat)):
                if not python or n <= 0:
                    continue
                warm_cache(path)
                runs = [python_tool_run(python, script, path, log, a) for _ in range(n)]
                info.update({tool: r["info"] for r in runs if r["info"].get("load_s") is not None})
                rows.append((tool, label, runs))

    busy1, own1, t_run = busy_cpu_s(), own_cpu_s(), time.monotonic() - t_run0
    other = None if busy0 is None or busy1 is None else max(0.0, (busy1 - busy0) - (own1 - own0))
    # ---- report ----
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    print(f"gpuscope vs HTA and TraceLens: load benchmark, {now}")
    print(machine_line())
    if other is not None:
        frac = other / t_run if t_run > 0 else 0.0
        print(f"other processes: {other:.0f} CPU-s during the {t_run:.0f} s of measuring "
              f"({frac:.2f} cores busy on average; load average {load_start:.2f} at start)"
              + ("  <- timings are noisy" if frac > 0.2 else ""))
    size = os.path.getsize(a.input)
    gz = f", {os.path.getsize(a.input + '.gz') / 1e6:.1f} MB as .gz" if len(inputs) > 1 else ""
    ev = f"{meta['events']:,} events" if "events" in meta else "? events"
    src = ""
    if meta:
        src = (f" = {meta.get('copies')} time-shifted copies of {os.path.basename(meta.get('source', '?'))}"
               f" ({meta.get('source_events', 0):,} events)")
    print(f"input: {a.input}: {size / 1e6:.1f} MB JSON{gz}, {ev}{src}")
    hta_info = info.get("HTA TraceAnalysis load", {})
    if hta_info.get("rows"):
        print(f"       (HTA keeps {hta_info['rows']:,} rows of them in its DataFrame)")
    tl_info = info.get("TraceLens load + report", {})
    if tl_info.get("events"):
        print(f"       (TraceLens's tree holds {tl_info['events']:,} events)")
    print()
    print("| tool | input | runs | wall s (median) | wall spread s | CPU s (median) | peak RSS MB (median) |")
    print("|---|---|---|---|---|---|---|")
    res = {}
    for tool, label, runs in rows:
        n_ok = sum(1 for r in runs if r["rc"] == 0)
        runs_s = f"{n_ok}/{len(runs)}" if n_ok != len(runs) else str(len(runs))
        wall, sp = row_cells(tool, runs)
        mmed = summarize(runs, "rss_mb")[0]
        res[(tool, label)] = (compared_time(tool, runs), mmed)
        print(f"| {tool} | {label} | {runs_s} | {wall} | {sp} | "
              f"{fmt_s(summarize(runs, 'cpu_s')[0])} | {fmt_mb(mmed)} |")

    verdicts = []
    for num, den, label, what in RATIOS:
        n, d = res.get((num, label)), res.get((den, label))
        if not n or not d or None in n or None in d:
            continue
        speed = n[0] / d[0] if d[0] > 0 else float("inf")
        memr = n[1] / d[1] if d[1] > 0 else float("inf")
        print(f"| **{what}** | {label} | | **{speed:.1f}x** time | | | **{memr:.1f}x** memory |")
        if num.startswith("HTA"):
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
          "TraceLens = TreePerfAnalyzer.from_file() load and the whole "
          "generate_perf_report_pytorch() (load included), both without interpreter start and "
          "imports; ratios use HTA's load and TraceLens's report; CPU = user+sys of the whole "
          "process; peak RSS = GNU time %M; page cache warm.")
    print()
    print("versions and commands (FILE: the input, .json or .json.gz):")
    print(f"- {a.build_info or 'gpuscope: binary ' + a.gpuscope} "
          f"({first_line(a.gpuscope + ' --version')}): `{a.gpuscope} report FILE > /dev/null`")
    print(f"- wc: {first_line('wc --version')}: `wc -l FILE`")
    if a.gz:
        print(f"- zcat: {first_line('zcat --version')}: `zcat FILE.gz > /dev/null`")
    if hta_info:
        print(f"- HTA: HolisticTraceAnalysis {hta_info.get('hta')} (pandas {hta_info.get('pandas')}, "
              f"Python {hta_info.get('python')}), default parser backend: "
              f"`{a.hta_python} {hta_script} FILE` (TraceAnalysis(trace_dir=DIR), DIR holding a "
              "symlink to FILE)")
    if tl_info:
        print(f"- TraceLens: {tl_info.get('tracelens')} from {a.tracelens_source or '?'} "
              f"(pandas {tl_info.get('pandas')}, Python {tl_info.get('python')}): "
              f"`{a.tracelens_python} {tl_script} FILE` (generate_perf_report_pytorch("
              f"profile_json_path=FILE) writing its {tl_info.get('output', 'xlsx')} report to a "
              "temporary dir = `TraceLens_generate_perf_report_pytorch --profile_json_path FILE`)")
    failed = [(t, l) for t, l, runs in rows if any(r["rc"] != 0 for r in runs)]
    if failed:
        capped = any(r.get("info", {}).get("error") == "MemoryError" for _, _, runs in rows for r in runs)
        print("FAILED runs: " + ", ".join(f"{t} on {l}" for t, l in failed) +
              (f"; MemoryError under the {a.mem_limit_mb} MB address-space cap" if capped else "") +
              (f" (see {a.log})" if a.log != os.devnull else ""))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
