#!/bin/sh
# Regenerates the synthetic test fixtures and the README example trace.
# Everything written here is SYNTHETIC (tests/gen/gen_trace.py): no GPU ran it.
# Deterministic: running it again gives byte-identical files.
#
#   tests/data/gen/<dialect>.json (+ .answers.json)   one small trace per dialect (gen_trace.py --help)
#   tests/data/gen/rank0.json.gz, rank1.json.gz        a modern 2-rank pair with distributedInfo
#   tests/gen/scenarios/<class>.json.gz (+ .answers.json)  one bottleneck scenario per diagnosis class
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

# Bottleneck scenarios: one trace per diagnosis class (doc/diagnosis.md), each with exactly one
# dominant cause; the answers carry "expected_verdict" and the numbers that make it so
# ("bottleneck").
sc="$root/tests/gen/scenarios"
mkdir -p "$sc"
for pair in data_loading:dataloader_bound host_bound:host_bound launch_bound:launch_bound \
            sync_bound:sync_bound transfer_bound:transfer_bound communication_bound:communication_bound \
            compute_bound:compute_bound memory_growth:memory_growth \
            graphs_unreplayed:graphs_unreplayed tensor_cores_unused:tensor_cores_unused \
            low_mfu:low_mfu; do
    class=${pair%%:*}
    scenario=${pair#*:}
    steps=12
    # ~1300 kernels per step: 3 steps keep it < 300 KB
    [ "$class" = launch_bound ] || [ "$class" = graphs_unreplayed ] && steps=3
    $gen --dialect modern --scenario "$scenario" --steps "$steps" --seed 3 \
        -o "$sc/$class.json.gz" --answers "$sc/$class.answers.json"
done
