/* Hand-made ranks for the tests of the multi-rank pipeline (test_rank_summary.c,
 * test_rank_merge.c). Times in µs. Each rank has STEPS steps of 10 ms; in step k (T = 10000 k):
 *   ProfilerStep#k+1   [T, T + 10000)
 *   aten::mm           [T + 5, T + 30) on the host, holding both launches
 *   gemm               [T + 100, T + 100 + C + k)                  launched at T + 10
 *   all-reduce         [its end, T + 100 + CMAX + 600)             launched at T + 20
 *   HtoD copy, 1 MB    [T + 9000, T + 9000 + 50 + 10 r)            (pageable)
 * with C = 6000 + 1000 r for rank r < 2, so rank 1 computes longest (rank 1 is the straggler:
 * every all-reduce ends together, at T + 100 + CMAX + 600 with CMAX = 7000 + STEPS - 1), and
 * the gemm of step k lasts C + k: each rank's durations differ, so medians across ranks do. A
 * rank's clock is shifted by OFFSET(r). */
#ifndef GS_TEST_RANK_FIXTURE_H
#define GS_TEST_RANK_FIXTURE_H

#include <stdio.h>

#include "trace_builder.h"

#define US 1000
#define STEPS 4
#define AR "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"
#define CMAX (7000 + STEPS - 1)
#define OFFSET(r) ((gs_ns)(r) * 3000)

static inline gs_ns fixture_compute(int32_t rank)
{
    return 6000 + 1000 * (gs_ns)rank;
}

/* Rank r of the fixture, indexed. */
static inline gs_trace *fixture_rank(int32_t r)
{
    char path[32];
    snprintf(path, sizeof path, "rank-%d.json", (int)r);
    gs_trace *t = tb_new(path, r);
    t->id.world_size = 2;
    tb_device(t, r, "NVIDIA H100 80GB HBM3", 85000000000ull, 132, 9, 0);
    for (int k = 0; k < STEPS; k++) {
        gs_ns T = 10000 * (gs_ns)k + OFFSET(r);
        char name[32];
        snprintf(name, sizeof name, "ProfilerStep#%d", k + 1);
        tb_range(t, GS_RANGE_ANNOTATION, name, T * US, (T + 10000) * US, NULL);
        tb_range(t, GS_RANGE_OP, "aten::mm", (T + 5) * US, (T + 30) * US, NULL);
        gs_ns arrive = T + 100 + fixture_compute(r) + k;
        uint64_t c = 10 * (uint64_t)k;
        tb_api(t, "cudaLaunchKernel", (T + 10) * US, (T + 15) * US, c + 1);
        tb_kernel(t, "gemm", (T + 100) * US, arrive * US, c + 1);
        tb_api(t, "cudaLaunchKernelExC", (T + 20) * US, (T + 25) * US, c + 2);
        tb_kernel(t, AR, arrive * US, (T + 100 + CMAX + 600) * US, c + 2);
        tb_api(t, "cudaMemcpyAsync", (T + 8990) * US, (T + 8995) * US, c + 3);
        tb_memop(t, GS_MEMOP_HTOD, GS_LOC_PAGEABLE, GS_LOC_DEVICE, 1000000, (T + 9000) * US,
                 (T + 9050 + 10 * (gs_ns)r) * US, c + 3);
    }
    for (size_t i = 0; i < t->kernels.n; i++)
        t->kernels.v[i].device = r;
    for (size_t i = 0; i < t->memops.n; i++)
        t->memops.v[i].device = r;
    gs_error err;
    if (gs_trace_index(t, &err) != 0)
        abort();
    return t;
}

#endif
