#!/bin/sh
# Regenerates the synthetic test fixtures and the README example trace.
# Everything written here is SYNTHETIC (tests/gen/gen_trace.py): no GPU ran it.
# Deterministic: running it again gives byte-identical files.
#
#   tests/data/gen/<dialect>.json (+ .answers.json)   one small trace per dialect (gen_trace.py --help)
#   tests/data/gen/rank0.json.gz, rank1.json.gz        a modern 2-rank pair with distributedInfo
#   examples/train.json.gz                             the README example (answers in
#                                                      tests/data/gen/train_example.answers.json)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
gen="python3 $root/tests/gen/gen_trace.py"
out="$root/tests/data/gen"
mkdir -p "$out" "$root/examples"

for d in modern epoch_us ns_float old legacy reserialized; do
    $gen --dialect "$d" --steps 3 --seed 1 -o "$out/$d.json" --answers "$out/$d.answers.json"
done
for r in 0 1; do
    $gen --dialect modern --steps 3 --seed 2 --rank "$r" --world-size 2 \
        -o "$out/rank$r.json.gz" --answers "$out/rank$r.answers.json"
done
$gen --dialect modern --scenario train_example --steps 12 --seed 7 \
    -o "$root/examples/train.json.gz" --answers "$out/train_example.answers.json"
