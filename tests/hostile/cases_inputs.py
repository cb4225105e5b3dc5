"""Hostile cases for inputs that mix runs, folders, exports read back, diff, Python, demangling (run by tests/hostile/test_hostile.py)."""

import os

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
    ]
