#!/bin/bash
# The debug log (-v, -vv, --verbose, GPUSCOPE_DEBUG; doc/debugging.md) on the bundled example and
# the committed fixtures: the lines that say which reader read a file and in which dialect, where
# the steps came from and which were warm-up, each rule's decision, the ranks and their clock
# offsets; stdout byte for byte the same with and without it; stderr empty without it; the flag
# taken before or after the command name, and never from the arguments of the program `run` runs.
#
#   bash tests/cli/test_verbose.sh path/to/gpuscope        # run from the source root
set -u
exe=${1:?usage: test_verbose.sh GPUSCOPE}
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
source tests/cli/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset GPUSCOPE_DEBUG
example=examples/train.json.gz
gen=tests/data/gen
r4=tests/data/ranks/r4

# has FILE LINE: FILE holds LINE, a whole debug line (the prefix is added here).
has() {
    ran=$((ran + 1))
    grep -qxF "gpuscope: debug: $2" "$1" || { fail "$1 lacks: $2"; sed 's/^/    /' "$1" | head -80; }
}

# has_part FILE TEXT: some debug line of FILE contains TEXT (for lines with timings).
has_part() {
    ran=$((ran + 1))
    grep '^gpuscope: debug: ' "$1" | grep -qF -- "$2" || fail "$1: no debug line contains: $2"
}

# lacks_level2 FILE: no -vv line in FILE.
lacks_level2() {
    ran=$((ran + 1))
    ! grep -qE '^gpuscope: debug: (.* took [0-9.]+ ms|.*: device [0-9]+ stream )' "$1" ||
        fail "$1 has -vv lines at -v"
}

# same_stdout NAME ARGS...: stdout with -v (and with -vv) equals stdout without; stderr is empty
# without it and holds only debug lines with it. Leaves the -v stderr in $tmp/NAME.v.
same_stdout() {
    local name=$1
    shift
    ran=$((ran + 1))
    "$exe" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err0"
    local rc=$?
    "$exe" -v "$@" >"$tmp/$name.out1" 2>"$tmp/$name.v"
    local rc1=$?
    "$exe" "$@" -vv >"$tmp/$name.out2" 2>"$tmp/$name.vv"
    [ $rc -eq 0 ] && [ $rc1 -eq 0 ] || fail "$name: exit $rc without -v, $rc1 with"
    cmp -s "$tmp/$name.out" "$tmp/$name.out1" || fail "$name: stdout differs with -v"
    cmp -s "$tmp/$name.out" "$tmp/$name.out2" || fail "$name: stdout differs with -vv"
    # Besides debug lines, only the note every command prints when a trace lost events.
    local note='^gpuscope: .*: [0-9]+ events? skipped \('
    grep -Ev "$note" "$tmp/$name.err0" | grep -q . &&
        fail "$name: stderr without -v: $(head -3 "$tmp/$name.err0")"
    [ -s "$tmp/$name.v" ] || fail "$name: -v wrote nothing"
    grep -Ev "$note" "$tmp/$name.v" | grep -qv '^gpuscope: debug: ' &&
        fail "$name: -v wrote a line without the prefix"
    lacks_level2 "$tmp/$name.v"
}

# --- the bundled example: reader, dialect, steps, warm-up, rules ---
same_stdout report report "$example"
same_stdout report_json report --format json "$example"
v=$tmp/report.v
has "$v" "$example: opened: 0.1 MB, gzip"
has "$v" "$example: kineto reader, dialect: µs relative to baseTimeNanoseconds (PyTorch >= 2.4)"
has "$v" "$example: rank 0 (by default: no distributedInfo, no rank in the file name), world size unknown, 1 device(s) described"
has "$v" "$example: kept 821 kernels, 38 copies, 12 sets, 13 GPU syncs, 961 API calls (12 driver), 2585 operators, 60 annotations, 0 NVTX ranges, 108 Python functions, 12 GPU annotations, 0 other ranges, 0 instants, 240 memory events, 0 counters, 0 collectives' args"
has "$v" "$example: skipped 1769 events: 1 of categories no view uses (flows, Trace spans, CUPTI overhead), 1768 of phases no view uses (begin/end pairs, flow starts and ends)"
has_part "$v" "$example: loaded in "
has_part "$v" ", peak RSS "
has "$v" "$example: summarised as rank 0 and dropped"
has "$v" "$example: steps: 12 ProfilerStep#N range(s) on 1 thread(s); the busiest, pid 1104177 tid 1104177, has 12, of which 12 outermost are the steps"
has "$v" "$example: step 1 is warm-up: 132.407 ms is 4.44x the median 29.839 ms of the 11 step(s) after it (warm-up above 1.5x)"
has "$v" "$example: step 2 is not warm-up: the warm-up ends: 29.742 ms is 1.00x the median 29.839 ms of the 10 step(s) after it (warm-up above 1.5x)"
has "$v" "$example: 12 step(s) from ProfilerStep#N, 1 warm-up, 11 in the statistics: mean 30.033 ms, median 29.839 ms, min 29.429 ms, max 30.637 ms"
has "$v" "rank 0: verdict on 11 step(s) of 30.033 ms (mean): 2 of 17 rules fired: data_loading (bottleneck), warmup (note)"
has "$v" "rank 0: rule data_loading: bottleneck, 4.234 ms per step at stake (14.1 %): DataLoader share 14.1 % vs 5 % (finding) and 10 % (bottleneck)"
has "$v" "rank 0: rule compute_bound: not fired: compute kernels busy 83.0 % of the step vs 90 %"
has "$v" "rank 0: rule straggler: not fired: one rank in the profile: the rule does not apply"
# One trace context per trace: its steps are found once, for every analysis of the report.
ran=$((ran + 1))
[ "$(grep -c 'step 1 is warm-up' "$v")" -eq 1 ] || fail "the warm-up line is repeated"
ran=$((ran + 1))
[ "$(grep -c ': 12 step(s) from ProfilerStep#N, ' "$v")" -eq 1 ] || fail "the steps were found more than once"
has "$v" "$example: trace context: 12 step(s) found once for every analysis; over the whole trace"
has "$v" "$example: summarised for: facts, breakdown, launch, sync, memory, temporal, idle, comm, kernels, ops, copies, diagnosis, series, stragglers"
# -vv: per stream, per step, the rules' inputs, timings.
vv=$tmp/report.vv
has "$vv" "$example: device 0 stream 7: 821 kernels, 49 copies and sets"
has "$vv" "$example: device 0: NVIDIA H100 80GB HBM3, 85.0 GB, 132 SMs, CC 9.0"
has "$vv" "$example: step 2: at 132.451 ms, host 29.742 ms, extended to 29.742 ms, 71 GPU activities"
has "$vv" "rank 0: rule data_loading: inputs: dataloader_ns=4.234 ms, step_ns=30.033 ms; thresholds: finding_share=5.0 %, bottleneck_share=10.0 %"
has_part "$vv" "breakdown took "

# --- each Kineto dialect, the legacy export and .gst ---
same_stdout old kernels "$gen/old.json"
has "$tmp/old.v" "$gen/old.json: kineto reader, dialect: whole µs since the epoch (PyTorch <= 2.2); categories spelt Operator, Runtime, Kernel (PyTorch <= 1.9)"
same_stdout ns_float kernels "$gen/ns_float.json"
has "$tmp/ns_float.v" "$gen/ns_float.json: kineto reader, dialect: µs since the epoch with ns digits (PyTorch 2.3)"
same_stdout epoch_us kernels "$gen/epoch_us.json"
has "$tmp/epoch_us.v" "$gen/epoch_us.json: kineto reader, dialect: whole µs since the epoch (PyTorch <= 2.2)"
same_stdout legacy steps "$gen/legacy.json"
has "$tmp/legacy.v" "$gen/legacy.json: legacy reader (autograd-profiler export: µs from the start of profiling)"
has "$tmp/legacy.v" "$gen/legacy.json: steps: none launched GPU work: they keep their host spans"
same_stdout gst steps tests/data/gst/sample.gst
gst=tests/data/gst/sample.gst
has "$tmp/gst.v" "$gst: opened: 0.0 MB, not compressed, a .gst trace (gst reader)"
has "$tmp/gst.v" "$gst: gst reader (gpuscope run)"
has "$tmp/gst.v" "$gst: 3 events skipped (3 dropped by the collector)"
has "$tmp/gst.v" "$gst: steps: no ProfilerStep#N range (annotation, operator or NVTX) and no --step: looking for a repeating sequence of GPU launches"
has "$tmp/gst.v" "$gst: steps: no repeating sequence among 10 GPU launches (best period 5, 10 launches from its steady part, 1.00 of them repeat; a loop needs 3 periods and 0.50)"
has "$tmp/gst.v" "$gst: steps: the whole trace is one window"

# --- --step ---
same_stdout regex steps --step 'ProfilerStep#[0-9]+' "$example"
has "$tmp/regex.v" "$example: steps: --step 'ProfilerStep#[0-9]+' (annotation and NVTX ranges)"
has "$tmp/regex.v" "$example: steps: 12 matching range(s) on 1 thread(s); the busiest, pid 1104177 tid 1104177, has 12, of which 12 outermost are the steps"

# --- several ranks: rank by rank, clock offsets, the straggler ---
same_stdout r4 stragglers "$r4"
has "$tmp/r4.v" "$r4: a folder: 4 file(s) named *.json, *.json.gz, *.gst or *.gsum"
has "$tmp/r4.v" "4 input(s) rank by rank: traces summarised one at a time, .gsum summaries read as they are"
has "$tmp/r4.v" "$r4/rank-3.json.gz: rank 3 (from the trace's metadata), world size 4, 4 device(s) described"
has "$tmp/r4.v" "$r4/rank-3.json.gz: summarised as rank 3 and dropped"
has "$tmp/r4.v" "clock alignment: rank 3 ($r4/rank-3.json.gz): offset +34.478 ms, residual median 0.001 ms, max 0.002 ms"
has "$tmp/r4.v" "stragglers: 4 rank(s), 16 collective(s) matched on every rank"
has "$tmp/r4.v" "stragglers: rank 3 ($r4/rank-3.json.gz) arrived last at 100 % of 16 collectives (> 60 %?, >= 3?), the others wait for it 13.7 % of the median step (> 5 %?): the straggler"
# The report judges each rank once, with the other ranks' inputs.
same_stdout r4_report report "$r4"
ran=$((ran + 1))
grep -q "rank 3: rule straggler" "$tmp/r4_report.v" && fail "rank 3 judged alone before the merge"
has "$tmp/r4_report.v" "rank 3 of 4: rule straggler: bottleneck, 1.247 ms per step at stake (13.7 %): rank 3 last at 100 % (> 60 %?) of 16 collectives (>= 3?); the others wait 13.7 % of the step (> 5 %?)"
# comm and stragglers: one path for one input and for many, each rank summarised for what the
# command shows and nothing else (no memory, no verdict), one trace in memory at a time.
r8=tests/data/ranks/r8
same_stdout r8_comm comm "$r8"
for r in 0 1 2 3 4 5 6 7; do
    has "$tmp/r8_comm.v" "$r8/rank-$r.json.gz: summarised for: comm"
done
has "$tmp/r8_comm.v" "report: 8 rank(s) merged for: comm"
same_stdout one_comm comm "$r8/rank-3.json.gz"
has "$tmp/one_comm.v" "$r8/rank-3.json.gz: summarised for: comm"
has "$tmp/one_comm.v" "report: 1 rank(s) merged for: comm"
same_stdout r8_strag stragglers "$r8"
has "$tmp/r8_strag.v" "$r8/rank-5.json.gz: summarised for: stragglers"
has "$tmp/r8_strag.v" "report: 8 rank(s) merged for: stragglers"
same_stdout one_strag stragglers "$r8/rank-5.json.gz"
has "$tmp/one_strag.v" "$r8/rank-5.json.gz: summarised for: stragglers"
same_stdout r4_hta comm --hta "$r4"
has "$tmp/r4_hta.v" "$r4/rank-2.json.gz: summarised for: comm"
for log in r8_comm one_comm r8_strag one_strag r4_hta; do
    ran=$((ran + 1))
    ! grep -qE 'summarised for: .*(memory|diagnosis)|memory took|: rule |verdict on|loaded together' \
        "$tmp/$log.v" || fail "$log: an analysis the command does not show ran"
done
same_stdout r4_no_align stragglers --no-align "$r4"
has "$tmp/r4_no_align.v" "clock alignment: none (--no-align): each file's own clock"
"$exe" summarize -o "$tmp/rank0.gsum" "$r4/rank-0.json.gz" || fail "summarize"
same_stdout gsum stragglers "$tmp/rank0.gsum" "$r4/rank-1.json.gz"
has "$tmp/gsum.v" "$tmp/rank0.gsum: gsum reader: summary of rank 0 (kineto trace), 8 step(s), 16 collective(s)"

# --- where the flag may stand, and GPUSCOPE_DEBUG ---
"$exe" kernels "$example" >"$tmp/kernels.out"
for form in "-v kernels $example" "kernels -v $example" "kernels $example --verbose" \
    "--verbose kernels $example" "-v -vv kernels -v $example"; do
    ran=$((ran + 1))
    # shellcheck disable=SC2086
    "$exe" $form >"$tmp/pos.out" 2>"$tmp/pos.err" || fail "'$form' failed"
    cmp -s "$tmp/pos.out" "$tmp/kernels.out" || fail "'$form': stdout differs"
    grep -qxF "gpuscope: debug: $example: kineto reader, dialect: µs relative to baseTimeNanoseconds (PyTorch >= 2.4)" \
        "$tmp/pos.err" || fail "'$form': no debug line"
done
GPUSCOPE_DEBUG=1 "$exe" kernels "$example" >/dev/null 2>"$tmp/env1"
has "$tmp/env1" "$example: kineto reader, dialect: µs relative to baseTimeNanoseconds (PyTorch >= 2.4)"
lacks_level2 "$tmp/env1"
GPUSCOPE_DEBUG=2 "$exe" kernels "$example" >/dev/null 2>"$tmp/env2"
has "$tmp/env2" "$example: device 0 stream 7: 821 kernels, 49 copies and sets"
ran=$((ran + 1))
GPUSCOPE_DEBUG=0 "$exe" kernels "$example" >/dev/null 2>"$tmp/env0"
[ -s "$tmp/env0" ] && fail "GPUSCOPE_DEBUG=0 wrote: $(head -2 "$tmp/env0")"
# Usage errors stay one line; --help is unchanged by -v.
ran=$((ran + 1))
[ "$("$exe" kernels --help)" = "$("$exe" kernels -v --help)" ] || fail "kernels -v --help differs"
check_error 2 kernels -v --no-such-option "$example"
"$exe" --help | grep -qF -- "-v or -vv (any command), GPUSCOPE_DEBUG=1|2: a debug log on stderr" ||
    fail "gpuscope --help does not mention -v"

# --- run: the launcher's decisions; the program's own -v is never taken ---
bin=$(dirname "$exe")
if [ -f "$bin/libgpuscope_agent.so" ]; then
    unset CUDA_INJECTION64_PATH NVTX_INJECTION64_PATH
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$tmp/sanitizer"
    export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$tmp/sanitizer"
    for form in "-- /bin/echo -v" "/bin/echo -v" "-v -- /bin/echo -v" "-f -v /bin/echo -v"; do
        ran=$((ran + 1))
        # shellcheck disable=SC2086
        out=$("$exe" run -q -o "$tmp/echo.gst" -f $form 2>"$tmp/run.err")
        [ "$out" = "-v" ] || fail "run $form: the program printed '$out', not its own -v"
    done
    "$exe" run -q -o "$tmp/echo.gst" -f -v -- /bin/echo hello >"$tmp/run.out" 2>"$tmp/run.err"
    has "$tmp/run.err" "run: starting /bin/echo; sampler on, the CPU only"
    has_part "$tmp/run.err" "run: /bin/echo (process "
    has "$tmp/run.err" "run: $tmp/echo.gst: merging 0 process file(s) and the sampler's"
    ran=$((ran + 1))
    [ "$(cat "$tmp/run.out")" = "hello" ] || fail "run -v: the program's stdout changed"
    "$exe" run -q -o "$tmp/echo.gst" -f -- /bin/echo hello >/dev/null 2>"$tmp/run0.err"
    ran=$((ran + 1))
    [ -s "$tmp/run0.err" ] && fail "run -q without -v wrote: $(head -2 "$tmp/run0.err")"
fi

finish
