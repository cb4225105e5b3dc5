#!/usr/bin/env python3
"""Writes the seeds of fuzz_gunzip (tests/fuzz/corpus/gunzip/): the start of the bundled example
as one gzip member, as three members, with bytes after the last member, cut short, and as plain
JSON (not gzip: passed through)."""
import gzip
import os

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
text = gzip.open(os.path.join(root, "examples", "train.json.gz"), "rb").read()[:6000]
out = os.path.join(here, "corpus", "gunzip")
os.makedirs(out, exist_ok=True)
one = gzip.compress(text, 6, mtime=0)
seeds = {
    "one_member.gz": one,
    "three_members.gz": b"".join(gzip.compress(text[i:i + 2000], 6, mtime=0) for i in (0, 2000, 4000)),
    "trailing_bytes.gz": one + b"not gzip",
    "cut.gz": one[: len(one) * 2 // 3],
    "plain.json": text[:1500],
}
for name, data in seeds.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
