/* A fake CUPTI for the agent's tests (test_agent_cupti*.c): a table of functions standing in for
 * libcupti, whose GetNextRecord walks buffers of records laid out as CUDA 13 or CUDA 12 write
 * them, and helpers that run the real agent core into a .gst file and read it back. */
#ifndef GS_TESTS_FAKE_CUPTI_H
#define GS_TESTS_FAKE_CUPTI_H

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

static inline size_t record_size(CUpti_ActivityKind kind)
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

static inline CUptiResult fake_subscribe_v2(CUpti_SubscriberHandle *sub, CUpti_CallbackFunc cb,
                                             void *ud, CUpti_SubscriberParams *params)
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

static inline CUptiResult fake_subscribe(CUpti_SubscriberHandle *sub, CUpti_CallbackFunc cb,
                                          void *ud)
{
    (void)sub, (void)cb, (void)ud;
    return CUPTI_ERROR_UNKNOWN; /* the table has _v2: never called */
}

static inline CUptiResult fake_unsubscribe(CUpti_SubscriberHandle sub)
{
    (void)sub;
    fake.unsubscribed++;
    return CUPTI_SUCCESS;
}

static inline CUptiResult fake_enable_callback(uint32_t on, CUpti_SubscriberHandle sub,
                                        CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
{
    (void)sub;
    if (on && fake.ncallbacks < 16) {
        fake.callbacks[fake.ncallbacks].domain = domain;
        fake.callbacks[fake.ncallbacks++].cbid = cbid;
    }
    return CUPTI_SUCCESS;
}

static inline CUptiResult fake_callback_name(CUpti_CallbackDomain domain, uint32_t cbid,
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

static inline CUptiResult fake_result_string(CUptiResult rc, const char **s)
{
    *s = rc == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
             ? "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED"
             : "CUPTI_ERROR_UNKNOWN";
    return CUPTI_SUCCESS;
}

static inline CUptiResult fake_thread_id_type(CUpti_ActivityThreadIdType type)
{
    fake.thread_id_type = (int)type;
    return CUPTI_SUCCESS;
}

static inline CUptiResult fake_enable(CUpti_ActivityKind kind)
{
    fake.enabled[kind] = true;
    return CUPTI_SUCCESS;
}

static inline CUptiResult fake_disable(CUpti_ActivityKind kind)
{
    fake.enabled[kind] = false;
    return CUPTI_SUCCESS;
}

static inline CUptiResult fake_enable_and_dump(CUpti_ActivityKind kind)
{
    fake.dumped[kind] = true;
    return fake_enable(kind);
}

static inline CUptiResult fake_runtime_api(CUpti_CallbackId cbid, uint8_t on)
{
    if (!on && fake.nquiet_runtime < 16)
        fake.quiet_runtime[fake.nquiet_runtime++] = cbid;
    return CUPTI_SUCCESS;
}

static inline CUptiResult fake_driver_api(CUpti_CallbackId cbid, uint8_t on)
{
    if (!on && fake.nquiet_driver < 16)
        fake.quiet_driver[fake.nquiet_driver++] = cbid;
    return CUPTI_SUCCESS;
}

static inline CUptiResult fake_all_sync_records(uint8_t on)
{
    fake.all_sync_records = on;
    return CUPTI_SUCCESS;
}

static inline CUptiResult fake_register(CUpti_BuffersCallbackRequestFunc req,
                                 CUpti_BuffersCallbackCompleteFunc done)
{
    fake.requested = req;
    fake.completed = done;
    return CUPTI_SUCCESS;
}

/* Walks records laid out back to back, each as long as its kind's struct in this major. */
static inline CUptiResult fake_next_record(uint8_t *buffer, size_t valid, CUpti_Activity **record)
{
    uint8_t *at = *record ? (uint8_t *)*record + record_size((*record)->kind) : buffer;
    if (at >= buffer + valid)
        return CUPTI_ERROR_MAX_LIMIT_REACHED;
    *record = (CUpti_Activity *)at;
    return CUPTI_SUCCESS;
}

static inline CUptiResult fake_flush_all(uint32_t flag)
{
    atomic_fetch_add(&fake.flushes, 1);
    if (flag & CUPTI_ACTIVITY_FLAG_FLUSH_FORCED)
        atomic_fetch_add(&fake.forced_flushes, 1);
    return CUPTI_SUCCESS;
}

static inline CUptiResult fake_dropped(CUcontext ctx, uint32_t stream, size_t *dropped)
{
    (void)ctx, (void)stream;
    *dropped = atomic_exchange(&fake.dropped, 0);
    return CUPTI_SUCCESS;
}

static inline gsa_cupti_api fake_api(int major, uint32_t version)
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
        .ActivityDisable = fake_disable,
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
static inline void begin(const char *parts, const char *capture)
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

static inline gs_trace *finish(void)
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
static inline void feed(const void *const *records, size_t n)
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

static inline bool has_string(const gs_trace *t, const char *s)
{
    for (size_t i = 0; i < t->strings.n; i++)
        if (strcmp(gs_trace_str(t, (gs_str)i), s) == 0)
            return true;
    return false;
}

static inline bool has_string_containing(const gs_trace *t, const char *s)
{
    for (size_t i = 0; i < t->strings.n; i++)
        if (strstr(gs_trace_str(t, (gs_str)i), s))
            return true;
    return false;
}

static inline const gs_memop *memop_by_correlation(const gs_trace *t, uint64_t corr)
{
    for (size_t i = 0; i < t->memops.n; i++)
        if (t->memops.v[i].correlation == corr)
            return &t->memops.v[i];
    return NULL;
}

static inline const gs_api *api_by_correlation(const gs_trace *t, uint64_t corr)
{
    for (size_t i = 0; i < t->apis.n; i++)
        if (t->apis.v[i].correlation == corr)
            return &t->apis.v[i];
    return NULL;
}

#endif
