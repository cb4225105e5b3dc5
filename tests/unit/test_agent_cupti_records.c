/* CUPTI activity records as CUDA 13 and as CUDA 12.0 lay them out, through the fake CUPTI's
 * buffers into the real buffer callbacks and agent core, read back from the .gst: exactly what
 * went in. (test_agent_cupti_decode.c drives the decoder alone on exactly sized records.) */
#include "fake_cupti.h"

/* ---- the records both majors share, checked the same way ---------------------------------- */

static const CUuuid uuid = {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}};

static void check_common(const gs_trace *t)
{
    CHECK_INT(t->kernels.n, 1); /* the untimed one is left out */
    if (t->kernels.n == 1) {
        const gs_kernel *k = &t->kernels.v[0];
        /* the reader demangles; the symbol CUPTI gave stays beside it */
        CHECK_STR(gs_trace_str(t, k->name), "kernel(float*)");
        CHECK_STR(gs_trace_str(t, k->mangled), "_Z6kernelPf");
        CHECK_INT(k->start, T0 + 1000);
        CHECK_INT(k->end, T0 + 5000);
        CHECK_INT(k->device, 0);
        CHECK_INT(k->stream, 7);
        CHECK_INT(k->correlation, 42);
        CHECK_INT(k->grid[0], 120);
        CHECK_INT(k->grid[1], 2);
        CHECK_INT(k->grid[2], 1);
        CHECK_INT(k->block[0], 256);
        CHECK_INT(k->block[1], 1);
        CHECK_INT(k->registers_per_thread, 32);
        CHECK_INT(k->shared_memory, 1024 + 2048);
        CHECK_INT(k->graph_id, 3);
    }
    const gs_memop *m = memop_by_correlation(t, 43);
    CHECK(m != NULL);
    if (m) {
        CHECK_INT(m->kind, GS_MEMOP_HTOD);
        CHECK_INT(m->src, GS_LOC_PAGEABLE);
        CHECK_INT(m->dst, GS_LOC_DEVICE);
        CHECK_INT(m->bytes, 4096);
        CHECK_INT(m->start, T0 + 6000);
        CHECK_INT(m->end, T0 + 7000);
        CHECK_INT(m->stream, 7);
        CHECK_STR(gs_trace_str(t, m->name), "Memcpy HtoD (Pageable -> Device)");
    }
    m = memop_by_correlation(t, 44);
    CHECK(m != NULL);
    if (m) {
        CHECK_INT(m->kind, GS_MEMOP_DTOH);
        CHECK_INT(m->src, GS_LOC_DEVICE);
        CHECK_INT(m->dst, GS_LOC_PINNED);
        CHECK_INT(m->bytes, 8192);
    }
    m = memop_by_correlation(t, 45);
    CHECK(m != NULL);
    if (m) {
        CHECK_INT(m->kind, GS_MEMOP_PTOP);
        CHECK_INT(m->device, 1);
        CHECK_INT(m->stream, 9);
        CHECK_INT(m->bytes, 1 << 20);
    }
    m = memop_by_correlation(t, 46);
    CHECK(m != NULL);
    if (m) {
        CHECK_INT(m->kind, GS_MEMOP_MEMSET);
        CHECK_INT(m->dst, GS_LOC_DEVICE);
        CHECK_INT(m->bytes, 512);
        CHECK_STR(gs_trace_str(t, m->name), "Memset (Device)");
    }
    const gs_api *a = api_by_correlation(t, 42);
    CHECK(a != NULL);
    if (a) {
        /* recorded as CUPTI names it (cudaLaunchKernel_v7000), read without the version */
        CHECK_STR(gs_trace_str(t, a->name), "cudaLaunchKernel");
        CHECK_INT(a->kind, GS_API_RUNTIME);
        CHECK_INT(a->pid, 1234);
        CHECK_INT(a->tid, 5678);
        CHECK_INT(a->cbid, LAUNCH_KERNEL);
        CHECK_INT(a->start, T0 + 500);
        CHECK_INT(a->end, T0 + 900);
    }
    a = api_by_correlation(t, 47);
    CHECK(a != NULL);
    if (a) {
        CHECK_STR(gs_trace_str(t, a->name), "cuLaunchKernel");
        CHECK_INT(a->kind, GS_API_DRIVER);
        CHECK_INT(a->tid, 5679);
    }
    a = api_by_correlation(t, 49); /* a cbid CUPTI cannot name */
    CHECK(a != NULL);
    if (a)
        CHECK_STR(gs_trace_str(t, a->name), "runtime cbid 9999");
    /* Two records of cudaLaunchKernel, one of cuLaunchKernel, one unnamed: three lookups. */
    CHECK_INT(atomic_load(&fake.name_lookups), 3);
    CHECK_INT(t->syncs.n, 2);
    for (size_t i = 0; i < t->syncs.n; i++) {
        const gs_gpu_sync *s = &t->syncs.v[i];
        if (s->correlation == 48) {
            CHECK_STR(gs_trace_str(t, s->name), "Stream Sync");
            CHECK_INT(s->device, 0); /* context 1 is device 0's, from the kernel */
            CHECK_INT(s->stream, 7);
            CHECK_INT(s->start, T0 + 8000);
        } else {
            CHECK_STR(gs_trace_str(t, s->name), "Context Sync");
            CHECK_INT(s->device, 1); /* context 2 is device 1's, from the CONTEXT record */
            CHECK_INT(s->stream, -1);
        }
    }
    CHECK_INT(t->mem_events.n, 2);
    for (size_t i = 0; i < t->mem_events.n; i++) {
        const gs_mem_event *e = &t->mem_events.v[i];
        CHECK_INT(e->addr, 0x7f0000000000ull);
        CHECK_INT(e->device, 1);
        CHECK_INT(e->pid, 1234);
        CHECK_INT(e->bytes, e->ts == T0 + 100 ? (1 << 20) : -(1 << 20));
    }
    CHECK_INT(t->devices.n, 1);
    if (t->devices.n == 1) {
        const gs_device *d = &t->devices.v[0];
        CHECK_STR(gs_trace_str(t, d->name), "NVIDIA H100 80GB HBM3");
        CHECK_STR(gs_trace_str(t, d->uuid), "GPU-00010203-0405-0607-0809-0a0b0c0d0e0f");
        CHECK_INT(d->num_sms, 132);
        CHECK_INT(d->total_memory, 85899345920ull);
        CHECK_INT(d->compute_major, 9);
        CHECK_INT(d->compute_minor, 0);
        CHECK_INT(d->max_threads_per_sm, 2048);
    }
    CHECK(has_string(t, "lazy function loading"));
    /* 5 CUPTI said it dropped, 1 kernel without timestamps. */
    CHECK_INT(t->lost[GS_LOSS_DROPPED], 6);
}

/* ---- CUDA 13 ------------------------------------------------------------------------------- */

static void test_cuda13_records(void)
{
    gsa_cupti_api api = fake_api(13, 130001);
    begin(NULL, NULL);
    CHECK(gsa_cupti_start(&api));
    CUpti_ActivityDevice5 dev = {.kind = CUPTI_ACTIVITY_KIND_DEVICE, .id = 0,
                                 .numMultiprocessors = 132, .globalMemorySize = 85899345920ull,
                                 .computeCapabilityMajor = 9, .maxWarpsPerMultiprocessor = 64,
                                 .numThreadsPerWarp = 32, .uuid = uuid,
                                 /* CUDA 13 hands the name to the client: the agent frees it */
                                 .name = strdup("NVIDIA H100 80GB HBM3")};
    CUpti_ActivityContext3 ctx = {.kind = CUPTI_ACTIVITY_KIND_CONTEXT, .contextId = 2,
                                  .deviceId = 1};
    CUpti_ActivityKernel10 k = {.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
                                .registersPerThread = 32, .start = T0 + 1000, .end = T0 + 5000,
                                .deviceId = 0, .contextId = 1, .streamId = 7, .gridX = 120,
                                .gridY = 2, .gridZ = 1, .blockX = 256, .blockY = 1, .blockZ = 1,
                                .staticSharedMemory = 1024, .dynamicSharedMemory = 2048,
                                .correlationId = 42, .name = "_Z6kernelPf", .graphId = 3};
    CUpti_ActivityKernel10 untimed = k;
    untimed.start = untimed.end = 0;
    CUpti_ActivityMemcpy6 pageable = {.kind = CUPTI_ACTIVITY_KIND_MEMCPY,
                                      .copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD,
                                      .srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE,
                                      .dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE, .bytes = 4096,
                                      .start = T0 + 6000, .end = T0 + 7000, .contextId = 1,
                                      .streamId = 7, .correlationId = 43};
    CUpti_ActivityMemcpy6 pinned = {.kind = CUPTI_ACTIVITY_KIND_MEMCPY,
                                    .copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_DTOH,
                                    .srcKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE,
                                    .dstKind = CUPTI_ACTIVITY_MEMORY_KIND_PINNED, .bytes = 8192,
                                    .start = T0 + 7100, .end = T0 + 7200, .contextId = 1,
                                    .streamId = 7, .correlationId = 44};
    CUpti_ActivityMemcpyPtoP4 peer = {.kind = CUPTI_ACTIVITY_KIND_MEMCPY2,
                                      .copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP,
                                      .srcKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE,
                                      .dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE,
                                      .bytes = 1 << 20, .start = T0 + 7300, .end = T0 + 7400,
                                      .deviceId = 1, .contextId = 2, .streamId = 9,
                                      .correlationId = 45};
    CUpti_ActivityMemset4 set = {.kind = CUPTI_ACTIVITY_KIND_MEMSET, .bytes = 512,
                                 .start = T0 + 7500, .end = T0 + 7600, .contextId = 1,
                                 .streamId = 7, .correlationId = 46,
                                 .memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE};
    CUpti_ActivityAPI launch = {.kind = CUPTI_ACTIVITY_KIND_RUNTIME, .cbid = LAUNCH_KERNEL,
                                .start = T0 + 500, .end = T0 + 900, .processId = 1234,
                                .threadId = 5678, .correlationId = 42};
    CUpti_ActivityAPI launch2 = launch;
    launch2.correlationId = 50;
    CUpti_ActivityAPI cu_launch = {.kind = CUPTI_ACTIVITY_KIND_DRIVER, .cbid = CU_LAUNCH_KERNEL,
                                   .start = T0 + 950, .end = T0 + 990, .processId = 1234,
                                   .threadId = 5679, .correlationId = 47};
    CUpti_ActivityAPI unnamed = {.kind = CUPTI_ACTIVITY_KIND_RUNTIME, .cbid = 9999,
                                 .start = T0 + 991, .end = T0 + 992, .processId = 1234,
                                 .threadId = 5678, .correlationId = 49};
    CUpti_ActivitySynchronization2 stream_sync = {
        .kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
        .type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE, .start = T0 + 8000,
        .end = T0 + 9000, .correlationId = 48, .contextId = 1, .streamId = 7};
    CUpti_ActivitySynchronization2 ctx_sync = {
        .kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
        .type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE, .start = T0 + 9100,
        .end = T0 + 9200, .correlationId = 51, .contextId = 2,
        .streamId = CUPTI_SYNCHRONIZATION_INVALID_VALUE};
    CUpti_ActivityMemory4 alloc = {.kind = CUPTI_ACTIVITY_KIND_MEMORY2,
                                   .memoryOperationType =
                                       CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION,
                                   .memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE,
                                   .address = 0x7f0000000000ull, .bytes = 1 << 20,
                                   .timestamp = T0 + 100, .processId = 1234, .deviceId = 1,
                                   .contextId = 2};
    CUpti_ActivityMemory4 release = alloc;
    release.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE;
    release.timestamp = T0 + 9500;
    CUpti_ActivityOverhead3 overhead = {.kind = CUPTI_ACTIVITY_KIND_OVERHEAD,
                                        .overheadKind =
                                            CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING,
                                        .start = T0 + 200, .end = T0 + 700,
                                        /* handed to the client: the agent frees it */
                                        .overheadData = malloc(16)};
    const void *first[] = {&dev, &ctx, &k, &untimed, &pageable, &launch, &cu_launch};
    const void *second[] = {&pinned, &peer, &set, &unnamed, &launch2, &stream_sync,
                            &ctx_sync, &alloc, &release, &overhead};
    feed(first, sizeof first / sizeof first[0]);
    feed(second, sizeof second / sizeof second[0]);
    atomic_store(&fake.dropped, 5);
    gs_trace *t = finish();
    CHECK(t != NULL);
    if (t) {
        check_common(t);
        gs_trace_delete(t);
    }
    CHECK(atomic_load(&fake.forced_flushes) >= 1); /* the final drain flushes everything */
}

/* ---- CUDA 12 ------------------------------------------------------------------------------- */

/* CUDA 12.0's layouts: the oldest record versions the decoder accepts (Kernel9, Memcpy5,
 * PtoP3, Memset3, Synchronization, Memory3, the first Overhead, Device4, Context). */
static void test_cuda12_records(void)
{
    gsa_cupti_api api = fake_api(12, 19);
    begin(NULL, NULL);
    CHECK(gsa_cupti_start(&api));
    CUpti_ActivityDevice4 dev = {.kind = CUPTI_ACTIVITY_KIND_DEVICE, .id = 0,
                                 .numMultiprocessors = 132, .globalMemorySize = 85899345920ull,
                                 .computeCapabilityMajor = 9, .maxWarpsPerMultiprocessor = 64,
                                 .numThreadsPerWarp = 32, .uuid = uuid,
                                 /* CUPTI 12 keeps the name: freeing it would crash */
                                 .name = "NVIDIA H100 80GB HBM3"};
    CUpti_ActivityContext ctx = {.kind = CUPTI_ACTIVITY_KIND_CONTEXT, .contextId = 2,
                                 .deviceId = 1};
    CUpti_ActivityKernel9 k = {.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
                               .registersPerThread = 32, .start = T0 + 1000, .end = T0 + 5000,
                               .deviceId = 0, .contextId = 1, .streamId = 7, .gridX = 120,
                               .gridY = 2, .gridZ = 1, .blockX = 256, .blockY = 1, .blockZ = 1,
                               .staticSharedMemory = 1024, .dynamicSharedMemory = 2048,
                               .correlationId = 42, .name = "_Z6kernelPf", .graphId = 3};
    CUpti_ActivityKernel9 untimed = k;
    untimed.start = untimed.end = 0;
    CUpti_ActivityMemcpy5 pageable = {.kind = CUPTI_ACTIVITY_KIND_MEMCPY,
                                      .copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD,
                                      .srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE,
                                      .dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE, .bytes = 4096,
                                      .start = T0 + 6000, .end = T0 + 7000, .contextId = 1,
                                      .streamId = 7, .correlationId = 43};
    CUpti_ActivityMemcpy5 pinned = {.kind = CUPTI_ACTIVITY_KIND_MEMCPY,
                                    .copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_DTOH,
                                    .srcKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE,
                                    .dstKind = CUPTI_ACTIVITY_MEMORY_KIND_PINNED, .bytes = 8192,
                                    .start = T0 + 7100, .end = T0 + 7200, .contextId = 1,
                                    .streamId = 7, .correlationId = 44};
    CUpti_ActivityMemcpyPtoP3 peer = {.kind = CUPTI_ACTIVITY_KIND_MEMCPY2,
                                      .copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP,
                                      .srcKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE,
                                      .dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE,
                                      .bytes = 1 << 20, .start = T0 + 7300, .end = T0 + 7400,
                                      .deviceId = 1, .contextId = 2, .streamId = 9,
                                      .correlationId = 45};
    CUpti_ActivityMemset3 set = {.kind = CUPTI_ACTIVITY_KIND_MEMSET, .bytes = 512,
                                 .start = T0 + 7500, .end = T0 + 7600, .contextId = 1,
                                 .streamId = 7, .correlationId = 46,
                                 .memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE};
    CUpti_ActivityAPI launch = {.kind = CUPTI_ACTIVITY_KIND_RUNTIME, .cbid = LAUNCH_KERNEL,
                                .start = T0 + 500, .end = T0 + 900, .processId = 1234,
                                .threadId = 5678, .correlationId = 42};
    CUpti_ActivityAPI launch2 = launch;
    launch2.correlationId = 50;
    CUpti_ActivityAPI cu_launch = {.kind = CUPTI_ACTIVITY_KIND_DRIVER, .cbid = CU_LAUNCH_KERNEL,
                                   .start = T0 + 950, .end = T0 + 990, .processId = 1234,
                                   .threadId = 5679, .correlationId = 47};
    CUpti_ActivityAPI unnamed = {.kind = CUPTI_ACTIVITY_KIND_RUNTIME, .cbid = 9999,
                                 .start = T0 + 991, .end = T0 + 992, .processId = 1234,
                                 .threadId = 5678, .correlationId = 49};
    CUpti_ActivitySynchronization stream_sync = {
        .kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
        .type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE, .start = T0 + 8000,
        .end = T0 + 9000, .correlationId = 48, .contextId = 1, .streamId = 7};
    CUpti_ActivitySynchronization ctx_sync = {
        .kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
        .type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE, .start = T0 + 9100,
        .end = T0 + 9200, .correlationId = 51, .contextId = 2,
        .streamId = CUPTI_SYNCHRONIZATION_INVALID_VALUE};
    CUpti_ActivityMemory3 alloc = {.kind = CUPTI_ACTIVITY_KIND_MEMORY2,
                                   .memoryOperationType =
                                       CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION,
                                   .memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE,
                                   .address = 0x7f0000000000ull, .bytes = 1 << 20,
                                   .timestamp = T0 + 100, .processId = 1234, .deviceId = 1,
                                   .contextId = 2};
    CUpti_ActivityMemory3 release = alloc;
    release.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE;
    release.timestamp = T0 + 9500;
    CUpti_ActivityOverhead overhead = {.kind = CUPTI_ACTIVITY_KIND_OVERHEAD,
                                       .overheadKind =
                                           CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING,
                                       .start = T0 + 200, .end = T0 + 700};
    const void *first[] = {&dev, &ctx, &k, &untimed, &pageable, &launch, &cu_launch};
    const void *second[] = {&pinned, &peer, &set, &unnamed, &launch2, &stream_sync,
                            &ctx_sync, &alloc, &release, &overhead};
    feed(first, sizeof first / sizeof first[0]);
    feed(second, sizeof second / sizeof second[0]);
    atomic_store(&fake.dropped, 5);
    gs_trace *t = finish();
    CHECK(t != NULL);
    if (t) {
        check_common(t);
        gs_trace_delete(t);
    }
}

int main(void)
{
    test_cuda13_records();
    test_cuda12_records();
    return check_done("test_agent_cupti_records");
}
