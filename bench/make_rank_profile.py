#!/usr/bin/env python3
"""Build an N-rank Kineto (PyTorch profiler) profile from one real rank, for benchmarks.

Each rank is a copy of the source trace's events with:
  - distributedInfo.rank / world_size rewritten (and the default process
    group's pg_size / ranks, and the "Group size" argument of collectives,
    set to the world size),
  - every timestamp shifted by a per-rank clock offset (rank 0: 0; others
    drawn uniformly from +-OFFSET_MS with a fixed seed), as if each rank's
    host clock were off by that much,
  - optionally one slow rank (--slow-rank R): its communication kernels
    (names starting with nccl / containing ncclKernel or ncclDevKernel) start
    up to --slow-us later (at most half their duration) and end at the same
    time, i.e. it arrives late at every collective and the others wait.
Everything else (ids, pids, names, args) is kept, so each file is a real
rank's trace as far as any reader can tell.

Files are written as OUT/rank-R.json.gz (gzip level --level, default 1:
the readers' inflate speed barely depends on it), one event per line,
deterministic (same source and options -> same bytes), by --jobs worker
processes. OUT.meta.json (beside the folder) records the source, the offsets, the slow
rank and the sizes.

Usage: make_rank_profile.py [--source FILE] --out DIR [--ranks 64]
                            [--offset-ms 50] [--slow-rank R] [--slow-us 200]
                            [--seed 1] [--level 1] [--jobs 2] [--force]
"""

import argparse
import decimal
import gzip
import json
import multiprocessing
import os
import random
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
DEFAULT_SOURCE = os.path.join(REPO, "..", "shared", "traces", "hta", "df_index_resolver",
                              "df_index_resolver.json.gz")

COMM_RE = re.compile(r"^(nccl|hccl)|ncclKernel|ncclDevKernel")

# Filled in the parent before the workers fork (read-only in the workers).
G = {}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def open_text(path):
    if path.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8")
    return open(path, "r", encoding="utf-8")


def is_num(v):
    return isinstance(v, (int, float, decimal.Decimal)) and not isinstance(v, bool)


def enc_default(o):
    if isinstance(o, decimal.Decimal):
        return float(o)  # args with decimals (ts/dur are written by fmt_num)
    raise TypeError(f"cannot encode {type(o).__name__}")


DUMPS = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "), default=enc_default).encode


def fmt_num(v):
    """A timestamp as JSON text: integers as integers, decimals with their digits."""
    if isinstance(v, int):
        return str(v)
    if isinstance(v, decimal.Decimal):
        s = format(v, "f")
        return s
    return repr(v)


def is_comm_kernel(e):
    return (e.get("cat") in ("kernel", "Kernel") and isinstance(e.get("name"), str)
            and COMM_RE.search(e["name"]) is not None)


def prepare(doc, world):
    """Split each event into (ts, text after ts) once, so a rank is string joins."""
    templates = []
    comm = []  # indexes of communication kernels (re-encoded for the slow rank)
    for i, e in enumerate(doc["traceEvents"]):
        if not isinstance(e, dict):
            templates.append((None, DUMPS(e)))
            continue
        a = e.get("args")
        if isinstance(a, dict) and "Group size" in a and is_num(a["Group size"]):
            a["Group size"] = world
        ts = e.get("ts")
        if is_num(ts):
            rest = {k: v for k, v in e.items() if k != "ts"}
            body = DUMPS(rest)
            templates.append((ts, body[1:] if body != "{}" else "}"))
            if is_comm_kernel(e) and is_num(e.get("dur")):
                comm.append(i)
        else:
            templates.append((None, DUMPS(e)))
    return templates, comm


def header_for(doc, rank, world):
    out = []
    for k, v in doc.items():
        if k == "traceEvents":
            continue
        if k == "distributedInfo" and isinstance(v, dict):
            v = dict(v)
            v["rank"] = rank
            v["world_size"] = world
            if isinstance(v.get("pg_config"), list):
                pgs = []
                for pg in v["pg_config"]:
                    if isinstance(pg, dict) and pg.get("pg_desc") == "default_pg":
                        pg = dict(pg)
                        pg["pg_size"] = world
                        pg["ranks"] = list(range(world))
                    pgs.append(pg)
                v["pg_config"] = pgs
        if k == "traceName" and isinstance(v, str):
            v = re.sub(r"rank_?\d+", f"rank_{rank}", v)
        out.append(f"  {json.dumps(k)}: {DUMPS(v)},\n")
    if "distributedInfo" not in doc:
        out.append(f'  "distributedInfo": {{"backend": "nccl", "rank": {rank}, '
                   f'"world_size": {world}}},\n')
    return "".join(out)


def shift_ts(ts, off):
    """ts + off, where off is in the source's unit (us) as an int or Decimal."""
    if isinstance(ts, int) and isinstance(off, int):
        return ts + off
    return decimal.Decimal(str(ts)) + decimal.Decimal(off)


def write_rank(rank):
    doc, templates, comm = G["doc"], G["templates"], G["comm"]
    world, off, slow = G["world"], G["offsets"][rank], G["slow_rank"]
    path = os.path.join(G["out"], f"rank-{rank}.json.gz")
    overrides = {}
    late_us = []
    if rank == slow:
        for i in comm:
            e = doc["traceEvents"][i]
            dur = e["dur"]
            if isinstance(dur, int):
                d = int(min(G["slow_us"], dur / 2))
            else:
                dur = decimal.Decimal(str(dur))
                d = min(decimal.Decimal(str(G["slow_us"])), dur / 2).quantize(decimal.Decimal("0.001"))
            if d <= 0:
                continue
            e2 = dict(e)
            e2["dur"] = dur - d
            rest = {k: v for k, v in e2.items() if k != "ts"}
            overrides[i] = (shift_ts(e["ts"], d), DUMPS(rest)[1:])
            late_us.append(float(d))
    tmp = path + ".tmp"
    n_bytes = 0
    with open(tmp, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0,
                           compresslevel=G["level"]) as fo:
            head = "{\n" + header_for(doc, rank, world) + '  "traceEvents": [\n'
            fo.write(head.encode("utf-8"))
            n_bytes += len(head)
            chunk = []
            first = True
            for i, (ts, rest) in enumerate(templates):
                if i in overrides:
                    ts, rest = overrides[i]
                if ts is None:
                    s = rest
                else:
                    s = '{"ts": ' + fmt_num(shift_ts(ts, off)) + (", " + rest if rest != "}" else "}")
                chunk.append(s if first else ",\n" + s)
                first = False
                if len(chunk) >= 4096:
                    b = "".join(chunk).encode("utf-8")
                    fo.write(b)
                    n_bytes += len(b)
                    chunk = []
            chunk.append("\n  ]\n}\n")
            b = "".join(chunk).encode("utf-8")
            fo.write(b)
            n_bytes += len(b)
    os.replace(tmp, path)
    return {"rank": rank, "path": path, "json_bytes": n_bytes,
            "gz_bytes": os.path.getsize(path),
            "late_kernels": len(late_us),
            "late_mean_us": (sum(late_us) / len(late_us)) if late_us else 0.0}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--source", default=DEFAULT_SOURCE,
                   help="real rank to copy (.json or .json.gz); default: %(default)s")
    p.add_argument("--out", required=True, help="output folder (outside the repository)")
    p.add_argument("--ranks", type=int, default=64, help="number of ranks (default %(default)s)")
    p.add_argument("--offset-ms", type=float, default=50.0,
                   help="clock offsets drawn from +-this (default %(default)s ms; 0: none)")
    p.add_argument("--slow-rank", type=int, default=-1,
                   help="rank that arrives late at collectives (default: none)")
    p.add_argument("--slow-us", type=float, default=200.0,
                   help="how late, at most half of each kernel (default %(default)s us)")
    p.add_argument("--seed", type=int, default=1, help="offsets seed (default %(default)s)")
    p.add_argument("--level", type=int, default=1, help="gzip level (default %(default)s)")
    p.add_argument("--jobs", type=int, default=2, help="worker processes (default %(default)s)")
    p.add_argument("--force", action="store_true", help="rebuild even if OUT is complete")
    args = p.parse_args()

    if args.ranks < 1 or args.ranks > 100000:
        p.error("--ranks must be 1..100000")
    if args.slow_rank >= args.ranks:
        p.error("--slow-rank must be below --ranks")
    out = os.path.abspath(args.out)
    if (os.path.realpath(out) + os.sep).startswith(os.path.realpath(REPO) + os.sep):
        raise SystemExit(f"refusing to write {out} inside the repository; use a scratch dir")
    src = os.path.abspath(args.source)
    meta_path = out.rstrip(os.sep) + ".meta.json"  # beside OUT: readers take every file in OUT
    want = {"source": src, "ranks": args.ranks, "offset_ms": args.offset_ms,
            "slow_rank": args.slow_rank, "slow_us": args.slow_us, "seed": args.seed,
            "level": args.level}
    if not args.force and os.path.exists(meta_path):
        try:
            old = json.load(open(meta_path))
        except ValueError:
            old = {}
        if ({k: old.get(k) for k in want} == want
                and all(os.path.exists(r["path"]) for r in old.get("files", []))):
            log(f"{out} is complete (use --force to rebuild)")
            print(json.dumps({k: v for k, v in old.items() if k != "files"}))
            return 0
    os.makedirs(out, exist_ok=True)
    for f in os.listdir(out):  # stale ranks of an earlier, larger profile
        if re.fullmatch(r"rank-\d+\.json\.gz(\.tmp)?", f):
            os.unlink(os.path.join(out, f))
    if os.path.exists(meta_path):
        os.unlink(meta_path)

    t0 = time.time()
    log(f"reading {src}")
    with open_text(src) as f:
        doc = json.load(f, parse_float=decimal.Decimal)
    if isinstance(doc, list):
        doc = {"traceEvents": doc}
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        raise SystemExit(f"{src}: not a Chrome/Kineto trace (no traceEvents array)")
    templates, comm = prepare(doc, args.ranks)
    ints = all(isinstance(ts, int) for ts, _ in templates if ts is not None)
    rng = random.Random(args.seed)
    offsets = [0]
    for _ in range(1, args.ranks):
        ns = int(round(rng.uniform(-args.offset_ms, args.offset_ms) * 1e6))
        # integer-us sources keep integer timestamps: offsets in whole us
        offsets.append(int(round(ns / 1000)) if ints else decimal.Decimal(ns) / 1000)
    G.update(doc=doc, templates=templates, comm=comm, world=args.ranks, offsets=offsets,
             slow_rank=args.slow_rank, slow_us=args.slow_us, out=out, level=args.level)
    log(f"source: {len(templates)} events, {len(comm)} communication kernels; "
        f"writing {args.ranks} ranks to {out} with {args.jobs} jobs")
    jobs = max(1, min(args.jobs, args.ranks))
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            files = pool.map(write_rank, range(args.ranks), chunksize=1)
    else:
        files = [write_rank(r) for r in range(args.ranks)]
    meta = dict(want)
    meta.update({
        "events_per_rank": len(templates),
        "comm_kernels_per_rank": len(comm),
        "offsets_us": [float(o) for o in offsets],
        "json_bytes": sum(f["json_bytes"] for f in files),
        "gz_bytes": sum(f["gz_bytes"] for f in files),
        "late_kernels": files[args.slow_rank]["late_kernels"] if args.slow_rank >= 0 else 0,
        "late_mean_us": files[args.slow_rank]["late_mean_us"] if args.slow_rank >= 0 else 0,
        "seconds": round(time.time() - t0, 1),
        "files": files,
    })
    with open(meta_path, "w") as f:
        json.dump(meta, f)
        f.write("\n")
    log(f"wrote {args.ranks} ranks: {meta['json_bytes'] / 1e6:.1f} MB of JSON, "
        f"{meta['gz_bytes'] / 1e6:.1f} MB gzipped, in {meta['seconds']} s")
    print(json.dumps({k: v for k, v in meta.items() if k != "files"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
