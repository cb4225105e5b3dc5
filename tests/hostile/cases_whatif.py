"""Hostile cases for gpuscope whatif (doc/whatif.md): --workers and --action at and past their
bounds, names that are not actions (long, repeated, with terminal escapes), a trace with nothing
to replay, and one with many steps (run by tests/hostile/test_hostile.py)."""

import os

import hostile_inputs as h
from hostile_case import Case

ACTIONS = ("cuda_graphs compile dataloader_workers pinned_memory remove_syncs mixed_precision "
           "fused_optimizer overlap_comm roof_target no_profiler")
SEE = r" \(see 'gpuscope whatif --help'\)\n"
WORKERS = r"gpuscope: whatif: --workers takes a whole number of DataLoader workers from 1 to " \
          r"1024, not '%s'" + SEE
NO_NAME = r"gpuscope: whatif: --action takes action names separated by commas, not '%s'; " \
          r"actions: " + ACTIONS + SEE
UNKNOWN = r"gpuscope: whatif: no action is named '%s'; actions: " + ACTIONS + SEE

STEPS = 20000


def many_steps(tmp):
    """20 000 ProfilerStep#N ranges of 10 us, each launching one 4 us kernel."""
    events = []
    for n in range(STEPS):
        ts = 10 * n
        events += [h.event("ProfilerStep#%d" % n, ts, 10, cat="user_annotation"),
                   h.event("cudaLaunchKernel", ts + 1, 1, cat="cuda_runtime",
                           extra=', "args": {"correlation": %d}' % (n + 1)),
                   h.event("k", ts + 3, 4, cat="kernel", pid=0, tid=7,
                           extra=', "args": {"correlation": %d, "stream": 7}' % (n + 1))]
    return h.write(os.path.join(tmp, "many_steps.json"), h.trace(events))


def host_only(tmp):
    return h.write(os.path.join(tmp, "host_only.json"), h.trace([h.event("aten::add", 1, 5)]))


def usage(name, args, err):
    return Case(name, h.good_trace, ["whatif"] + args + ["{}"], 2, err)


def cases():
    long_name = "x" * 50000  # under one argument's limit (MAX_ARG_STRLEN, 128 KiB)
    return [
        usage("whatif --workers with 30 digits", ["--workers", "9" * 30], WORKERS % ("9" * 30)),
        usage("whatif --workers 1025", ["--workers", "1025"], WORKERS % "1025"),
        usage("whatif --workers 0", ["--workers", "0"], WORKERS % "0"),
        usage("whatif --workers -4", ["--workers", "-4"], WORKERS % "-4"),
        usage("whatif --workers nan", ["--workers", "nan"], WORKERS % "nan"),
        usage("whatif --workers inf", ["--workers", "inf"], WORKERS % "inf"),
        usage("whatif --workers 8.5", ["--workers", "8.5"], WORKERS % r"8\.5"),
        usage("whatif --action ,,", ["--action", ",,"], NO_NAME % ",,"),
        usage("whatif --action compile, (an empty last name)", ["--action", "compile,"],
              NO_NAME % "compile,"),
        usage("whatif --action of a terminal escape", ["--action", "compile,\x1b[31mred"],
              UNKNOWN % r"\\x1b\[31mred"),
        usage("whatif --action of a 50 kB name: the message shows its first 255 bytes",
              ["--action", long_name], UNKNOWN % ("x" * 255)),
        Case("whatif --action of one action 5 000 times: replayed once", h.good_trace,
             ["whatif", "--format", "json", "--action", ",".join(["compile"] * 5000), "{}"], 0,
             "", out=r'\n  "actions": \["compile"\],\n(?s:.*)"alone": \[\n        \{"name": '
                     r'"compile", [^\n]*\}\n      \]'),
        Case("whatif on a trace with nothing to replay: why, exit 3", host_only, ["whatif", "{}"],
             3, r"gpuscope: .*host_only\.json: nothing to replay: no kept step launched GPU "
                r"work\n"),
        Case("whatif on 20 000 steps: every step replayed, bounded", many_steps,
             ["whatif", "--format", "json", "--keep-warmup", "{}"], 0, "", secs=10, mb=200,
             out=r'"steps": %d,' % STEPS),
    ]
