#!/usr/bin/env python3
"""Checks Prometheus text exposition (format 0.0.4) the way a scraper reads it, and stricter:

  - every line is a HELP, a TYPE, or a sample (no blank lines, no other comments);
  - metric and label names have the allowed characters; label names do not start with "__";
  - label values are quoted, with only \\\\, \\" and \\n as escapes, and valid UTF-8;
  - each family has exactly one HELP and one TYPE, both before its first sample, a known type,
    and its samples are contiguous;
  - values (and timestamps, if any) parse as floats (Go's ParseFloat: NaN, +Inf, -Inf too);
  - no series (name and label set) appears twice, no label twice within a sample;
  - the text ends with a newline.

usage: check_exposition.py FILE|-        exit 0 when valid, 1 with one line per problem
       check_exposition.py --self-test   the checker rejects known-bad texts
"""
import re
import sys

NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
LABEL = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")
TYPES = {"counter", "gauge", "histogram", "summary", "untyped"}
# Suffixes a histogram or summary family's samples carry.
SUFFIXES = ("_bucket", "_count", "_sum")


def parse_float(s):
    if s in ("NaN", "+Inf", "-Inf", "Inf"):
        return True
    try:
        float(s)
    except ValueError:
        return False
    return not re.search(r"[a-zA-Z]", s.replace("e", "").replace("E", ""))


def parse_labels(text, pos, problems, where):
    """Parses '{a="x",b="y"}' from text[pos] == '{'; returns (labels, new pos) or (None, pos)."""
    labels = []
    pos += 1
    while True:
        if pos < len(text) and text[pos] == "}":
            return labels, pos + 1
        m = LABEL.match(text, pos)
        if not m:
            problems.append(f"{where}: bad label name at column {pos + 1}")
            return None, pos
        name = m.group(0)
        if name.startswith("__"):
            problems.append(f"{where}: label name {name} is reserved")
        pos = m.end()
        if text[pos:pos + 2] != '="':
            problems.append(f"{where}: label {name} without =\"value\"")
            return None, pos
        pos += 2
        value = []
        while True:
            if pos >= len(text):
                problems.append(f"{where}: unterminated value of label {name}")
                return None, pos
            c = text[pos]
            if c == "\\":
                nxt = text[pos + 1:pos + 2]
                if nxt not in ("\\", '"', "n"):
                    problems.append(f"{where}: bad escape \\{nxt} in label {name}")
                    return None, pos
                value.append({"n": "\n"}.get(nxt, nxt))
                pos += 2
            elif c == '"':
                pos += 1
                break
            elif c == "\n":
                problems.append(f"{where}: raw newline in label {name}")
                return None, pos
            else:
                value.append(c)
                pos += 1
        labels.append((name, "".join(value)))
        if pos < len(text) and text[pos] == ",":
            pos += 1
        elif pos >= len(text) or text[pos] != "}":
            problems.append(f"{where}: expected , or }} after label {name}")
            return None, pos


def family_of(name, types):
    if name in types:
        return name
    for suffix in SUFFIXES:
        base = name[: -len(suffix)] if name.endswith(suffix) else None
        if base and types.get(base) in ("histogram", "summary"):
            return base
    return name


def check(data):
    """Returns the list of problems in the exposition bytes `data`."""
    problems = []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return [f"not UTF-8 at byte {e.start}"]
    if text and not text.endswith("\n"):
        problems.append("the text does not end with a newline")
    helps, types, seen_series = {}, {}, set()
    started, finished = set(), set()
    current = None
    for n, line in enumerate(text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"), 1):
        where = f"line {n}"
        if line.startswith("# HELP ") or line.startswith("# TYPE "):
            kind, rest = line[2:6], line[7:]
            name, _, arg = rest.partition(" ")
            if not NAME.fullmatch(name):
                problems.append(f"{where}: bad metric name {name!r}")
                continue
            table = helps if kind == "HELP" else types
            if name in table:
                problems.append(f"{where}: second {kind} for {name}")
            if name in started:
                problems.append(f"{where}: {kind} for {name} after its samples")
            if kind == "TYPE" and arg not in TYPES:
                problems.append(f"{where}: unknown type {arg!r} for {name}")
            if kind == "HELP" and re.search(r"\\[^\\n]", arg):
                problems.append(f"{where}: bad escape in HELP of {name}")
            table[name] = arg
            continue
        if line.startswith("#") or not line.strip():
            problems.append(f"{where}: neither HELP, TYPE nor a sample: {line[:60]!r}")
            continue
        m = NAME.match(line)
        if not m:
            problems.append(f"{where}: bad metric name at the start of {line[:60]!r}")
            continue
        name, pos, labels = m.group(0), m.end(), []
        if pos < len(line) and line[pos] == "{":
            labels, pos = parse_labels(line, pos, problems, where)
            if labels is None:
                continue
        fields = line[pos:].split(" ")
        if not fields or fields[0] != "" or len(fields) not in (2, 3):
            problems.append(f"{where}: expected ' VALUE [TIMESTAMP]' after the series")
            continue
        if not parse_float(fields[1]):
            problems.append(f"{where}: value {fields[1]!r} is not a float")
        if len(fields) == 3 and not re.fullmatch(r"-?[0-9]+", fields[2]):
            problems.append(f"{where}: timestamp {fields[2]!r} is not an integer")
        names = [k for k, _ in labels]
        if len(set(names)) != len(names):
            problems.append(f"{where}: a label repeated in {name}")
        family = family_of(name, types)
        if family not in types or family not in helps:
            problems.append(f"{where}: {family} has no TYPE and HELP before its first sample")
        if family != current:
            if family in finished or family in started:
                problems.append(f"{where}: samples of {family} are not contiguous")
            if current:
                finished.add(current)
            current = family
        started.add(family)
        series = (name, tuple(sorted(labels)))
        if series in seen_series:
            problems.append(f"{where}: duplicate series {name}{dict(labels)}")
        seen_series.add(series)
    return problems


BAD = {
    "missing TYPE": b"# HELP a x\na 1\n",
    "TYPE after sample": b"# HELP a x\na 1\n# TYPE a gauge\n",
    "two TYPEs": b"# HELP a x\n# TYPE a gauge\n# TYPE a gauge\na 1\n",
    "bad name": b"# HELP 1a x\n# TYPE 1a gauge\n1a 1\n",
    "bad label name": b'# HELP a x\n# TYPE a gauge\na{1b="x"} 1\n',
    "bad escape": b'# HELP a x\n# TYPE a gauge\na{b="\\t"} 1\n',
    "unterminated": b'# HELP a x\n# TYPE a gauge\na{b="x} 1\n',
    "bad value": b"# HELP a x\n# TYPE a gauge\na one\n",
    "duplicate series": b'# HELP a x\n# TYPE a gauge\na{b="1"} 1\na{b="1"} 2\n',
    "repeated label": b'# HELP a x\n# TYPE a gauge\na{b="1",b="2"} 1\n',
    "interleaved": b"# HELP a x\n# TYPE a gauge\n# HELP c x\n# TYPE c gauge\na 1\nc 1\na{x=\"1\"} 1\n",
    "no newline": b"# HELP a x\n# TYPE a gauge\na 1",
    "blank line": b"# HELP a x\n# TYPE a gauge\n\na 1\n",
    "unknown type": b"# HELP a x\n# TYPE a meter\na 1\n",
    "not utf-8": b'# HELP a x\n# TYPE a gauge\na{b="\xff"} 1\n',
}
GOOD = (b'# HELP a x\n# TYPE a gauge\na{b="q\\"\\\\\\n",c=""} -1.5e3\na 1 1700000000000\n'
        b"# HELP h y\n# TYPE h histogram\nh_bucket{le=\"+Inf\"} 1\nh_count 1\nh_sum NaN\n")


def self_test():
    failed = 0
    if check(GOOD):
        print("FAIL: a valid text was rejected:", check(GOOD))
        failed += 1
    for what, text in BAD.items():
        if not check(text):
            print(f"FAIL: the checker accepted {what}")
            failed += 1
    print(f"self-test: {len(BAD) + 1 - failed} of {len(BAD) + 1} cases right")
    return 1 if failed else 0


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    if sys.argv[1] == "--self-test":
        return self_test()
    data = sys.stdin.buffer.read() if sys.argv[1] == "-" else open(sys.argv[1], "rb").read()
    problems = check(data)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
