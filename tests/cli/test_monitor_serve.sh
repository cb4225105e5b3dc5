#!/bin/bash
# gpuscope monitor --serve on a replayed log: golden exposition text, format validity, 1000
# requests, hostile requests and slowloris (tests/monitor/exporter_test.py says what each checks).
set -u
exe=${1:?usage: test_monitor_serve.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
python3 tests/monitor/check_exposition.py --self-test || exit 1
python3 tests/monitor/exporter_test.py "$exe" tests/data/monitor/two_gpus.jsonl \
    tests/cli/golden/monitor-metrics.prom
