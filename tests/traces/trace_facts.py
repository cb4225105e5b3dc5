"""Independent facts about a trace file, straight from its raw JSON (Python's json module).

Used by tests/traces/check_traces.py (real traces) and tests/gen/check_answers.py (generated traces).
Numbers are parsed as decimal.Decimal and microseconds are converted to nanoseconds exactly
(rounded to the nearest ns only when a file carries more than 3 fractional digits).
Python 3 standard library only.
"""

import decimal
import gzip
import json

KERNEL_CATS = frozenset(("kernel", "Kernel"))
OP_CATS = frozenset(("cpu_op", "Operator", "user_annotation"))
API_CATS = frozenset(("cuda_runtime", "cuda_driver", "Runtime"))
MEMCPY_CATS = frozenset(("gpu_memcpy", "Memcpy"))
MEMSET_CATS = frozenset(("gpu_memset", "Memset"))

_THOUSAND = decimal.Decimal(1000)


def us_to_ns(v):
    """A JSON number of microseconds (Decimal or int) -> integer ns, exact for <= 3 decimals."""
    if isinstance(v, bool) or v is None:
        raise ValueError("not a number: %r" % (v,))
    if isinstance(v, int):
        return v * 1000
    if isinstance(v, float):
        v = decimal.Decimal(repr(v))
    if isinstance(v, str):
        v = decimal.Decimal(v)
    ns = v * _THOUSAND
    return int(ns.to_integral_value(rounding=decimal.ROUND_HALF_EVEN))


def open_text(path):
    with open(path, "rb") as f:
        head = f.read(2)
    if head == b"\x1f\x8b":
        return gzip.open(path, "rt", encoding="utf-8", errors="replace")
    return open(path, "r", encoding="utf-8", errors="replace")


def load(path):
    """Returns (doc, events, is_legacy)."""
    with open_text(path) as f:
        doc = json.load(f, parse_float=decimal.Decimal)
    if isinstance(doc, list):
        return doc, doc, True
    if isinstance(doc, dict) and isinstance(doc.get("traceEvents"), list):
        return doc, doc["traceEvents"], False
    raise ValueError("%s: not a trace (no traceEvents array)" % path)


def _add(table, name, dur_ns, count_key):
    row = table.get(name)
    if row is None:
        row = table[name] = {count_key: 0, "total_ns": 0, "min_ns": None, "max_ns": None}
    row[count_key] += 1
    row["total_ns"] += dur_ns
    row["min_ns"] = dur_ns if row["min_ns"] is None else min(row["min_ns"], dur_ns)
    row["max_ns"] = dur_ns if row["max_ns"] is None else max(row["max_ns"], dur_ns)


def _is_x(e):
    return isinstance(e, dict) and e.get("ph") == "X"


def kernels(events, legacy=False):
    """Per kernel name: {count, total_ns, min_ns, max_ns}."""
    out = {}
    if legacy:
        return out
    for e in events:
        if _is_x(e) and e.get("cat") in KERNEL_CATS:
            _add(out, e.get("name"), us_to_ns(e.get("dur", 0)), "count")
    return out


def ops(events, legacy=False):
    """Per op name: {calls, total_ns (= CPU total), min_ns, max_ns}. An operator directly inside
    (on its thread, among the ops and annotations) an operator of the same name is part of that
    call (autocast's aten::addmm around the casts and the bf16 aten::addmm; the TensorBoard
    plugin's remove_dup_nodes for an only child), and so is an annotation directly inside an
    annotation of the same name, as ops counts them (doc/ops.md). Nesting is the
    model's (a range inside [start, end] of the one before it; the plugin does not nest a
    zero-length range at its parent's very end)."""
    threads = {}
    for e in events:
        if _is_x(e) and (legacy or e.get("cat") in OP_CATS):
            start = us_to_ns(e.get("ts", 0))
            dur = us_to_ns(e.get("dur", 0))
            threads.setdefault(_tid_key(e), []).append(
                {"name": e.get("name"), "start": start, "end": start + dur, "dur": dur,
                 "annotation": not legacy and e.get("cat") == "user_annotation",
                 "parent": None})
    out = {}
    for nodes in threads.values():
        nodes.sort(key=lambda n: (n["start"], -n["dur"]))
        stack = []
        for n in nodes:
            while stack and not (n["start"] >= stack[-1]["start"] and n["end"] <= stack[-1]["end"]):
                stack.pop()
            if stack:
                n["parent"] = stack[-1]
            stack.append(n)
        for n in nodes:
            p = n["parent"]
            if p is not None and p["annotation"] == n["annotation"] and p["name"] == n["name"]:
                continue
            _add(out, n["name"], n["dur"], "calls")
    return out


def api(events, legacy=False):
    out = {}
    if legacy:
        return out
    for e in events:
        if _is_x(e) and e.get("cat") in API_CATS:
            _add(out, e.get("name"), us_to_ns(e.get("dur", 0)), "calls")
    return out


def memcpy_kind(name):
    """'Memcpy HtoD (Pageable -> Device)' -> ('HtoD', 'pageable')."""
    kind = "other"
    for k in ("HtoD", "DtoH", "DtoD", "HtoH", "PtoP"):
        if k in name:
            kind = k
            break
    low = name.lower()
    if "pageable" in low:
        mem = "pageable"
    elif "pinned" in low:
        mem = "pinned"
    else:
        mem = "device"
    return kind, mem


def memcpy(events, legacy=False):
    out = {}
    if legacy:
        return out
    for e in events:
        if _is_x(e) and e.get("cat") in MEMCPY_CATS:
            kind, mem = memcpy_kind(e.get("name", ""))
            key = "%s %s" % (kind, mem)
            row = out.setdefault(key, {"count": 0, "bytes": 0, "total_ns": 0})
            row["count"] += 1
            row["bytes"] += int((e.get("args") or {}).get("bytes", 0))
            row["total_ns"] += us_to_ns(e.get("dur", 0))
    return out


def _tid_key(e):
    return (str(e.get("pid")), str(e.get("tid")))
