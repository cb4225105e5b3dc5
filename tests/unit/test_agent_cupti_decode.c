/* The CUPTI record decoder alone, through a sink that collects what it writes: every record
 * is decoded from a heap block of exactly its size, so under ASan a read past a CUDA 12 record
 * (shorter than the CUDA 13 struct the decoder reads it through) is a heap overflow, and a
 * field CUPTI hands to the client that is not freed is a leak. */
#include <stdlib.h>
#include <string.h>

#include <cupti_driver_cbid.h>

#include "agent/cupti_decode.h"
#include "check.h"

#define CU_LAUNCH_KERNEL CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel

typedef struct collected {
    uint32_t types[16];
    union {
        gst_kernel kernel;
        gst_memcpy copy;
        gst_memset set;
        gst_api api;
        gst_sync sync;
        gst_memory memory;
        gst_note note;
        gst_device device;
    } recs[16];
    int n;
    char strings[16][64];
    int nstrings;
} collected;

static void collect_write(void *ctx, uint32_t type, const void *rec)
{
    static const size_t sizes[GST_REC__COUNT] = {
        [GST_REC_KERNEL] = sizeof(gst_kernel), [GST_REC_MEMCPY] = sizeof(gst_memcpy),
        [GST_REC_MEMSET] = sizeof(gst_memset), [GST_REC_API] = sizeof(gst_api),
        [GST_REC_SYNC] = sizeof(gst_sync),     [GST_REC_MEMORY] = sizeof(gst_memory),
        [GST_REC_NOTE] = sizeof(gst_note),     [GST_REC_DEVICE] = sizeof(gst_device),
    };
    collected *c = ctx;
    CHECK(type < GST_REC__COUNT && sizes[type] > 0);
    if (c->n < 16 && type < GST_REC__COUNT && sizes[type]) {
        c->types[c->n] = type;
        memcpy(&c->recs[c->n++], rec, sizes[type]);
    }
}

static gst_strid collect_intern(void *ctx, const char *s, size_t len)
{
    collected *c = ctx;
    for (int i = 0; i < c->nstrings; i++)
        if (strlen(c->strings[i]) == len && memcmp(c->strings[i], s, len) == 0)
            return (gst_strid)i + 1;
    if (c->nstrings == 16 || len >= sizeof c->strings[0])
        return 0;
    memcpy(c->strings[c->nstrings], s, len);
    c->strings[c->nstrings][len] = '\0';
    return (gst_strid)++c->nstrings;
}

static bool collect_captured(void *ctx, int64_t start, int64_t end)
{
    (void)ctx, (void)start, (void)end;
    return true;
}

static const char *collect_callback_name(void *ctx, CUpti_CallbackDomain domain, uint32_t cbid)
{
    (void)ctx;
    return domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid == CU_LAUNCH_KERNEL ? "cuLaunchKernel"
                                                                          : NULL;
}

static gsa_decoder decoder;

static collected *decoder_for(uint32_t version)
{
    static collected c;
    memset(&c, 0, sizeof c);
    gsa_decoder_init(&decoder,
                     &(gsa_decode_sink){&c, collect_write, collect_intern, collect_captured,
                                        collect_callback_name},
                     version);
    return &c;
}

/* Decodes a copy of `rec` that ends exactly where the allocation does: a read past the record
 * is a heap overflow under ASan. */
static void decode_exact(const void *rec, size_t size)
{
    void *copy = malloc(size);
    CHECK(copy != NULL);
    if (!copy)
        return;
    memcpy(copy, rec, size);
    gsa_decode_record(&decoder, copy);
    free(copy);
}

#define DECODE_EXACT(rec) decode_exact(&(rec), sizeof(rec))

static void test_cuda12_records_are_not_overread(void)
{
    collected *c = decoder_for(19);
    CUpti_ActivityKernel9 k = {.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, .start = 10,
                               .end = 20, .name = "k", .correlationId = 1};
    CUpti_ActivityMemcpy5 copy = {.kind = CUPTI_ACTIVITY_KIND_MEMCPY, .start = 10, .end = 20,
                                  .bytes = 3, .correlationId = 2};
    CUpti_ActivityMemcpyPtoP3 peer = {.kind = CUPTI_ACTIVITY_KIND_MEMCPY2, .start = 10,
                                      .end = 20, .bytes = 4, .correlationId = 3};
    CUpti_ActivityMemset3 set = {.kind = CUPTI_ACTIVITY_KIND_MEMSET, .start = 10, .end = 20,
                                 .bytes = 5, .correlationId = 4};
    CUpti_ActivityAPI api = {.kind = CUPTI_ACTIVITY_KIND_DRIVER, .cbid = CU_LAUNCH_KERNEL,
                             .start = 10, .end = 20, .correlationId = 5};
    CUpti_ActivitySynchronization sync = {.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
                                          .type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE,
                                          .start = 10, .end = 20, .correlationId = 6};
    CUpti_ActivityMemory3 mem = {.kind = CUPTI_ACTIVITY_KIND_MEMORY2,
                                 .memoryOperationType =
                                     CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION,
                                 .memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_PINNED, .bytes = 7,
                                 .timestamp = 10};
    /* The first Overhead record has no overheadData: it must not be read, let alone freed. */
    CUpti_ActivityOverhead overhead = {.kind = CUPTI_ACTIVITY_KIND_OVERHEAD,
                                       .overheadKind = CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH,
                                       .start = 10, .end = 25};
    CUpti_ActivityDevice4 dev = {.kind = CUPTI_ACTIVITY_KIND_DEVICE, .id = 2, .name = "GPU"};
    CUpti_ActivityContext ctx = {.kind = CUPTI_ACTIVITY_KIND_CONTEXT, .contextId = 5,
                                 .deviceId = 2};
    DECODE_EXACT(k);
    DECODE_EXACT(copy);
    DECODE_EXACT(peer);
    DECODE_EXACT(set);
    DECODE_EXACT(api);
    DECODE_EXACT(sync);
    DECODE_EXACT(mem);
    DECODE_EXACT(overhead);
    DECODE_EXACT(dev);
    DECODE_EXACT(ctx);
    static const uint32_t want[] = {GST_REC_KERNEL, GST_REC_MEMCPY, GST_REC_MEMCPY,
                                    GST_REC_MEMSET, GST_REC_API,    GST_REC_SYNC,
                                    GST_REC_MEMORY, GST_REC_NOTE,   GST_REC_DEVICE};
    CHECK_INT(c->n, 9);
    for (int i = 0; i < c->n && i < 9; i++)
        CHECK_INT(c->types[i], want[i]);
    CHECK_INT(c->recs[2].copy.bytes, 4);
    CHECK_INT(c->recs[6].memory.bytes, 7);
    CHECK_INT(c->recs[6].memory.device, -1); /* pinned memory is host memory */
    CHECK_INT(c->recs[6].memory.loc, GST_LOC_PINNED);
    CHECK_INT(c->recs[7].note.overhead_ns, 15);
    CHECK_INT(c->recs[7].note.ts, 10);
    CHECK_INT(c->recs[8].device.id, 2);
    /* The CONTEXT record maps context 5 to device 2 for the syncs that follow. */
    CUpti_ActivitySynchronization later = sync;
    later.contextId = 5;
    DECODE_EXACT(later);
    CHECK_INT(c->n, 10);
    CHECK_INT(c->recs[9].sync.device, 2);
    CHECK_INT(c->recs[9].sync.sync_type, GST_SYNC_EVENT);
}

static void test_cuda13_records_are_not_overread(void)
{
    collected *c = decoder_for(130001);
    CUpti_ActivityKernel10 k = {.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, .start = 10,
                                .end = 20, .name = "k"};
    CUpti_ActivityMemcpy6 copy = {.kind = CUPTI_ACTIVITY_KIND_MEMCPY, .start = 10, .end = 20};
    CUpti_ActivitySynchronization2 sync = {.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
                                           .start = 10, .end = 20};
    CUpti_ActivityMemory4 mem = {.kind = CUPTI_ACTIVITY_KIND_MEMORY2,
                                 .memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE,
                                 .bytes = 9, .timestamp = 10};
    CUpti_ActivityOverhead3 overhead = {.kind = CUPTI_ACTIVITY_KIND_OVERHEAD,
                                        .overheadKind = CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL,
                                        .start = 10, .end = 30, .overheadData = malloc(8)};
    CUpti_ActivityDevice5 dev = {.kind = CUPTI_ACTIVITY_KIND_DEVICE, .name = strdup("GPU")};
    DECODE_EXACT(k);
    DECODE_EXACT(copy);
    DECODE_EXACT(sync);
    DECODE_EXACT(mem);
    DECODE_EXACT(overhead);
    DECODE_EXACT(dev);
    CHECK_INT(c->n, 6);
    CHECK_INT(c->recs[3].memory.bytes, -9);
    CHECK_INT(c->recs[4].note.overhead_ns, 20);
    CHECK_INT(c->recs[4].note.source, GST_NOTE_CUPTI);
    CHECK_STR(c->strings[c->recs[4].note.text - 1], "command buffer full");
    CHECK_STR(c->strings[c->recs[5].device.name - 1], "GPU");
}

/* CUDA 12.6 writes Overhead3 and hands overheadData over (LSan reports it if it leaks). */
static void test_cuda12_6_overhead_data_is_freed(void)
{
    collected *c = decoder_for(24);
    CUpti_ActivityOverhead3 overhead = {.kind = CUPTI_ACTIVITY_KIND_OVERHEAD,
                                        .overheadKind = CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER,
                                        .start = 100, .end = 400, .overheadData = malloc(24)};
    DECODE_EXACT(overhead);
    CHECK_INT(c->n, 1);
    CHECK_INT(c->recs[0].note.overhead_ns, 300);
    CHECK_STR(c->strings[c->recs[0].note.text - 1], "driver compiler");
}

int main(void)
{
    test_cuda12_records_are_not_overread();
    test_cuda13_records_are_not_overread();
    test_cuda12_6_overhead_data_is_freed();
    return check_done("test_agent_cupti_decode");
}
