/* CUDA tracing through the CUPTI Activity API (cupti_inject.h).
 *
 * Everything is set up inside InitializeInjection, before the program's modules load: enabling
 * kernel tracing later re-instruments every loaded module (seconds of stall). CUPTI's threads
 * and the program's only touch the lock-free buffer lists (cupti_buffers.c); the writer thread
 * flushes CUPTI, decodes the completed buffers and reports what was lost, in the drain hook. */
#include "agent/cupti_inject.h"

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "agent/capture.h"
#include "agent/cupti_buffers.h"
#include "agent/cupti_decode.h"
#include "common/util.h"

/* The table in use: written once before `tracing` is set, read only after. */
static gsa_cupti_api cupti;
static CUpti_SubscriberHandle subscriber;
static _Atomic bool tracing;
/* CUPTI finalised itself after a fatal error: queued buffers are still decoded, CUPTI is not
 * called again. */
static _Atomic bool cupti_gone;
static gsa_decoder decoder; /* writer only */

static const char *result_name(CUptiResult rc)
{
    const char *s = NULL;
    if (cupti.GetResultString && cupti.GetResultString(rc, &s) == CUPTI_SUCCESS && s)
        return s;
    return "unknown CUPTI error";
}

/* Notes are what `gpuscope run` prints after the program (gst_merge.h): each says what happened
 * and what the user can do, in words of CUDA and PyTorch, naming CUPTI only as NVIDIA's tracing
 * library. */
static void note_failure(const char *what, CUptiResult rc)
{
    char text[300];
    snprintf(text, sizeof text,
             "NVIDIA's CUDA tracing library (CUPTI) refused %s (%s): some GPU records may be "
             "missing from the trace",
             what, result_name(rc));
    gsa_note(GST_NOTE_CUPTI, text, 0, 0);
}

/* ---- the few API callbacks: capture control and flushes before state is torn down ---- */

static void CUPTIAPI on_callback(void *userdata, CUpti_CallbackDomain domain,
                                 CUpti_CallbackId cbid, const void *data)
{
    (void)userdata;
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
        /* cudaProfilerStart/Stop reach the driver's, so these cover both APIs. */
        const CUpti_CallbackData *call = data;
        if (call->callbackSite == CUPTI_API_ENTER)
            gsa_capture_profiler_api(cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart, gsa_now_ns());
    } else if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
        /* cudaDeviceReset destroys the contexts whose records are still in CUPTI's buffers. */
        const CUpti_CallbackData *call = data;
        if (call->callbackSite == CUPTI_API_ENTER)
            cupti.ActivityFlushAll(0);
    } else if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
        cupti.ActivityFlushAll(0); /* a context is about to be destroyed */
    } else if (domain == CUPTI_CB_DOMAIN_STATE) {
        const CUpti_StateData *state = data;
        const char *msg = state->notification.message;
        char text[240];
        snprintf(text, sizeof text,
                 "CUDA tracing stopped on an error of NVIDIA's tracing library (CUPTI): %s; the "
                 "trace holds the GPU work recorded before it",
                 msg ? msg : result_name(state->notification.result));
        atomic_store(&cupti_gone, true);
        gsa_note(GST_NOTE_CUPTI, text, 0, 0);
    }
}

static void enable_callbacks(void)
{
    static const struct {
        CUpti_CallbackDomain domain;
        CUpti_CallbackId cbid;
    } wanted[] = {
        {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStart},
        {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop},
        {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020},
        {CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING},
        {CUPTI_CB_DOMAIN_STATE, CUPTI_CBID_STATE_FATAL_ERROR},
    };
    for (size_t i = 0; i < COUNT_OF(wanted); i++) {
        CUptiResult rc = cupti.EnableCallback(1, subscriber, wanted[i].domain, wanted[i].cbid);
        if (rc != CUPTI_SUCCESS)
            note_failure("cuptiEnableCallback", rc);
    }
}

/* ---- activity kinds ---- */

/* What each collection records. Light keeps what every timeline view needs (kernels, copies,
 * sets, and the runtime calls that launched them) and leaves out driver calls, synchronization
 * and memory records (doc/run.md says which views lose what). Never KERNEL: it serialises every
 * kernel on the GPU. Device and context records come once; with EnableAndDump also for the
 * existing ones, so that every window's file has them. */
static const struct {
    CUpti_ActivityKind kind;
    const char *name;
    bool light;
} kinds[] = {
    {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, "CONCURRENT_KERNEL", true},
    {CUPTI_ACTIVITY_KIND_MEMCPY, "MEMCPY", true},
    {CUPTI_ACTIVITY_KIND_MEMCPY2, "MEMCPY2", true},
    {CUPTI_ACTIVITY_KIND_MEMSET, "MEMSET", true},
    {CUPTI_ACTIVITY_KIND_RUNTIME, "RUNTIME", true},
    {CUPTI_ACTIVITY_KIND_DRIVER, "DRIVER", false},
    {CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, "SYNCHRONIZATION", false},
    {CUPTI_ACTIVITY_KIND_OVERHEAD, "OVERHEAD", false},
    {CUPTI_ACTIVITY_KIND_MEMORY2, "MEMORY2", false},
    {CUPTI_ACTIVITY_KIND_DEVICE, "DEVICE", true},
    {CUPTI_ACTIVITY_KIND_CONTEXT, "CONTEXT", true},
};
static bool kind_on[COUNT_OF(kinds)]; /* writer only (and start) */

static void enable_kinds(gs_od_kinds collection)
{
    bool light = collection == GS_OD_KINDS_LIGHT;
    for (size_t i = 0; i < COUNT_OF(kinds); i++) {
        CUpti_ActivityKind kind = kinds[i].kind;
        if ((kind == CUPTI_ACTIVITY_KIND_MEMORY2 && !gsa_part_enabled(GSA_PART_MEMORY)) ||
            (light && !kinds[i].light))
            continue;
        bool dump = kind == CUPTI_ACTIVITY_KIND_DEVICE || kind == CUPTI_ACTIVITY_KIND_CONTEXT;
        CUptiResult rc = dump && cupti.ActivityEnableAndDump ? cupti.ActivityEnableAndDump(kind)
                                                             : cupti.ActivityEnable(kind);
        kind_on[i] = rc == CUPTI_SUCCESS;
        if (rc != CUPTI_SUCCESS) {
            char what[64];
            snprintf(what, sizeof what, "enabling %s", kinds[i].name);
            note_failure(what, rc);
        }
    }
}

/* After a window: nothing enabled, so a launch costs what it costs without a tool. */
static void disable_kinds(void)
{
    for (size_t i = 0; i < COUNT_OF(kinds); i++)
        if (kind_on[i]) {
            CUptiResult rc = cupti.ActivityDisable(kinds[i].kind);
            kind_on[i] = false;
            if (rc != CUPTI_SUCCESS) {
                char what[64];
                snprintf(what, sizeof what, "disabling %s", kinds[i].name);
                note_failure(what, rc);
            }
        }
}

/* Calls made constantly and cheaply (PyTorch asks the current device before every op): their
 * records would outnumber the rest. Must follow enabling RUNTIME and DRIVER, which resets them.
 * A cbid an older CUPTI does not know fails harmlessly. */
static void quiet_chatty_calls(void)
{
    static const CUpti_CallbackId runtime[] = {
        CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020,
        CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020,
        CUPTI_RUNTIME_TRACE_CBID_cudaPeekAtLastError_v3020,
        CUPTI_RUNTIME_TRACE_CBID_cudaStreamIsCapturing_v10000,
    };
    static const CUpti_CallbackId driver[] = {
        CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent,
        CUPTI_DRIVER_TRACE_CBID_cuKernelGetAttribute,
        CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxGetState,
        CUPTI_DRIVER_TRACE_CBID_cuPointerGetAttribute,
        CUPTI_DRIVER_TRACE_CBID_cuPointerGetAttributes,
    };
    for (size_t i = 0; cupti.ActivityEnableRuntimeApi && i < COUNT_OF(runtime);
         i++)
        cupti.ActivityEnableRuntimeApi(runtime[i], 0);
    for (size_t i = 0; cupti.ActivityEnableDriverApi && i < COUNT_OF(driver); i++)
        cupti.ActivityEnableDriverApi(driver[i], 0);
    /* By default every cudaEventQuery/cudaStreamQuery makes a SYNCHRONIZATION record, even on
     * unfinished work; NCCL's watchdog polls events all the time. */
    if (cupti.ActivityEnableAllSyncRecords)
        cupti.ActivityEnableAllSyncRecords(0);
}

/* ---- the writer's side ---- */

static void sink_write(void *ctx, uint32_t type, const void *rec)
{
    (void)ctx;
    gsa_write(type, rec);
}

static gst_strid sink_intern(void *ctx, const char *s, size_t len)
{
    (void)ctx;
    return gsa_intern(s, len);
}

static bool sink_captured(void *ctx, int64_t start, int64_t end)
{
    (void)ctx;
    return gsa_captured(start, end);
}

static const char *sink_callback_name(void *ctx, CUpti_CallbackDomain domain, uint32_t cbid)
{
    (void)ctx;
    const char *name = NULL;
    return cupti.GetCallbackName(domain, cbid, &name) == CUPTI_SUCCESS ? name : NULL;
}

static void decode_buffer(void *ctx, uint8_t *buffer, size_t valid_size)
{
    (void)ctx;
    CUpti_Activity *record = NULL;
    while (cupti.ActivityGetNextRecord(buffer, valid_size, &record) == CUPTI_SUCCESS)
        gsa_decode_record(&decoder, record);
}

static void note_loss(const char *what, uint64_t count)
{
    char text[300];
    snprintf(text, sizeof text, "%llu %s", (unsigned long long)count, what);
    gsa_note(GST_NOTE_CUPTI, text, count, 0);
}

static void report_losses(void)
{
    size_t dropped = 0;
    if (!atomic_load(&cupti_gone) &&
        cupti.ActivityGetNumDroppedRecords(NULL, 0, &dropped) == CUPTI_SUCCESS && dropped)
        note_loss("GPU records (kernels, copies, CUDA calls) were lost: CUDA's tracing buffers "
                  "were full; GPU totals are short by them (a shorter --flush-interval empties "
                  "the buffers sooner)",
                  dropped);
    if (decoder.untimed) {
        note_loss("GPU records came without times (the GPU's own record buffer overflowed) and "
                  "were left out",
                  decoder.untimed);
        decoder.untimed = 0;
    }
    uint64_t discarded = gsa_cupti_buffers_take_discarded();
    if (discarded) {
        /* How many records went into the discard buffer is unknown: no count, only the text. */
        char text[300];
        snprintf(text, sizeof text,
                 "%llu buffers of GPU records were thrown away (all %d of gpuscope's %zu MiB "
                 "buffers were in use): their kernels and copies are missing (a shorter "
                 "--flush-interval empties the buffers sooner)",
                 (unsigned long long)discarded, GSA_CUPTI_BUFFER_CAP,
                 GSA_CUPTI_BUFFER_SIZE >> 20);
        gsa_note(GST_NOTE_CUPTI, text, 0, 0);
    }
}

static void drain(bool final)
{
    /* A forked child inherits this hook and CUPTI's memory, but CUDA is unusable there. */
    if (!atomic_load_explicit(&tracing, memory_order_acquire) || gsa_is_forked_child())
        return;
    /* Without FORCED, CUPTI returns only buffers whose records are all complete. */
    if (!atomic_load(&cupti_gone))
        cupti.ActivityFlushAll(final ? CUPTI_ACTIVITY_FLAG_FLUSH_FORCED : 0);
    gsa_cupti_buffers_drain(decode_buffer, NULL);
    report_losses();
    /* Every kind is off and every buffer came back: their memory goes back to the system. */
    if (final && gsa_window_closing())
        gsa_cupti_buffers_release();
}

/* A window on demand turns collection on as its request is accepted, off once it closed. */
static void switch_kinds(bool on, gs_od_kinds collection)
{
    if (atomic_load(&cupti_gone) || gsa_is_forked_child())
        return;
    if (!on) {
        disable_kinds();
        return;
    }
    enable_kinds(collection);
    quiet_chatty_calls();
}

/* ---- start ---- */

static CUptiResult subscribe(char *holder, size_t holder_size)
{
    if (!cupti.Subscribe_v2)
        return cupti.Subscribe(&subscriber, on_callback, NULL);
    CUpti_SubscriberParams params = {
        .structSize = CUpti_SubscriberParams_STRUCT_SIZE,
        .subscriberName = "gpuscope",
        .oldSubscriberName = holder,
        .oldSubscriberSize = holder_size,
    };
    return cupti.Subscribe_v2(&subscriber, on_callback, NULL, &params);
}

bool gsa_cupti_start(const gsa_cupti_api *api)
{
    atomic_store(&tracing, false);
    atomic_store(&cupti_gone, false);
    cupti = *api;
    char holder[CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN] = "";
    CUptiResult rc = subscribe(holder, sizeof holder);
    if (rc != CUPTI_SUCCESS) {
        /* Nsight Systems, Nsight Compute or another profiler holds CUPTI (one client at a time
         * before CUDA 13.3). */
        char text[400];
        snprintf(text, sizeof text,
                 "another profiler%s%s%s was already tracing CUDA in this process (nsys, ncu, or "
                 "torch.profiler with CUDA activities), and NVIDIA's tracing library takes one at "
                 "a time (%s): no kernels, copies or CUDA calls were recorded, NVTX ranges and "
                 "samples were; run gpuscope without the other profiler",
                 holder[0] ? " ('" : "", holder, holder[0] ? "')" : "", result_name(rc));
        gsa_note(GST_NOTE_CUPTI, text, 0, 0);
        return false;
    }
    /* Thread ids as the kernel numbers them (NVTX and /proc use those), not pthread_self(). */
    rc = cupti.SetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM);
    if (rc != CUPTI_SUCCESS)
        note_failure("cuptiSetThreadIdType(SYSTEM)", rc);
    /* A dormant agent allocates no buffer before its first window. */
    if (!gsa_on_demand())
        gsa_cupti_buffers_init();
    rc = cupti.ActivityRegisterCallbacks(gsa_cupti_buffer_requested, gsa_cupti_buffer_completed);
    if (rc != CUPTI_SUCCESS) {
        note_failure("cuptiActivityRegisterCallbacks", rc);
        cupti.Unsubscribe(subscriber); /* leave CUPTI to whoever can use it */
        return false;
    }
    gsa_decoder_init(&decoder,
                     &(gsa_decode_sink){NULL, sink_write, sink_intern, sink_captured,
                                        sink_callback_name},
                     cupti.version);
    if (gsa_on_demand()) {
        gsa_register_switch(switch_kinds); /* subscribed, nothing enabled: no cost per launch */
    } else {
        enable_kinds(gsa_run_kinds());
        quiet_chatty_calls();
    }
    enable_callbacks();
    gsa_register_drain(drain);
    atomic_store_explicit(&tracing, true, memory_order_release);
    return true;
}

static void start_once(void)
{
    /* In a forked child CUDA cannot work; in a process that asked for no CUDA part, only the
     * NVTX half records. */
    if (gsa_is_forked_child() || !gsa_start() || !gsa_part_enabled(GSA_PART_CUDA))
        return;
    gsa_cupti_api api;
    char msg[1024];
    if (gsa_cupti_load(&api, msg, sizeof msg) != 0) {
        char text[1400];
        snprintf(text, sizeof text,
                 "CUDA tracing could not start: %s; no kernels, copies or CUDA calls were "
                 "recorded, NVTX ranges and samples were (install NVIDIA's CUPTI library: the "
                 "nvidia-cuda-cupti wheel PyTorch uses, or a CUDA toolkit found by CUDA_HOME)",
                 msg);
        gsa_note(GST_NOTE_CUPTI, text, 0, 0);
        return;
    }
    gsa_cupti_start(&api);
}

GSA_EXPORT int InitializeInjection(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, start_once);
    return 1; /* 0 is not success to the driver; tracing problems are notes in the trace */
}
