#!/usr/bin/env python3
"""Checks the structure of a Chrome trace JSON file written by `gpuscope export --format chrome`
(plain or .gz), so that Perfetto, chrome://tracing and HTA can read it:

  - valid JSON: an object with schemaVersion 1, a traceEvents list, traceName, displayTimeUnit,
    deviceProperties (a list) and, when present, distributedInfo with an integer rank;
  - every event has the keys its ph needs (X: name cat pid tid ts dur; i: name pid tid ts s;
    s/f: name cat id pid tid ts, f with bp "e"; M: a known metadata name and its arg;
    C: name pid ts and numeric args), integer pid/tid, and ts/dur numbers with at most three
    decimals (ns precision), dur >= 0;
  - flows pair one to one: each (cat, id) has one "s" and one "f", each at the start of a
    complete event on its own pid/tid (the launch call and the GPU activity);
  - metadata names every process that has events, and every GPU track (kernels, copies, sets,
    syncs) has a thread_name;
  - kernels carry device, stream, grid and block; copies and sets carry bytes.

usage: check_chrome_json.py FILE...   Prints one line per file; exit 0 valid, 1 otherwise."""
import collections
import decimal
import gzip
import json
import sys

META_ARG = {"process_name": "name", "process_labels": "labels", "process_sort_index": "sort_index",
            "thread_name": "name", "thread_sort_index": "sort_index"}
GPU_CATS = {"kernel", "gpu_memcpy", "gpu_memset", "cuda_sync"}


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_time(v):
    """A number with at most three decimals (parsed as Decimal to see the digits written)."""
    return isinstance(v, (int, decimal.Decimal)) and not isinstance(v, bool) and \
        (is_int(v) or v.as_tuple().exponent >= -3)


def check_event(e, errors):
    ph = e.get("ph")
    need = {"X": ("name", "cat", "pid", "tid", "ts", "dur"), "i": ("name", "pid", "tid", "ts", "s"),
            "s": ("name", "cat", "id", "pid", "tid", "ts"), "f": ("name", "cat", "id", "pid", "tid",
                                                                  "ts", "bp"),
            "M": ("name", "pid", "args"), "C": ("name", "pid", "ts", "args")}.get(ph)
    if need is None:
        errors.append(f"unknown ph {ph!r}: {e}")
        return
    missing = [k for k in need if k not in e]
    if missing:
        errors.append(f"ph {ph} without {missing}: {e}")
        return
    if not is_int(e["pid"]) or ("tid" in e and not is_int(e["tid"])):
        errors.append(f"pid/tid not integers: {e}")
    for k in ("ts", "dur"):
        if k in e and not is_time(e[k]):
            errors.append(f"{k} is not a number with at most 3 decimals: {e}")
    if ph == "X" and is_time(e["dur"]) and e["dur"] < 0:
        errors.append(f"negative dur: {e}")
    if ph == "f" and e["bp"] != "e":
        errors.append(f"flow end without bp e: {e}")
    if ph == "M" and META_ARG.get(e["name"]) not in e["args"]:
        errors.append(f"metadata event without its arg: {e}")
    if ph == "C" and (not e["args"] or not all(isinstance(v, (int, decimal.Decimal))
                                               for v in e["args"].values())):
        errors.append(f"counter without numeric args: {e}")
    args = e.get("args", {})
    if ph == "X" and e["cat"] == "kernel" and not all(k in args for k in
                                                       ("device", "stream", "grid", "block")):
        errors.append(f"kernel without device/stream/grid/block: {e}")
    if ph == "X" and e["cat"] in ("gpu_memcpy", "gpu_memset") and "bytes" not in args:
        errors.append(f"copy or set without bytes: {e}")


def check_file(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        try:
            doc = json.load(f, parse_float=decimal.Decimal)
        except ValueError as exc:
            return [f"not valid JSON: {exc}"], 0
    errors = []
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        return ["not an object with a traceEvents list"], 0
    if doc.get("schemaVersion") != 1 or not isinstance(doc.get("traceName"), str) or \
            "displayTimeUnit" not in doc or not isinstance(doc.get("deviceProperties"), list):
        errors.append("header keys missing (schemaVersion, traceName, displayTimeUnit, "
                      "deviceProperties)")
    if "distributedInfo" in doc and not is_int(doc["distributedInfo"].get("rank")):
        errors.append("distributedInfo without an integer rank")
    events = doc["traceEvents"]
    for e in events:
        check_event(e, errors)
    if errors:
        return errors, len(events)
    starts = {(e["pid"], e["tid"], e["ts"]) for e in events if e["ph"] == "X"}
    flows = collections.defaultdict(list)
    for e in events:
        if e["ph"] in "sf":
            flows[(e["cat"], e["id"])].append(e)
            if (e["pid"], e["tid"], e["ts"]) not in starts:
                errors.append(f"flow {e['ph']} not at the start of a complete event: {e}")
    for key, pair in flows.items():
        if sorted(x["ph"] for x in pair) != ["f", "s"]:
            errors.append(f"flow {key} does not pair one to one: {[x['ph'] for x in pair]}")
    named_pids = {e["pid"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
    named_tracks = {(e["pid"], e["tid"]) for e in events
                    if e["ph"] == "M" and e["name"] == "thread_name"}
    for e in events:
        if e["ph"] in "XiC" and e["pid"] not in named_pids:
            errors.append(f"process {e['pid']} has no process_name")
            named_pids.add(e["pid"])
        if e["ph"] == "X" and e["cat"] in GPU_CATS and (e["pid"], e["tid"]) not in named_tracks:
            errors.append(f"GPU track {(e['pid'], e['tid'])} has no thread_name")
            named_tracks.add((e["pid"], e["tid"]))
    return errors, len(events)


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    bad = 0
    for path in sys.argv[1:]:
        errors, n = check_file(path)
        print(f"{'ok  ' if not errors else 'FAIL'} {path}: {n} events"
              + "".join(f"\n  {m}" for m in errors[:5]))
        bad += bool(errors)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
