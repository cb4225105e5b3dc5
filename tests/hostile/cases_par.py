"""Hostile collectives for the parallelism and straggler analyses (doc/diagnosis.md, "What the
advice is conditioned on"; doc/stragglers.md; run by tests/hostile/test_hostile.py): many
all-to-alls that only their operators name, matched across two ranks within bounds of time and
memory, and a SendRecv kernel whose launch the trace lost, which no operator claims: it is no
pipeline, and the report says the pattern is unrecognized rather than advise micro-batches."""

import os

import hostile_inputs as h
from hostile_case import Case

SENDRECV = "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)"


def all_to_alls(tmp, rank, n):
    """n all-to-alls: c10d::alltoall_base_ > nccl:all_to_all > the launch of a SendRecv kernel;
    rank 1 arrives 30 us late at every one."""
    late = 30 * rank
    ev = []
    for i in range(n):
        t = 1000 + i * 200
        corr = ', "args": {"correlation": %d}' % (i + 1)
        ev += [h.event("c10d::alltoall_base_", t, 60),
               h.event("nccl:all_to_all", t + 1, 50, cat="user_annotation"),
               h.event("cudaLaunchKernel", t + 2, 3, cat="cuda_runtime", extra=corr),
               h.event(SENDRECV, t + 10 + late, 120 - late, cat="kernel", pid=0, tid=7,
                       extra=corr)]
    tail = ', "distributedInfo": {"rank": %d, "world_size": 2}' % rank
    return h.write(os.path.join(tmp, "rank-%d.json" % rank), h.trace(ev, tail))


def two_ranks(n):
    def make(tmp):
        all_to_alls(tmp, 0, n)
        all_to_alls(tmp, 1, n)
        return tmp
    return make


def unclaimed_sendrecv(tmp):
    """An operator, and a SendRecv kernel whose launch (and so its operator) is not in the trace."""
    corr = ', "args": {"correlation": %d}'
    return h.write(os.path.join(tmp, "lost.json"), h.trace([
        h.event("aten::mm", 10, 50),
        h.event("cudaLaunchKernel", 12, 3, cat="cuda_runtime", extra=corr % 7),
        h.event("gemm", 20, 25, cat="kernel", pid=0, tid=7, extra=corr % 7),
        h.event(SENDRECV, 60, 30, cat="kernel", pid=0, tid=7, extra=corr % 9),
    ]))


def cases():
    return [
        Case("20000 all-to-alls named only by their operators, two ranks", two_ranks(20000),
             ["stragglers", "{}"], 0, "", secs=20, mb=200,
             out=r"clocks aligned on rank 0 from 20000 collectives on every rank[^\n]*\n"
                 r"straggler: rank 1 arrived last at 100 % of 20000 collectives"),
        Case("a SendRecv kernel no operator claims", unclaimed_sendrecv,
             ["report", "--format", "json", "{}"], 0, "", secs=5, mb=60,
             out=r'"parallelism": "collectives of an unrecognized pattern", "parallel_kinds": '
                 r'\[\], "collectives": 1, "all_reduces": 0, "all_gathers": 0, '
                 r'"reduce_scatters": 0, "send_recvs": 0, "all_to_alls": 0'),
    ]
