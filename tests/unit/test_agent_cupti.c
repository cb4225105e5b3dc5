/* The CUPTI half of the agent without a GPU: a fake CUPTI table stands in for libcupti, buffers
 * of activity records laid out as CUDA 13 and as CUDA 12 write them go through the real buffer
 * callbacks, the real agent core writes the .gst file, and the reader gives back exactly what
 * went in. (test_agent_cupti_decode.c drives the decoder alone on exactly sized records.) */
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

#include "agent/agent.h"
#include "agent/cupti_buffers.h"
#include "agent/cupti_inject.h"
#include "check.h"
#include "ingest/load.h"

#define T0 1700000000000000000ll
#define LAUNCH_KERNEL CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000
#define CU_LAUNCH_KERNEL CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel

/* ---- the fake CUPTI ---------------------------------------------------------------------- */

static struct {
    int major;                 /* 12 or 13: the record layouts GetNextRecord walks */
    uint32_t version;          /* what the table says cuptiGetVersion returned */
    CUptiResult subscribe_rc;  /* what subscribing returns */
    CUpti_CallbackFunc callback;
    CUpti_BuffersCallbackRequestFunc requested;
    CUpti_BuffersCallbackCompleteFunc completed;
    bool enabled[CUPTI_ACTIVITY_KIND_COUNT];
    bool dumped[CUPTI_ACTIVITY_KIND_COUNT];
    CUpti_CallbackId quiet_runtime[16], quiet_driver[16];
    int nquiet_runtime, nquiet_driver;
    int all_sync_records; /* -1 never set */
    int thread_id_type;
    struct {
        CUpti_CallbackDomain domain;
        CUpti_CallbackId cbid;
    } callbacks[16];
    int ncallbacks;
    int unsubscribed;
    _Atomic int flushes, forced_flushes, name_lookups;
    _Atomic size_t dropped; /* handed out by GetNumDroppedRecords, then reset as CUPTI does */
} fake;

static size_t record_size(CUpti_ActivityKind kind)
{
    bool v13 = fake.major == 13;
    switch (kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        return v13 ? sizeof(CUpti_ActivityKernel10) : sizeof(CUpti_ActivityKernel9);
    case CUPTI_ACTIVITY_KIND_MEMCPY:
        return v13 ? sizeof(CUpti_ActivityMemcpy6) : sizeof(CUpti_ActivityMemcpy5);
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
        return v13 ? sizeof(CUpti_ActivityMemcpyPtoP4) : sizeof(CUpti_ActivityMemcpyPtoP3);
    case CUPTI_ACTIVITY_KIND_MEMSET:
        return v13 ? sizeof(CUpti_ActivityMemset4) : sizeof(CUpti_ActivityMemset3);
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER: return sizeof(CUpti_ActivityAPI);
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
        return v13 ? sizeof(CUpti_ActivitySynchronization2) : sizeof(CUpti_ActivitySynchronization);
    case CUPTI_ACTIVITY_KIND_MEMORY2:
        return v13 ? sizeof(CUpti_ActivityMemory4) : sizeof(CUpti_ActivityMemory3);
    case CUPTI_ACTIVITY_KIND_OVERHEAD:
        return v13 ? sizeof(CUpti_ActivityOverhead3) : sizeof(CUpti_ActivityOverhead);
    case CUPTI_ACTIVITY_KIND_DEVICE:
        return v13 ? sizeof(CUpti_ActivityDevice5) : sizeof(CUpti_ActivityDevice4);
    case CUPTI_ACTIVITY_KIND_CONTEXT:
        return v13 ? sizeof(CUpti_ActivityContext3) : sizeof(CUpti_ActivityContext);
    default: return 0;
    }
}

static CUptiResult fake_subscribe_v2(CUpti_SubscriberHandle *sub, CUpti_CallbackFunc cb, void *ud,
                                     CUpti_SubscriberParams *params)
{
    (void)ud;
    if (fake.subscribe_rc != CUPTI_SUCCESS) {
        snprintf(params->oldSubscriberName, params->oldSubscriberSize, "Nsight Systems");
        return fake.subscribe_rc;
    }
    *sub = (CUpti_SubscriberHandle)&fake;
    fake.callback = cb;
    return CUPTI_SUCCESS;
}

static CUptiResult fake_subscribe(CUpti_SubscriberHandle *sub, CUpti_CallbackFunc cb, void *ud)
{
    (void)sub, (void)cb, (void)ud;
    return CUPTI_ERROR_UNKNOWN; /* the table has _v2: never called */
}

static CUptiResult fake_unsubscribe(CUpti_SubscriberHandle sub)
{
    (void)sub;
    fake.unsubscribed++;
    return CUPTI_SUCCESS;
}

static CUptiResult fake_enable_callback(uint32_t on, CUpti_SubscriberHandle sub,
                                        CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
{
    (void)sub;
    if (on && fake.ncallbacks < 16) {
        fake.callbacks[fake.ncallbacks].domain = domain;
        fake.callbacks[fake.ncallbacks++].cbid = cbid;
    }
    return CUPTI_SUCCESS;
}

static CUptiResult fake_callback_name(CUpti_CallbackDomain domain, uint32_t cbid,
                                      const char **name)
{
    atomic_fetch_add(&fake.name_lookups, 1);
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid == LAUNCH_KERNEL)
        *name = "cudaLaunchKernel_v7000";
    else if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid == CU_LAUNCH_KERNEL)
        *name = "cuLaunchKernel";
    else
        return CUPTI_ERROR_INVALID_PARAMETER;
    return CUPTI_SUCCESS;
}

static CUptiResult fake_result_string(CUptiResult rc, const char **s)
{
    *s = rc == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
             ? "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED"
             : "CUPTI_ERROR_UNKNOWN";
    return CUPTI_SUCCESS;
}

static CUptiResult fake_thread_id_type(CUpti_ActivityThreadIdType type)
{
    fake.thread_id_type = (int)type;
    return CUPTI_SUCCESS;
}

static CUptiResult fake_enable(CUpti_ActivityKind kind)
{
    fake.enabled[kind] = true;
    return CUPTI_SUCCESS;
}

static CUptiResult fake_enable_and_dump(CUpti_ActivityKind kind)
{
    fake.dumped[kind] = true;
    return fake_enable(kind);
}

static CUptiResult fake_runtime_api(CUpti_CallbackId cbid, uint8_t on)
{
    if (!on && fake.nquiet_runtime < 16)
        fake.quiet_runtime[fake.nquiet_runtime++] = cbid;
    return CUPTI_SUCCESS;
}

static CUptiResult fake_driver_api(CUpti_CallbackId cbid, uint8_t on)
{
    if (!on && fake.nquiet_driver < 16)
        fake.quiet_driver[fake.nquiet_driver++] = cbid;
    return CUPTI_SUCCESS;
}

static CUptiResult fake_all_sync_records(uint8_t on)
{
    fake.all_sync_records = on;
    return CUPTI_SUCCESS;
}

static CUptiResult fake_register(CUpti_BuffersCallbackRequestFunc req,
                                 CUpti_BuffersCallbackCompleteFunc done)
{
    fake.requested = req;
    fake.completed = done;
    return CUPTI_SUCCESS;
}

/* Walks records laid out back to back, each as long as its kind's struct in this major. */
static CUptiResult fake_next_record(uint8_t *buffer, size_t valid, CUpti_Activity **record)
{
    uint8_t *at = *record ? (uint8_t *)*record + record_size((*record)->kind) : buffer;
    if (at >= buffer + valid)
        return CUPTI_ERROR_MAX_LIMIT_REACHED;
    *record = (CUpti_Activity *)at;
    return CUPTI_SUCCESS;
}

static CUptiResult fake_flush_all(uint32_t flag)
{
    atomic_fetch_add(&fake.flushes, 1);
    if (flag & CUPTI_ACTIVITY_FLAG_FLUSH_FORCED)
        atomic_fetch_add(&fake.forced_flushes, 1);
    return CUPTI_SUCCESS;
}

static CUptiResult fake_dropped(CUcontext ctx, uint32_t stream, size_t *dropped)
{
    (void)ctx, (void)stream;
    *dropped = atomic_exchange(&fake.dropped, 0);
    return CUPTI_SUCCESS;
}

static gsa_cupti_api fake_api(int major, uint32_t version)
{
    memset(&fake, 0, sizeof fake);
    fake.major = major;
    fake.version = version;
    fake.all_sync_records = -1;
    fake.thread_id_type = -1;
    return (gsa_cupti_api){
        .version = version,
        .Subscribe_v2 = fake_subscribe_v2,
        .Subscribe = fake_subscribe,
        .Unsubscribe = fake_unsubscribe,
        .EnableCallback = fake_enable_callback,
        .GetCallbackName = fake_callback_name,
        .GetResultString = fake_result_string,
        .SetThreadIdType = fake_thread_id_type,
        .ActivityEnable = fake_enable,
        .ActivityEnableAndDump = fake_enable_and_dump,
        .ActivityEnableRuntimeApi = fake_runtime_api,
        .ActivityEnableDriverApi = fake_driver_api,
        .ActivityEnableAllSyncRecords = fake_all_sync_records,
        .ActivityRegisterCallbacks = fake_register,
        .ActivityGetNextRecord = fake_next_record,
        .ActivityFlushAll = fake_flush_all,
        .ActivityGetNumDroppedRecords = fake_dropped,
    };
}

/* ---- running the agent ------------------------------------------------------------------- */

/* A fresh file per test (the agent names it by pid): its own run folder. The writer's period
 * is long so that decoding happens in the final drain of gsa_shutdown. */
static void begin(const char *parts, const char *capture)
{
    static char dir[64];
    snprintf(dir, sizeof dir, "/tmp/test_agent_cupti_XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
    setenv(GS_ENV_RUN_DIR, dir, 1);
    setenv(GS_ENV_FLUSH_MS, "600000", 1);
    if (parts)
        setenv(GS_ENV_TRACE, parts, 1);
    else
        unsetenv(GS_ENV_TRACE);
    if (capture)
        setenv(GS_ENV_CAPTURE, capture, 1);
    else
        unsetenv(GS_ENV_CAPTURE);
    CHECK(gsa_start());
}

static gs_trace *finish(void)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s", gsa_file_path());
    gsa_shutdown();
    gs_trace *t = NULL;
    gs_error err;
    CHECK_INT(gs_load_trace(path, NULL, &t, &err), 0);
    unlink(path);
    return t;
}

/* Copies records into a buffer CUPTI got from the agent and hands it back as CUPTI does. */
static void feed(const void *const *records, size_t n)
{
    uint8_t *buffer = NULL;
    size_t size = 0, max_records = 1;
    fake.requested(&buffer, &size, &max_records);
    CHECK(buffer != NULL);
    CHECK_INT(size, GSA_CUPTI_BUFFER_SIZE);
    CHECK_INT(max_records, 0);
    CHECK_INT((uintptr_t)buffer % 8, 0);
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = record_size(((const CUpti_Activity *)records[i])->kind);
        memcpy(buffer + used, records[i], len);
        used += len;
    }
    fake.completed(NULL, 0, buffer, size, used);
}

static bool has_string(const gs_trace *t, const char *s)
{
    for (size_t i = 0; i < t->strings.n; i++)
        if (strcmp(gs_trace_str(t, (gs_str)i), s) == 0)
            return true;
    return false;
}

static bool has_string_containing(const gs_trace *t, const char *s)
{
    for (size_t i = 0; i < t->strings.n; i++)
        if (strstr(gs_trace_str(t, (gs_str)i), s))
            return true;
    return false;
}

static const gs_memop *memop_by_correlation(const gs_trace *t, uint64_t corr)
{
    for (size_t i = 0; i < t->memops.n; i++)
        if (t->memops.v[i].correlation == corr)
            return &t->memops.v[i];
    return NULL;
}

static const gs_api *api_by_correlation(const gs_trace *t, uint64_t corr)
{
    for (size_t i = 0; i < t->apis.n; i++)
        if (t->apis.v[i].correlation == corr)
            return &t->apis.v[i];
    return NULL;
}

/* ---- the records both majors share, checked the same way ---------------------------------- */

static const CUuuid uuid = {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}};

static void check_common(const gs_trace *t)
{
    CHECK_INT(t->kernels.n, 1); /* the untimed one is left out */
    if (t->kernels.n == 1) {
        const gs_kernel *k = &t->kernels.v[0];
        CHECK_STR(gs_trace_str(t, k->name), "_Z6kernelPf");
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
        CHECK_STR(gs_trace_str(t, a->name), "cudaLaunchKernel_v7000");
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
    CHECK_INT(t->records_dropped, 6);
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

/* ---- setup, conflicts, losses, callbacks ---------------------------------------------------- */

static bool has_callback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
{
    for (int i = 0; i < fake.ncallbacks; i++)
        if (fake.callbacks[i].domain == domain && fake.callbacks[i].cbid == cbid)
            return true;
    return false;
}

static bool in(const CUpti_CallbackId *ids, int n, CUpti_CallbackId id)
{
    for (int i = 0; i < n; i++)
        if (ids[i] == id)
            return true;
    return false;
}

static void test_setup_without_memory(void)
{
    gsa_cupti_api api = fake_api(13, 130001);
    begin("cuda,nvtx", NULL);
    CHECK(gsa_cupti_start(&api));
    static const CUpti_ActivityKind wanted[] = {
        CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
        CUPTI_ACTIVITY_KIND_MEMCPY2,           CUPTI_ACTIVITY_KIND_MEMSET,
        CUPTI_ACTIVITY_KIND_RUNTIME,           CUPTI_ACTIVITY_KIND_DRIVER,
        CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,   CUPTI_ACTIVITY_KIND_OVERHEAD,
        CUPTI_ACTIVITY_KIND_DEVICE,            CUPTI_ACTIVITY_KIND_CONTEXT};
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++)
        CHECK(fake.enabled[wanted[i]]);
    CHECK(!fake.enabled[CUPTI_ACTIVITY_KIND_MEMORY2]); /* "memory" is not in GPUSCOPE_TRACE */
    CHECK(!fake.enabled[CUPTI_ACTIVITY_KIND_KERNEL]);  /* it serialises kernels */
    CHECK(fake.dumped[CUPTI_ACTIVITY_KIND_DEVICE]);
    CHECK(fake.dumped[CUPTI_ACTIVITY_KIND_CONTEXT]);
    CHECK_INT(fake.thread_id_type, CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM);
    CHECK_INT(fake.all_sync_records, 0);
    CHECK(in(fake.quiet_runtime, fake.nquiet_runtime, CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020));
    CHECK(in(fake.quiet_runtime, fake.nquiet_runtime,
             CUPTI_RUNTIME_TRACE_CBID_cudaStreamIsCapturing_v10000));
    CHECK(in(fake.quiet_driver, fake.nquiet_driver, CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent));
    CHECK(in(fake.quiet_driver, fake.nquiet_driver, CUPTI_DRIVER_TRACE_CBID_cuPointerGetAttributes));
    CHECK(!in(fake.quiet_runtime, fake.nquiet_runtime, LAUNCH_KERNEL));
    CHECK(has_callback(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStart));
    CHECK(has_callback(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop));
    CHECK(has_callback(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020));
    CHECK(has_callback(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING));
    CHECK(has_callback(CUPTI_CB_DOMAIN_STATE, CUPTI_CBID_STATE_FATAL_ERROR));
    CHECK_INT(fake.ncallbacks, 5); /* no whole API domain: no callback on every call */
    gs_trace_delete(finish());
}

static void test_subscriber_conflict(void)
{
    gsa_cupti_api api = fake_api(13, 130001);
    fake.subscribe_rc = CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    begin(NULL, NULL);
    CHECK(!gsa_cupti_start(&api));
    CHECK(fake.requested == NULL);
    CHECK(!fake.enabled[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL]);
    gs_trace *t = finish();
    CHECK(t != NULL);
    if (t) {
        CHECK(has_string(t, "CUPTI: cannot subscribe (CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_"
                            "SUPPORTED), held by 'Nsight Systems': CUDA tracing is off, NVTX "
                            "goes on"));
        gs_trace_delete(t);
    }
    CHECK_INT(atomic_load(&fake.flushes), 0); /* the drain leaves CUPTI alone */
}

static void test_pool_exhaustion(void)
{
    gsa_cupti_api api = fake_api(13, 130001);
    begin(NULL, NULL);
    CHECK(gsa_cupti_start(&api));
    uint8_t *held[GSA_CUPTI_BUFFER_CAP + 1];
    size_t sizes[GSA_CUPTI_BUFFER_CAP + 1], max_records;
    for (int i = 0; i <= GSA_CUPTI_BUFFER_CAP; i++)
        fake.requested(&held[i], &sizes[i], &max_records);
    for (int i = 0; i < GSA_CUPTI_BUFFER_CAP; i++)
        CHECK_INT(sizes[i], GSA_CUPTI_BUFFER_SIZE);
    /* Past the cap CUPTI gets the discard buffer, never NULL. */
    CHECK(held[GSA_CUPTI_BUFFER_CAP] != NULL);
    CHECK(sizes[GSA_CUPTI_BUFFER_CAP] < GSA_CUPTI_BUFFER_SIZE);
    for (int i = 0; i <= GSA_CUPTI_BUFFER_CAP; i++)
        fake.completed(NULL, 0, held[i], sizes[i], 0);
    gs_trace *t = finish();
    CHECK(t != NULL);
    if (t) {
        CHECK(has_string_containing(t, "CUPTI: 1 activity buffers discarded"));
        gs_trace_delete(t);
    }
    /* Every pool buffer came back: the next requests get pool buffers again. */
    uint8_t *buffer;
    size_t size;
    fake.requested(&buffer, &size, &max_records);
    CHECK_INT(size, GSA_CUPTI_BUFFER_SIZE);
    fake.completed(NULL, 0, buffer, size, 0); /* empty: the next test's drain takes it back */
}

static void call(CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
{
    CUpti_CallbackData data = {.callbackSite = CUPTI_API_ENTER};
    fake.callback(NULL, domain, cbid, &data);
}

/* cudaProfilerStart/Stop bound what is kept; cudaDeviceReset and context teardown flush; a
 * fatal CUPTI error stops calls into CUPTI but keeps what was already delivered. */
static void test_callbacks(void)
{
    gsa_cupti_api api = fake_api(13, 130001);
    begin(NULL, "range=cudaProfilerApi");
    CHECK(gsa_cupti_start(&api));
    int64_t before = gsa_now_ns();
    call(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
    int64_t inside = gsa_now_ns();
    call(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop);
    int64_t after = gsa_now_ns() + 1000;
    CUpti_ActivityKernel10 early = {.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
                                    .start = (uint64_t)(before - 2000),
                                    .end = (uint64_t)(before - 1000), .correlationId = 1,
                                    .name = "early"};
    CUpti_ActivityKernel10 kept = early;
    kept.start = kept.end = (uint64_t)inside;
    kept.correlationId = 2;
    CUpti_ActivityKernel10 late = early;
    late.start = (uint64_t)after;
    late.end = (uint64_t)after + 1000;
    late.correlationId = 3;
    const void *records[] = {&early, &kept, &late};
    feed(records, 3);

    int flushes = atomic_load(&fake.flushes);
    call(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020);
    CHECK_INT(atomic_load(&fake.flushes), flushes + 1);
    CUpti_ResourceData resource = {0};
    fake.callback(NULL, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING,
                  &resource);
    CHECK_INT(atomic_load(&fake.flushes), flushes + 2);

    CUpti_StateData state = {.notification = {CUPTI_ERROR_UNKNOWN, "device lost"}};
    fake.callback(NULL, CUPTI_CB_DOMAIN_STATE, CUPTI_CBID_STATE_FATAL_ERROR, &state);
    atomic_store(&fake.dropped, 3); /* not asked for any more */
    gs_trace *t = finish();
    CHECK(t != NULL);
    if (t) {
        CHECK_INT(t->kernels.n, 1);
        if (t->kernels.n == 1)
            CHECK_INT(t->kernels.v[0].correlation, 2);
        CHECK(has_string(t, "CUPTI: fatal error, CUDA tracing stops: device lost"));
        CHECK_INT(t->records_dropped, 0);
        gs_trace_delete(t);
    }
    CHECK_INT(atomic_load(&fake.forced_flushes), 0);
}

int main(void)
{
    test_cuda13_records();
    test_cuda12_records();
    test_setup_without_memory();
    test_subscriber_conflict();
    test_pool_exhaustion();
    test_callbacks();
    return check_done("test_agent_cupti");
}
