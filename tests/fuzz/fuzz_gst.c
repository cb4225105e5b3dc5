/* Fuzz target for the .gst reader (src/ingest/gst.c) and the model's indexes over what it fills.
 * Inputs that do not start with the .gst magic would only exercise the JSON readers (fuzz_kineto
 * covers them), so the magic is forced onto every input. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/gst_format.h"
#include "ingest/load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + GST_MAGIC_SIZE);
    if (!buf)
        return 0;
    memcpy(buf, GST_MAGIC, GST_MAGIC_SIZE);
    size_t n = size;
    /* Seeds already carry the magic: keep them as they are so the fuzzer starts from valid files. */
    if (size >= GST_MAGIC_SIZE && memcmp(data, GST_MAGIC, GST_MAGIC_SIZE) == 0) {
        memcpy(buf, data, size);
    } else {
        memcpy(buf + GST_MAGIC_SIZE, data, size);
        n += GST_MAGIC_SIZE;
    }
    gs_error err;
    gs_trace *t = NULL;
    if (gs_load_trace_buffer(buf, n, "fuzz.gst", NULL, &t, &err) == 0) {
        gs_ns first, last;
        gs_trace_span(t, &first, &last);
        gs_trace_delete(t);
    }
    free(buf);
    return 0;
}
