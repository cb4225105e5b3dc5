/* The CUPTI half of the agent's setup without a GPU, through the fake CUPTI (fake_cupti.h): the
 * kinds, callbacks and quiet calls it enables, a subscriber conflict, buffer pool exhaustion,
 * and the callbacks that flush or end tracing. The records: test_agent_cupti_records.c. */
#include "fake_cupti.h"

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

/* --kinds light: kernels, copies, sets and runtime calls; no driver calls, synchronization,
 * overhead or allocations. */
static void test_light_kinds(void)
{
    gsa_cupti_api api = fake_api(13, 130001);
    setenv(GS_ENV_KINDS, "light", 1);
    begin("cuda,nvtx,memory", NULL);
    CHECK(gsa_cupti_start(&api));
    static const CUpti_ActivityKind on[] = {
        CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
        CUPTI_ACTIVITY_KIND_MEMCPY2, CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_RUNTIME,
        CUPTI_ACTIVITY_KIND_DEVICE, CUPTI_ACTIVITY_KIND_CONTEXT};
    static const CUpti_ActivityKind off[] = {
        CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
        CUPTI_ACTIVITY_KIND_OVERHEAD, CUPTI_ACTIVITY_KIND_MEMORY2};
    for (size_t i = 0; i < sizeof on / sizeof on[0]; i++)
        CHECK(fake.enabled[on[i]]);
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++)
        CHECK(!fake.enabled[off[i]]);
    unsetenv(GS_ENV_KINDS);
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
        CHECK(has_string(t, "another profiler ('Nsight Systems') was already tracing CUDA in "
                            "this process (nsys, ncu, or torch.profiler with CUDA activities), "
                            "and NVIDIA's tracing library takes one at a time "
                            "(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED): no kernels, "
                            "copies or CUDA calls were recorded, NVTX ranges and samples were; "
                            "run gpuscope without the other profiler"));
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
        CHECK(has_string_containing(t, "1 buffers of GPU records were thrown away"));
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
        CHECK(has_string(t, "CUDA tracing stopped on an error of NVIDIA's tracing library "
                            "(CUPTI): device lost; the trace holds the GPU work recorded before "
                            "it"));
        CHECK_INT(t->lost[GS_LOSS_DROPPED], 0);
        gs_trace_delete(t);
    }
    CHECK_INT(atomic_load(&fake.forced_flushes), 0);
}

int main(void)
{
    test_setup_without_memory();
    test_light_kinds();
    test_subscriber_conflict();
    test_pool_exhaustion();
    test_callbacks();
    return check_done("test_agent_cupti");
}
