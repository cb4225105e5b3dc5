/* A small, realistic .gst trace written with the real writer: two training steps of one rank with
 * NVTX ranges, launches, kernels, copies, a memset, a sync, allocations, samples and a drop note.
 * Shared by tests/unit/test_gst.c (truncation, chunking) and tests/gen/make_gst_seeds.c (the CLI
 * fixture and the fuzz seeds), so the fixture and the tests cannot drift apart. */
#ifndef GS_TESTS_GST_SAMPLE_H
#define GS_TESTS_GST_SAMPLE_H

#include <string.h>

#include "common/gst_writer.h"

enum {
    SAMPLE_PID = 4242,
    SAMPLE_BASE = 1000000, /* first time, ns */
    SAMPLE_STEP = 1000000, /* 1 ms per step */
};

static inline int sample_str(gst_writer *w, gst_strid id, gst_strid domain, const char *s)
{
    return gst_writer_string(w, id, domain, s, strlen(s));
}

/* Writes the sample after the header; returns 0 or the first -errno. */
static inline int gst_write_sample(gst_writer *w)
{
    static const char *const strings[] = {
        NULL,          "node7",          "python train.py --epochs 1", "NVIDIA H100 80GB HBM3",
        "GPU-1234-abcd", "python",       "my_domain",                 "forward",
        "backward",    "ampere_sgemm_128x64_tn", "vectorized_relu_kernel", "cudaLaunchKernel",
        "cudaMemcpyAsync", "cudaStreamSynchronize", "cuLaunchKernel", "checkpoint",
        "gpu_util_pct", "cpu_pct",       "CUPTI activity buffer full",
    };
    int rc = 0;
    gst_process p = {SAMPLE_PID, 1, 2, 1, 2};
    rc |= gst_writer_add(w, GST_REC_PROCESS, &p);
    gst_device d = {0, 132, 85899345920ull, 9, 0, 2048, 3, 4};
    rc |= gst_writer_add(w, GST_REC_DEVICE, &d);
    gst_thread th = {SAMPLE_PID, SAMPLE_PID, 5};
    rc |= gst_writer_add(w, GST_REC_THREAD, &th);
    /* Strings 1-9 first; the rest at the end, after their use, as a per-thread flush may do. */
    for (gst_strid id = 1; id <= 9; id++)
        rc |= sample_str(w, id, 0, strings[id]);
    uint64_t corr = 100;
    for (int step = 0; step < 2; step++) {
        int64_t t = SAMPLE_BASE + (int64_t)step * SAMPLE_STEP;
        gst_nvtx_range fwd = {t, t + 500000, SAMPLE_PID, SAMPLE_PID, 7, 6, GST_NVTX_PUSH_POP};
        rc |= gst_writer_add(w, GST_REC_NVTX_RANGE, &fwd);
        gst_api cp = {t + 10000, t + 30000, SAMPLE_PID, SAMPLE_PID, ++corr, 41, 12, GST_API_RUNTIME};
        gst_memcpy h2d = {t + 25000, t + 125000, 4u << 20, corr, 0, 7,
                          GST_COPY_HTOD, GST_LOC_PAGEABLE, GST_LOC_DEVICE};
        rc |= gst_writer_add(w, GST_REC_API, &cp) | gst_writer_add(w, GST_REC_MEMCPY, &h2d);
        gst_api l1 = {t + 130000, t + 140000, SAMPLE_PID, SAMPLE_PID, ++corr, 211, 11,
                      GST_API_RUNTIME};
        gst_kernel k1 = {t + 145000, t + 345000, corr, 0, 0, 7, 9, {128, 4, 1}, {256, 1, 1}, 64,
                         16384};
        rc |= gst_writer_add(w, GST_REC_API, &l1) | gst_writer_add(w, GST_REC_KERNEL, &k1);
        gst_api l2 = {t + 150000, t + 158000, SAMPLE_PID, SAMPLE_PID, ++corr, 211, 11,
                      GST_API_RUNTIME};
        gst_kernel k2 = {t + 350000, t + 370000, corr, 0, 0, 7, 10, {1024, 1, 1}, {128, 1, 1}, 16,
                         0};
        rc |= gst_writer_add(w, GST_REC_API, &l2) | gst_writer_add(w, GST_REC_KERNEL, &k2);
        gst_nvtx_range bwd = {t + 500000, t + 900000, SAMPLE_PID, SAMPLE_PID, 8, 0,
                              GST_NVTX_START_END};
        rc |= gst_writer_add(w, GST_REC_NVTX_RANGE, &bwd);
        gst_api l3 = {t + 510000, t + 518000, SAMPLE_PID, SAMPLE_PID, ++corr, 307, 14,
                      GST_API_DRIVER};
        gst_kernel k3 = {t + 520000, t + 800000, corr, 0, 0, 7, 9, {256, 4, 1}, {256, 1, 1}, 64,
                         16384};
        rc |= gst_writer_add(w, GST_REC_API, &l3) | gst_writer_add(w, GST_REC_KERNEL, &k3);
        gst_memset ms = {t + 805000, t + 810000, 1u << 20, ++corr, 0, 7, 0, GST_LOC_DEVICE};
        rc |= gst_writer_add(w, GST_REC_MEMSET, &ms);
        gst_api cp2 = {t + 812000, t + 830000, SAMPLE_PID, SAMPLE_PID, ++corr, 41, 12,
                       GST_API_RUNTIME};
        gst_memcpy d2h = {t + 815000, t + 825000, 64u << 10, corr, 0, 7,
                          GST_COPY_DTOH, GST_LOC_DEVICE, GST_LOC_PINNED};
        rc |= gst_writer_add(w, GST_REC_API, &cp2) | gst_writer_add(w, GST_REC_MEMCPY, &d2h);
        gst_api sy = {t + 830000, t + 880000, SAMPLE_PID, SAMPLE_PID, ++corr, 131, 13,
                      GST_API_RUNTIME};
        gst_sync sr = {t + 831000, t + 879000, corr, 0, 7, GST_SYNC_STREAM};
        rc |= gst_writer_add(w, GST_REC_API, &sy) | gst_writer_add(w, GST_REC_SYNC, &sr);
        gst_nvtx_mark mk = {t + 950000, SAMPLE_PID, SAMPLE_PID, 15, 6};
        rc |= gst_writer_add(w, GST_REC_NVTX_MARK, &mk);
        gst_memory alloc = {t + 20000, SAMPLE_PID, SAMPLE_PID, 0x7f0000000000ull + (uint64_t)step,
                            8 << 20, (8 << 20) * (step + 1), 32 << 20, 0, GST_LOC_DEVICE};
        rc |= gst_writer_add(w, GST_REC_MEMORY, &alloc);
        gst_counter util = {t + 500000, 87.5 + step, 0, 16};
        gst_counter cpu = {t + 500000, 140.25, -1, 17};
        rc |= gst_writer_add(w, GST_REC_COUNTER, &util) | gst_writer_add(w, GST_REC_COUNTER, &cpu);
    }
    gst_memory free_rec = {SAMPLE_BASE + 2 * SAMPLE_STEP, SAMPLE_PID, SAMPLE_PID,
                           0x7f0000000000ull, -(8 << 20), 8 << 20, 32 << 20, 0, GST_LOC_DEVICE};
    rc |= gst_writer_add(w, GST_REC_MEMORY, &free_rec);
    gst_note note = {SAMPLE_BASE + 2 * SAMPLE_STEP, 3, 12000, GST_NOTE_CUPTI, 18};
    rc |= gst_writer_add(w, GST_REC_NOTE, &note);
    for (gst_strid id = 10; id <= 18; id++)
        rc |= sample_str(w, id, 0, strings[id]);
    rc |= sample_str(w, 19, 6, "registered_step"); /* an NVTX registered string of my_domain */
    return rc ? -1 : gst_writer_end(w);
}

#endif
