#!/bin/bash
# report's verdicts across ranks (doc/report.md, "Verdict"): on tests/data/ranks/r8, where rank 5
# is the straggler, the seven other ranks say the same with other numbers: one block "Verdict,
# ranks 0-4, 6-7" whose time at stake is the range of theirs in the JSON (which keeps every rank's
# findings), and rank 5 in a block of its own; --explain keeps a block per rank.
set -u
exe=${1:?usage: test_report_ranks.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$exe" report tests/data/ranks/r8 >"$tmp/r8.txt" || { echo "FAIL: report r8"; exit 1; }
"$exe" report --format json tests/data/ranks/r8 >"$tmp/r8.json" || { echo "FAIL: json"; exit 1; }
"$exe" report --explain tests/data/ranks/r8 >"$tmp/explain.txt" || { echo "FAIL: explain"; exit 1; }
python3 - "$tmp" <<'PY'
import json, re, sys
tmp = sys.argv[1]
text = open(f"{tmp}/r8.txt", encoding="utf-8").read()
ranks = json.load(open(f"{tmp}/r8.json"))["diagnosis"]
fail = []
titles = re.findall(r"^Verdict, (.*)$", text, re.M)
if titles != ["ranks 0-4, 6-7", "rank 5"]:
    fail.append(f"verdict blocks {titles}, want ['ranks 0-4, 6-7', 'rank 5']")
if len(ranks) != 8 or any(len(d["verdict"]) != 1 for d in ranks):
    fail.append("JSON: not one finding in each of the 8 ranks")
stakes = [d["verdict"][0]["at_stake_ns"] / 1e6 for d in ranks if d["rank"] != 5]
want = f"{min(stakes):.3f}-{max(stakes):.3f} ms per step at stake"
if want not in text:
    fail.append(f"the merged block does not say '{want}'")
own = [d["verdict"][0]["at_stake_ns"] / 1e6 for d in ranks if d["rank"] == 5][0]
if f"rank 5\n 1. Straggler rank (bottleneck: {own:.3f} ms per step at stake" not in text:
    fail.append("rank 5's block does not keep its own numbers")
explained = re.findall(r"^Verdict, (.*)$", open(f"{tmp}/explain.txt", encoding="utf-8").read(), re.M)
if explained != [f"rank {r}" for r in range(8)]:
    fail.append(f"--explain blocks {explained}, want one per rank")
for f in fail:
    print("FAIL", f)
sys.exit(1 if fail else 0)
PY
