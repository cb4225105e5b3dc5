"""Hostile cases for files that hold several ranks, gpuscope's chrome export of several traces read
back rank by rank (doc/export.md "Several traces"; run by tests/hostile/test_hostile.py)."""

import os

import hostile_inputs as h
from hostile_case import Case, E, LOSS

STRIDE, GPU = 10**7, 5 * 10**6  # ingest/rank_parts.h


def entry(rank, world=2, base=1000000000):
    return ('{"distributedInfo": {"rank": %d, "world_size": %d}, "baseTimeNanoseconds": %d}'
            % (rank, world, base))


def ranks_file(tmp, name, events, table=None, first=True):
    """A file of two ranks as the export writes it: gpuscopeRanks (or `table`, raw JSON) first,
    or after traceEvents."""
    ranks = '"gpuscopeRanks": %s' % (table or "[%s, %s]" % (entry(0), entry(1)))
    body = '"baseTimeNanoseconds": 1000000000, "traceEvents": [\n' + ",\n".join(events) + "\n]"
    text = "{%s, %s}\n" % ((ranks, body) if first else (body, ranks))
    return h.write(os.path.join(tmp, name), text)


def launch(part, name, ts, corr, ext=None):
    """A launch call and its kernel, part `part`'s, with the writer's moved pids and ids."""
    ids = (part + 1) << 32
    extid = ', "External id": %d' % (ids + ext) if ext else ""
    return [h.event("cudaLaunchKernel", ts, 2, cat="cuda_runtime", pid=(part + 1) * STRIDE + 42,
                    extra=', "args": {"correlation": %d%s}' % (ids + corr, extid)),
            h.event(name, ts + 5, 10, cat="kernel", pid=(part + 1) * STRIDE + GPU, tid=7,
                    extra=', "args": {"device": 0, "stream": 7, "correlation": %d%s}'
                          % (ids + corr, extid))]


def two_ranks(tmp):
    return ranks_file(tmp, "two.json", launch(0, "gemm0", 10, 7) + launch(1, "gemm1", 10, 7))


def strays(tmp):
    """Rank 1's kernel, and events no rank of the table owns: a pid below every rank's, one past
    the last rank's, a pid that is text. Each rank keeps its own and nothing else."""
    return ranks_file(tmp, "strays.json", launch(0, "gemm0", 10, 7) + launch(1, "gemm1", 10, 7) + [
        h.event("stray_low", 30, 5, cat="kernel", pid=GPU, tid=7),
        h.event("stray_past", 30, 5, cat="kernel", pid=3 * STRIDE + GPU, tid=7),
        '{"ph": "X", "cat": "kernel", "name": "stray_text", "pid": "Spans", "tid": 7, '
        '"ts": 30, "dur": 5}'])


def extreme_ids(tmp):
    """Ids at the ends of their range, moved back without overflowing (UBSan); rank 1's clock
    2^62 ns before the file's, which puts one of its kernels at 903 ns and the other out of
    range, counted as such."""
    events = launch(0, "gemm0", 10, 2**32 - 1, ext=2**62) + [
        h.event("k_far", -4611686018427387, 1, cat="kernel", pid=2 * STRIDE + GPU, tid=7,
                extra=', "args": {"correlation": 18446744073709551615, '
                      '"External id": 9223372036854775807}'),
        h.event("k_out", 10, 1, cat="kernel", pid=2 * STRIDE + GPU, tid=7,
                extra=', "args": {"correlation": 1, "External id": -5}')]
    table = "[%s, %s]" % (entry(0), entry(1, base=-(2**62 - 1) + 10**9))
    return ranks_file(tmp, "ids.json", events, table=table)


def no_events_for_rank1(tmp):
    return ranks_file(tmp, "lonely.json", launch(0, "gemm0", 10, 7))


def table_after_events(tmp):
    return ranks_file(tmp, "late.json", launch(0, "gemm0", 10, 7) + launch(1, "gemm1", 10, 7),
                      first=False)


def table(raw):
    return lambda tmp: ranks_file(tmp, "table.json", launch(0, "gemm0", 10, 7), table=raw)


def huge_table(tmp):
    return ranks_file(tmp, "huge.json", launch(0, "gemm0", 10, 7),
                      table="[%s]" % ", ".join(entry(r, 5000) for r in range(5000)))


def fed_fifo(tmp):
    return h.fifo(tmp, "fed.json")


def cases():
    ok = ["kernels", "--format", "csv", "{}"]
    return [
        Case("a file of two ranks: rank 1's kernel", two_ranks,
             ["kernels", "--rank", "1", "--format", "csv", "{}"], 0, "",
             out=r"\A[^\n]*\n100\.00,10000,1,[^\n]*,gemm1\n?\Z"),
        Case("a file of two ranks: events no rank owns are no rank's", strays, ok, 0, "",
             out=r"\A[^\n]*\n50\.00,10000,1,[^\n]*,gemm0\n50\.00,10000,1,[^\n]*,gemm1\n\Z"),
        Case("a file of two ranks: ids at their limits, a clock 2^62 ns back", extreme_ids,
             ["kernels", "--format", "csv", "{}"], 0,
             E % r".*ids.json \(rank 1\)" + LOSS % "1 with a time out of range",
             out=r",gemm0\n.*,k_far\n\Z"),
        Case("a file of two ranks, one without events", no_events_for_rank1, ok, 3,
             E % r".*lonely.json \(rank 1\)" + r"the trace has no events \(empty traceEvents\)\n"),
        Case("gpuscopeRanks after traceEvents", table_after_events, ok, 3,
             E % ".*late.json" + r"byte [0-9]+: gpuscopeRanks after traceEvents: the ranks of "
             r"this file cannot be read apart \(gpuscope writes the table first\)\n"),
        Case("gpuscopeRanks that is not an array", table('{"rank": 0}'), ok, 3,
             E % ".*table.json" + r"byte [0-9]+: gpuscopeRanks is not an array\n"),
        Case("gpuscopeRanks holding numbers", table("[0, 1]"), ok, 3,
             E % ".*table.json" + r"byte [0-9]+: gpuscopeRanks holds something other than "
             r"objects\n"),
        Case("gpuscopeRanks empty", table("[]"), ok, 3,
             E % ".*table.json" + r"byte [0-9]+: gpuscopeRanks is empty\n"),
        Case("gpuscopeRanks cut short", table("[{}, {"), ok, 3,
             E % ".*table.json" + r"byte [0-9]+: .*\n"),
        Case("gpuscopeRanks of 5000 ranks", huge_table, ok, 3,
             E % ".*huge.json" + r"byte [0-9]+: gpuscopeRanks holds more than 4096 ranks \(each "
             r"is one read of the whole file\)\n"),
        Case("a rank's clock 300 years from the file's",
             table("[%s, %s]" % (entry(0, base=2**62), entry(1))), ok, 3,
             E % ".*table.json" + r"byte [0-9]+: baseTimeNanoseconds of gpuscopeRanks entry 0 is "
             r"out of range \(more than 146 years from the file's\)\n"),
        Case("a file of two ranks summarized as one", two_ranks,
             ["summarize", "-o", "{}.gsum", "{}"], 3,
             E % ".*two.json" + r"byte [0-9]+: a file of several ranks \(gpuscopeRanks\) read as "
             r"one trace: give it as a file \(not a pipe\) to a command that reads several, or "
             r"export one rank \(--rank R\)\n",
             after=lambda t: ["a summary was written"] * os.path.exists(t + "/two.json.gsum")),
        Case("a file of two ranks through a FIFO", fed_fifo, ok, 3,
             E % ".*fed.json" + r"byte [0-9]+: a file of several ranks \(gpuscopeRanks\) read as "
             r"one trace: .*\n",
             feed=lambda: open(two_ranks(os.environ["HOSTILE_TMP"])).read()),
    ]
