/* One CUPTI activity record into .gst records (gst_format.h), with nothing global: what it
 * writes, interns and asks CUPTI goes through a sink, so tests can feed it records of either
 * CUDA major and see exactly what comes out.
 *
 * CUPTI writes the newest record version it knows (CUDA 12: Kernel9, Memcpy5, Memory3 or 4,
 * Synchronization, Overhead to Overhead3, Device5; CUDA 13: Kernel10, Memcpy6, Memory4,
 * Synchronization2, Overhead3, Device5), and newer versions only append fields. The decoder
 * reads the CUDA 13 structs but only fields that lie inside the oldest version it may be given
 * (checked at compile time in cupti_decode.c), and fields that need a version check behind
 * `cupti_version`. So it never reads past the record CUPTI wrote. */
#ifndef GS_AGENT_CUPTI_DECODE_H
#define GS_AGENT_CUPTI_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cupti_activity.h>
#include <cupti_callbacks.h>

#include "common/gst_format.h"

typedef struct gsa_decode_sink {
    void *ctx;
    /* Appends one record (gst_kernel for GST_REC_KERNEL, ...). */
    void (*write)(void *ctx, uint32_t type, const void *rec);
    /* The id of a string in the output file. */
    gst_strid (*intern)(void *ctx, const char *s, size_t len);
    /* Whether a record spanning [start, end] is to be kept (capture windows). */
    bool (*captured)(void *ctx, int64_t start, int64_t end);
    /* CUPTI's name of a runtime or driver API callback id, NULL when it has none. */
    const char *(*callback_name)(void *ctx, CUpti_CallbackDomain domain, uint32_t cbid);
} gsa_decode_sink;

/* API names by callback id, looked up once: cbids are small dense numbers (about 500 runtime and
 * 900 driver ones in CUDA 13); larger ids are looked up every time. */
#define GSA_DECODE_NAME_SLOTS 2048
/* Contexts whose device is known: a process has about one per device. */
#define GSA_DECODE_CONTEXTS 64

typedef struct gsa_decoder {
    gsa_decode_sink sink;
    uint32_t cupti_version; /* cuptiGetVersion() of the CUPTI that wrote the records */
    const char *runtime_names[GSA_DECODE_NAME_SLOTS];
    const char *driver_names[GSA_DECODE_NAME_SLOTS];
    /* SYNCHRONIZATION records name a context, not a device: learnt from records that have both. */
    struct gsa_context_device {
        uint32_t context;
        int32_t device;
    } contexts[GSA_DECODE_CONTEXTS];
    unsigned ncontexts;
    /* GPU records CUPTI could not time (start = end = 0: its device buffers were full), left
     * out of the file; the caller reports them as dropped and resets the count. */
    uint64_t untimed;
} gsa_decoder;

void gsa_decoder_init(gsa_decoder *d, const gsa_decode_sink *sink, uint32_t cupti_version);

/* Decodes one record; kinds the agent does not record are skipped. Frees what CUPTI hands over
 * to the client in this record (Overhead3.overheadData, CUDA 13 Device5.name). */
void gsa_decode_record(gsa_decoder *d, const CUpti_Activity *record);

#endif
