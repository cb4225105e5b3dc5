#!/usr/bin/env python3
"""Build a large Kineto (PyTorch profiler) JSON trace from a real one, for benchmarks.

The events of the source trace are repeated K times back to back in time:
copy k has every timestamp shifted by k * (span + gap), where span is the
source trace's extent (first ts to last ts + dur). Identifiers that must stay
unique across copies (correlation ids, External ids, flow ids, Ev Idx,
autograd Sequence numbers, Python ids) get k * ID_STRIDE added, where
ID_STRIDE is a power of ten above every such id in the source. Metadata
events (ph "M") are written once; the top-level keys (schemaVersion,
deviceProperties, distributedInfo, baseTimeNanoseconds, ...) are kept as
they are. K is the smallest count whose output reaches --target-mb, unless
--copies is given.

The output is written as a stream, one event per line; memory use is that of
the parsed source trace (a few hundred MB for the default one), not of the
output. The output is deterministic (same source + options -> same bytes,
for the .gz too). Next to OUT it writes OUT.meta.json with the event count,
copies and sizes, which bench_load.sh reads.

Usage: make_big_trace.py [--source FILE] [--out FILE] [--target-mb 500]
                         [--copies K] [--gap-us 1000] [--gzip] [--force]
"""

import argparse
import gzip
import json
import math
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
DEFAULT_SOURCE = os.path.join(REPO, "..", "shared", "traces", "hta", "df_index_resolver",
                              "df_index_resolver.json.gz")
DEFAULT_SCRATCH = os.environ.get("GPUSCOPE_BENCH_DIR", "/tmp/gpuscope-bench")

# args keys holding ids that link events to each other (must stay unique per copy)
ID_ARGS = ("correlation", "External id", "Ev Idx", "Sequence number",
           "Python id", "Python parent id", "Python module id",
           "Record function id")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def open_text(path):
    if path.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8")
    return open(path, "r", encoding="utf-8")


def load_source(path):
    with open_text(path) as f:
        doc = json.load(f)
    if isinstance(doc, list):  # legacy autograd-profiler export: a bare array
        doc = {"traceEvents": doc}
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        raise SystemExit(f"{path}: not a Chrome/Kineto trace (no traceEvents array)")
    return doc


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def analyse(events):
    """Return (t0, t1, max_id) over the non-metadata events."""
    t0, t1, max_id = None, None, 0
    for e in events:
        if e.get("ph") == "M":
            continue
        ts = e.get("ts")
        if is_num(ts):
            end = ts + (e["dur"] if is_num(e.get("dur")) else 0)
            t0 = ts if t0 is None or ts < t0 else t0
            t1 = end if t1 is None or end > t1 else t1
        i = e.get("id")
        if isinstance(i, int) and not isinstance(i, bool):
            max_id = max(max_id, i)
        a = e.get("args")
        if isinstance(a, dict):
            for k in ID_ARGS:
                v = a.get(k)
                if isinstance(v, int) and not isinstance(v, bool):
                    max_id = max(max_id, v)
    if t0 is None:
        raise SystemExit("source trace has no timed events")
    return t0, t1, max_id


def shifted(e, dt, did):
    """A copy of event e with its time shifted by dt and its ids by did."""
    e = dict(e)
    ts = e.get("ts")
    if is_num(ts):
        e["ts"] = ts + dt
    i = e.get("id")
    if isinstance(i, int) and not isinstance(i, bool):
        e["id"] = i + did
    a = e.get("args")
    if isinstance(a, dict):
        a2 = None
        for k in ID_ARGS:
            v = a.get(k)
            if isinstance(v, int) and not isinstance(v, bool) and v >= 0:
                if a2 is None:
                    a2 = dict(a)
                a2[k] = v + did
        if a2 is not None:
            e["args"] = a2
    return e


class CountingWriter:
    def __init__(self, f):
        self.f = f
        self.n = 0

    def write(self, s):
        b = s.encode("utf-8")
        self.n += len(b)
        self.f.write(b)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--source", default=DEFAULT_SOURCE,
                   help="real trace to repeat (.json or .json.gz); default: %(default)s")
    p.add_argument("--out", default=os.path.join(DEFAULT_SCRATCH, "big_trace.json"),
                   help="output .json path; default: %(default)s")
    p.add_argument("--target-mb", type=float, default=500.0,
                   help="minimum output size in MB (10^6 bytes); default: %(default)s")
    p.add_argument("--copies", type=int, default=0,
                   help="number of copies (overrides --target-mb)")
    p.add_argument("--gap-us", type=float, default=1000.0,
                   help="idle gap between copies in microseconds; default: %(default)s")
    p.add_argument("--gzip", action="store_true", help="also write OUT.gz")
    p.add_argument("--force", action="store_true", help="rebuild even if OUT exists")
    args = p.parse_args()

    out = os.path.abspath(args.out)
    repo_real = os.path.realpath(REPO)
    if os.path.realpath(out).startswith(repo_real + os.sep):
        raise SystemExit(f"refusing to write {out} inside the repository; use a scratch dir")
    meta_path = out + ".meta.json"
    if (not args.force and os.path.exists(out) and os.path.exists(meta_path)
            and (not args.gzip or os.path.exists(out + ".gz"))):
        log(f"{out} exists (use --force to rebuild)")
        print(open(meta_path).read().strip())
        return 0
    os.makedirs(os.path.dirname(out), exist_ok=True)

    t_start = time.time()
    src = os.path.abspath(args.source)
    log(f"reading {src}")
    doc = load_source(src)
    events = doc["traceEvents"]
    meta_events = [e for e in events if isinstance(e, dict) and e.get("ph") == "M"]
    body = [e for e in events if isinstance(e, dict) and e.get("ph") != "M"]
    t0, t1, max_id = analyse(body)
    span = t1 - t0
    period = span + args.gap_us
    id_stride = 10 ** (len(str(max_id)) if max_id > 0 else 1)
    if isinstance(period, float) and period.is_integer() and all(
            not isinstance(e.get("ts"), float) for e in body[:1000]):
        period = int(period)

    # Size of one copy of the body, as serialised (exact for copy 0; ids and
    # timestamps grow by a few digits at most in later copies).
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode
    copy_bytes = sum(len(dumps(e).encode("utf-8")) + 2 for e in body)
    if args.copies > 0:
        copies = args.copies
    else:
        copies = max(1, math.ceil(args.target_mb * 1e6 / copy_bytes))
    log(f"source: {len(events)} events ({len(meta_events)} metadata), span {span} us, "
        f"max id {max_id}; one copy = {copy_bytes / 1e6:.1f} MB; writing {copies} copies")

    tmp = out + ".tmp"
    n_events = 0
    with open(tmp, "wb", buffering=1 << 22) as raw:
        w = CountingWriter(raw)
        w.write("{\n")
        for k, v in doc.items():
            if k == "traceEvents":
                continue
            w.write(f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)},\n")
        w.write('  "traceEvents": [\n')
        first = True
        for e in meta_events:
            w.write(("" if first else ",\n") + dumps(e))
            first = False
            n_events += 1
        for c in range(copies):
            dt, did = c * period, c * id_stride
            chunk = []
            for e in body:
                chunk.append(dumps(shifted(e, dt, did) if c else e))
            w.write(("" if first else ",\n") + ",\n".join(chunk))
            first = False
            n_events += len(chunk)
            log(f"  copy {c + 1}/{copies}: {w.n / 1e6:.0f} MB")
        w.write("\n  ]\n}\n")
        size = w.n
    os.replace(tmp, out)

    gz_size = None
    if args.gzip:
        log(f"compressing to {out}.gz")
        with open(out, "rb") as fi, open(out + ".gz.tmp", "wb") as raw:
            # filename='' and mtime=0 keep the .gz byte-for-byte deterministic
            with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0,
                               compresslevel=6) as fo:
                while True:
                    b = fi.read(1 << 22)
                    if not b:
                        break
                    fo.write(b)
        os.replace(out + ".gz.tmp", out + ".gz")
        gz_size = os.path.getsize(out + ".gz")

    meta = {
        "path": out,
        "source": os.path.relpath(src, repo_real) if src.startswith(repo_real) else src,
        "source_events": len(events),
        "copies": copies,
        "events": n_events,
        "json_bytes": size,
        "gz_bytes": gz_size,
        "span_us": span,
        "period_us": period,
        "id_stride": id_stride,
    }
    with open(meta_path, "w") as f:
        json.dump(meta, f)
        f.write("\n")
    log(f"wrote {out}: {size / 1e6:.1f} MB, {n_events} events, in {time.time() - t_start:.1f} s")
    print(json.dumps(meta))
    return 0


if __name__ == "__main__":
    sys.exit(main())
