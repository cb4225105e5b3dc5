#!/usr/bin/env python3
"""Synthetic N-rank data-parallel profile (one Kineto file per rank) with planted answers.

Everything this program writes is SYNTHETIC: no GPU ran it. Each rank runs the same training
step: a forward and a backward of GEMM and element-wise kernels on stream 7, two gradient
all-reduces on the NCCL stream (bucket 0 launched half-way through the backward, so it overlaps
the rest of it; bucket 1 after the backward, exposed: the optimizer waits for it), an optimizer
kernel, and a cudaStreamSynchronize ending the step. The ranks are simulated together, collective
by collective, the way NCCL behaves: an all-reduce cannot finish before its last rank arrives, so

    end of the all-reduce on every rank = latest arrival + transfer time (+- a jitter of a few us)

and the ranks that arrived earlier wait inside the kernel (it runs longer). Planted:

  straggler      one rank's compute kernels run --slowdown % longer, so it arrives last and the
                 others wait for it (--slowdown 0: no straggler)
  clock offsets  each rank's file is written on its own clock, shifted by a known offset (as
                 files from different hosts): local time = true time + offset
  exposed comm   communication not overlapped by compute, per rank and step, measured on the
                 abstract timeline (never on the written text)

--answers FILE writes them as JSON: per rank the planted offset (and relative to rank 0, which is
what an analyzer aligning on rank 0 recovers), its compute per step, its wait inside collectives
per step, its exposed communication per step; per collective the last rank and its lateness;
the straggler rank and the others' mean wait per step.

Files: OUT/rank-R.json, or rank-R.json.gz with --gzip (modern Kineto dialect, written by gen_trace.py's own writer). Python 3
standard library only; deterministic for a given set of options.
"""

import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_trace as gt  # noqa: E402  (the writer and the timeline model are gen_trace's)

NCCL_KERNEL = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"
# NCCL runs an all-to-all as grouped sends and receives: its kernel is the generic SendRecv one,
# and only the operators above it (c10d::alltoall_base_, nccl:all_to_all) and the "Collective
# name" argument say it is an all-to-all.
SENDRECV_KERNEL = "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)"
# --collective: (c10d operator, "Collective name" argument, annotation, kernel)
COLLECTIVES = {
    "all_reduce": ("c10d::allreduce_", "allreduce", "nccl:all_reduce", NCCL_KERNEL),
    "all_to_all": ("c10d::alltoall_base_", "all_to_all", "nccl:all_to_all", SENDRECV_KERNEL),
}

# One step of the model: (operator names, kernel, nominal us) on the compute stream.
FORWARD = [(("aten::linear", "aten::addmm"), gt.K_GEMM, 900.0),
           (("aten::gelu",), gt.K_GELU, 150.0),
           (("aten::linear", "aten::addmm"), gt.K_GEMM, 900.0),
           (("aten::add",), gt.K_ADD, 100.0)]
BACKWARD_A = [(("aten::mm",), gt.K_GEMM_BWD, 1100.0),
              (("aten::gelu_backward",), gt.K_GELU, 200.0),
              (("aten::mm",), gt.K_GEMM_BWD, 1100.0)]
BACKWARD_B = [(("aten::mm",), gt.K_GEMM_BWD, 1100.0),
              (("aten::gelu_backward",), gt.K_GELU, 200.0),
              (("aten::mm",), gt.K_GEMM_BWD, 1100.0)]
OPTIMIZER = (("aten::_fused_adamw_",), gt.K_ADAMW, 300.0)
# Transfer time of each bucket once every rank is there (us), and its size.
BUCKETS = [(900.0, 2 ** 22), (700.0, 2 ** 21)]
END_JITTER_NS = 2000  # collectives end within +-2 us of each other on the true clock


class Rank(object):
    def __init__(self, args, rank, offset_ns, t0):
        self.rank = rank
        self.tl = gt.Timeline("modern", args.seed, rank, args.ranks, gt.H100)
        self.tl.t0 = t0 + offset_ns            # the file's clock: true time + offset
        self.tl.end = self.tl.t0
        self.offset = offset_ns
        self.scale = 1.0 + (args.slowdown / 100.0 if rank == args.straggler else 0.0)
        self.main = gt.Thread(self.tl, self.tl.main_tid, self.tl.t0 + self.tl.d(40.0, 80.0))
        self.steps = []                        # (number, CpuEvent)
        self.comm = COLLECTIVES[args.collective]
        self.ddp = args.collective == "all_to_all"  # experts under DDP: data + expert parallel

    def op(self, names, kname, us, slow=True):
        """Nested operators around one kernel launch; the straggler's kernels run longer."""
        spans = [self.main.span(n) for n in names]
        for s in spans:
            s.__enter__()
        g = self.main.launch(kname, us * (self.scale if slow else 1.0), grid=(264, 1, 1), block=(256, 1, 1))
        for s in reversed(spans):
            s.__exit__(None, None, None)
        return g

    def collective(self, nelems):
        """c10d::allreduce_ > record_param_comms > nccl:all_reduce > the kernel on the NCCL stream,
        which first waits for the compute stream (cudaStreamWaitEvent); with --collective
        all_to_all, c10d::alltoall_base_ > ... > nccl:all_to_all > a SendRecv kernel. Yields the
        kernel so the coordinator can end it when every rank has arrived."""
        tl, th = self.tl, self.main
        c10d, coll_name, annotation, kernel = self.comm
        args = {"Collective name": coll_name, "dtype": "Float", "In msg nelems": nelems,
                "Out msg nelems": nelems, "Group size": tl.world_size, "Process Group Name": "0",
                "Process Group Description": "default_pg",
                "Process Group Ranks": "[%s]" % ", ".join(str(r) for r in range(tl.world_size)),
                "Global rank start": 0, "Global rank stride": 1}
        with th.span(c10d):
            with th.span("record_param_comms", args=args):
                with th.span(annotation, "ann"):
                    th.api("cudaEventRecord", 1.0, 2.0)
                    th.api("cudaStreamWaitEvent", 1.0, 2.0)
                    tl.stream_free[gt.NCCL_STREAM] = max(tl.stream_free.get(gt.NCCL_STREAM, 0),
                                                         tl.stream_free.get(gt.KERNEL_STREAM, 0))
                    g = th.launch(kernel, 10.0, stream=gt.NCCL_STREAM, grid=(32, 1, 1),
                                  block=(640, 1, 1), regs=96, api="cudaLaunchKernelExC",
                                  launch_us=(8.0, 14.0))
                    yield g
                    th.api("cudaEventRecord", 0.5, 1.5)

    def program(self, nsteps):
        """One rank's steps; a generator that stops at every collective launch."""
        tl, th = self.tl, self.main
        for n in range(nsteps):
            span = th.span("ProfilerStep#%d" % (n + 1), "ann")
            ev = span.__enter__()
            th.work(400.0, 500.0)   # Python between steps (zero_grad, logging): the GPU idles
            with th.span("DistributedDataParallel.forward" if self.ddp else "## forward ##",
                         "ann"):
                for names, k, us in FORWARD:
                    self.op(names, k, us)
            with th.span("## backward ##", "ann"):
                for names, k, us in BACKWARD_A:
                    self.op(names, k, us)
                yield from self.collective(BUCKETS[0][1])
                for names, k, us in BACKWARD_B:
                    self.op(names, k, us)
                yield from self.collective(BUCKETS[1][1])
            with th.span("## optimizer ##", "ann"):
                th.api("cudaStreamWaitEvent", 1.0, 2.0)   # the optimizer waits for the gradients
                tl.stream_free[gt.KERNEL_STREAM] = max(tl.stream_free.get(gt.KERNEL_STREAM, 0),
                                                       tl.stream_free.get(gt.NCCL_STREAM, 0))
                self.op(*OPTIMIZER, slow=False)  # the same on every rank
                with th.span("aten::item"):
                    th.sync()
            span.__exit__(None, None, None)
            self.steps.append((n + 1, ev))


def end_together(ranks, kernels, rng, transfer_us, record):
    """Ends one collective: every rank's kernel ends at the latest arrival + transfer (true clock),
    within END_JITTER_NS; records who was last and by how much."""
    true_start = [g.start - r.offset for r, g in zip(ranks, kernels)]
    last = max(range(len(ranks)), key=lambda i: (true_start[i], -i))
    end = true_start[last] + int(transfer_us * 1000)
    for r, g in zip(ranks, kernels):
        e = end + rng.randint(-END_JITTER_NS, END_JITTER_NS) + r.offset
        g.dur = max(e - g.start, 1000)
        r.tl.stream_free[gt.NCCL_STREAM] = g.start + g.dur
        r.tl.end = max(r.tl.end, g.start + g.dur)
    others = sorted(s for i, s in enumerate(true_start) if i != last)
    mid = len(others) // 2
    median = others[mid] if len(others) % 2 else (others[mid - 1] + others[mid]) // 2
    record.append({"last_rank": ranks[last].rank, "lateness_ns": true_start[last] - median,
                   "skew_ns": true_start[last] - min(true_start),
                   "wait_ns": [true_start[last] - s for s in true_start]})


def simulate(args, offsets):
    t0 = 1752830083 * 1000000000 + 123456789000 + (args.seed % 1000) * 1000000
    ranks = [Rank(args, r, offsets[r], t0) for r in range(args.ranks)]
    rng = random.Random(args.seed * 7907 + args.ranks)
    progs = [r.program(args.steps) for r in ranks]
    collectives = []
    while True:
        kernels = [next(p, None) for p in progs]
        if kernels[0] is None:
            break
        transfer = BUCKETS[len(collectives) % len(BUCKETS)][0]
        end_together(ranks, kernels, rng, transfer, collectives)
    return ranks, collectives


# ---- answers, from the abstract timeline ---------------------------------------------------

def _union(iv):
    out = []
    for s, e in sorted(iv):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def _overlap(a, b):
    """|a ∩ b| for merged interval lists."""
    i = j = total = 0
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        total += max(0, hi - lo)
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return total


def rank_answers(r, collectives, idx):
    """Per step: the step window (host range extended to the GPU work launched in it), compute
    busy time, communication busy time and the part of it no compute kernel overlaps."""
    steps = []
    for n, ev in r.steps:
        lo, hi = ev.start, ev.start + ev.dur
        gpu = [g for g in r.tl.gpu_events if g.kind == "kernel" and lo <= g.launch.start < hi]
        comp = _union([(g.start, g.start + g.dur) for g in gpu if not g.name.startswith("nccl")])
        comm = _union([(g.start, g.start + g.dur) for g in gpu if g.name.startswith("nccl")])
        busy_comm = sum(e - s for s, e in comm)
        end = max([hi] + [g.start + g.dur for g in gpu])
        steps.append({"step": n, "duration_ns": end - lo,
                      "compute_ns": sum(e - s for s, e in comp), "comm_ns": busy_comm,
                      "exposed_comm_ns": busy_comm - _overlap(comm, comp)})
    ns = len(steps)
    wait = sum(c["wait_ns"][idx] for c in collectives)
    return {"rank": r.rank, "clock_offset_ns": r.offset, "steps": steps,
            "mean_step_ns": sum(s["duration_ns"] for s in steps) // ns,
            "compute_per_step_ns": sum(s["compute_ns"] for s in steps) // ns,
            "exposed_comm_per_step_ns": sum(s["exposed_comm_ns"] for s in steps) // ns,
            "wait_per_step_ns": wait // ns,
            "last_count": sum(1 for c in collectives if c["last_rank"] == r.rank)}


def answers(args, ranks, collectives):
    per_rank = [rank_answers(r, collectives, i) for i, r in enumerate(ranks)]
    for a in per_rank:
        a["offset_vs_rank0_ns"] = a["clock_offset_ns"] - per_rank[0]["clock_offset_ns"]
    out = {"synthetic": "SYNTHETIC profile written by gpuscope tests/gen/gen_ranks.py",
           "ranks": args.ranks, "steps": args.steps, "seed": args.seed,
           "slowdown_pct": args.slowdown, "collectives": len(collectives),
           "collective_kind": args.collective, "end_jitter_ns": END_JITTER_NS,
           "straggler": args.straggler if args.slowdown > 0 else None,
           "per_rank": per_rank,
           "per_collective": [{k: c[k] for k in ("last_rank", "lateness_ns", "skew_ns")}
                              for c in collectives]}
    if out["straggler"] is not None:
        s = args.straggler
        waits = [sum(max(0, c["wait_ns"][i] - c["wait_ns"][s]) for c in collectives) // args.steps
                 for i in range(args.ranks) if i != s]
        out["others_wait_per_step_ns"] = sum(waits) // len(waits)
    return out


def parse_offsets(text, n, seed):
    """Comma-separated us per rank, or by default rank 0 at 0 and the others within +-40 ms with
    ns digits (an NTP-synchronised cluster is usually better; PTP much better)."""
    if text:
        vals = [int(round(float(v) * 1000)) for v in text.split(",")]
        if len(vals) != n:
            raise ValueError("--offsets needs %d values" % n)
        return vals
    rng = random.Random(seed * 104729 + n)
    return [0] + [rng.randint(-40000000, 40000000) for _ in range(n - 1)]


def main(argv=None):
    ap = argparse.ArgumentParser(description="Write a synthetic N-rank profile with a planted "
                                             "straggler, clock offsets and exposed communication.")
    ap.add_argument("-o", "--output", required=True, help="folder for rank-R.json")
    ap.add_argument("--ranks", type=int, default=4)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--straggler", type=int, default=None, help="rank (default: the last)")
    ap.add_argument("--slowdown", type=float, default=10.0,
                    help="%% longer compute on the straggler (0: none)")
    ap.add_argument("--offsets", help="clock offset of each rank in us, comma-separated")
    ap.add_argument("--answers", help="write the planted answers here as JSON")
    ap.add_argument("--gzip", action="store_true", help="write rank-R.json.gz")
    ap.add_argument("--collective", choices=sorted(COLLECTIVES), default="all_reduce",
                    help="what the two collectives of a step are (all_to_all: SendRecv kernels "
                         "under c10d::alltoall_base_, and the forward inside DDP's annotation)")
    args = ap.parse_args(argv)
    if args.ranks < 2 or args.steps < 1:
        ap.error("need --ranks >= 2 and --steps >= 1")
    if args.straggler is None:
        args.straggler = args.ranks - 1
    if not 0 <= args.straggler < args.ranks:
        ap.error("need 0 <= --straggler < --ranks")
    try:
        offsets = parse_offsets(args.offsets, args.ranks, args.seed)
    except ValueError as e:
        ap.error(str(e))
    ranks, collectives = simulate(args, offsets)
    os.makedirs(args.output, exist_ok=True)
    for r in ranks:
        name = "rank-%d.json" % r.rank
        path = os.path.join(args.output, name + (".gz" if args.gzip else ""))
        gt.write_bytes(path, gt.render(r.tl, name), args.gzip)
    if args.answers:
        with open(args.answers, "w") as f:
            json.dump(answers(args, ranks, collectives), f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
