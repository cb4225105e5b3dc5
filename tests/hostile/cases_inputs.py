"""Hostile cases for inputs that mix runs, folders, exports read back, diff, Python, demangling (run by tests/hostile/test_hostile.py)."""

import json
import os
import struct
import subprocess
import sys

import hostile_inputs as h  # noqa: F401
from hostile_case import Case, E, LOSS  # noqa: F401


def folder_with(tmp, *odd):
    """A folder of ranks: rank-0.json a good trace, then the odd entries named like traces."""
    folder = os.path.join(tmp, "ranks")
    os.mkdir(folder)
    h.good_trace(folder, "rank-0.json")
    for make in odd:
        make(folder)
    return folder


def fifo_rank1(folder):
    os.mkfifo(os.path.join(folder, "rank-1.json"))


def dangling_rank2(folder):
    os.symlink(os.path.join(folder, "gone.json"), os.path.join(folder, "rank-2.json"))


def folder_rank3(folder):
    os.mkdir(os.path.join(folder, "rank-3.json"))


def ranks_and_empty(tmp):
    """A folder of one good rank, and beside it an empty folder: the second path holds nothing."""
    folder_with(tmp)
    os.mkdir(os.path.join(tmp, "empty"))
    return tmp


def mangled_gst(tmp):
    """A .gst trace of one kernel named by its CUPTI symbol, _Z6kernelPf: kernel(float*)."""
    kernel = h.gst_record(4, struct.pack("<qqQqiiI3i3iii", 100, 200, 1, -1, 0, 7, 1, 1, 1, 1,
                                         128, 1, 1, -1, -1))
    return h.write(os.path.join(tmp, "mangled.gst"), h.gst_header() + h.gst_chunk(
        [h.gst_string(1, b"_Z6kernelPf"), kernel]))


def fake_libstdcxx(kind):
    """LD_LIBRARY_PATH to a stand-in libstdc++.so.6 the build made (tests/tests.cmake)."""
    build = os.path.dirname(os.environ.get("HOSTILE_EXE", ""))
    return {"LD_LIBRARY_PATH": os.path.join(build, "fake-libstdcxx", kind)}


def gen_rank(folder, rank, world, later_ns=0):
    """rank-R.json of a generated job of `world` ranks (tests/gen/gen_trace.py), its clock moved
    later_ns on."""
    path = os.path.join(folder, "rank-%d.json" % rank)
    subprocess.run([sys.executable, "tests/gen/gen_trace.py", "--steps", "2", "--rank", str(rank),
                    "--world-size", str(world), "-o", path], check=True)
    if later_ns:
        with open(path) as f:
            trace = json.load(f)
        trace["baseTimeNanoseconds"] += later_ns
        with open(path, "w") as f:
            json.dump(trace, f)
    return path


def two_world_sizes(tmp):
    """Rank 0 of a 4-rank job beside rank 1 of an 8-rank job."""
    gen_rank(tmp, 0, 4)
    gen_rank(tmp, 1, 8)
    return tmp


def a_day_apart(tmp):
    """Ranks 0 and 1 of one 2-rank job, rank 1's clock a day later."""
    gen_rank(tmp, 0, 2)
    gen_rank(tmp, 1, 2, later_ns=86400 * 10**9)
    return tmp


NOT_A_FILE = E % ".*/ranks" + "%s named like a trace but not a file: %s; move %s out of the " \
    "folder, or name the traces to read\n"


def cases():
    return [
        # A folder read for its traces names what it would have skipped, and reads none of it.
        Case("folder with a FIFO named rank-1.json", lambda t: folder_with(t, fifo_rank1),
             ["kernels", "{}"], 3, NOT_A_FILE % ("an entry", r"rank-1\.json \(a FIFO\)", "it")),
        Case("folder with a FIFO, a dangling link, a folder", lambda t: folder_with(
             t, fifo_rank1, dangling_rank2, folder_rank3), ["report", "{}"], 3,
             NOT_A_FILE % ("entries", r"(rank-[123]\.json \((a FIFO|a link to nothing|a folder)"
                           r"\)(, )?){3}", "them")),
        Case("an empty folder after a folder of traces", ranks_and_empty,
             ["kernels", "{}/ranks", "{}/empty"], 3,
             E % ".*/empty" + r"no traces in this folder .*\n"),
        # Traces of different jobs are not analysed as one: refused with the groups listed.
        Case("world sizes 4 and 8 in one folder", two_world_sizes, ["report", "{}"], 3,
             "gpuscope: the 2 traces are not one job, their world sizes differ: world size 4: "
             r"rank 0 rank-0\.json; world size 8: rank 1 rank-1\.json\. Name one job's traces to "
             r"report it, e\.g\. gpuscope report DIR/rank-0\.json\n", secs=4),
        Case("ranks a day apart: stragglers", a_day_apart, ["stragglers", "{}"], 3,
             "gpuscope: the 2 traces are 2 runs, not one job: their times are more than an hour "
             r"apart: run 1 \(from 2025-07-18 09:14:43 UTC\): rank 0 rank-0\.json; run 2 \(from "
             r"2025-07-19 09:14:43 UTC\): rank 1 rank-1\.json\. Name one run's traces to report "
             r"it, e\.g\. gpuscope report DIR/rank-0\.json\n", secs=4),
        # A name that cannot be demangled for want of memory is not shown mangled with exit 0.
        Case("demangled kernel name", mangled_gst, ["kernels", "--format", "csv", "{}"], 0, "",
             out=r",kernel\(float\*\)\n"),
        Case("demangler out of memory", mangled_gst, ["kernels", "{}"], 3,
             E % ".*mangled.gst" + r"out of memory demangling the kernel name _Z6kernelPf\n",
             env=fake_libstdcxx("oom")),
        Case("libstdc++ installed but not loadable", mangled_gst, ["kernels", "{}"], 3,
             E % ".*mangled.gst" + r"demangling kernel names needs libstdc\+\+\.so\.6, which "
             r"cannot be loaded \(.*\), though it is installed: out of memory or of address "
             r"space \(ulimit -v\)\?\n", env=fake_libstdcxx("unloadable")),
    ]
