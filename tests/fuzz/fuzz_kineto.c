/* Fuzz target for the trace readers (Kineto object and legacy array) and the model's indexes. */
#include <stddef.h>
#include <stdint.h>

#include "ingest/load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gs_error err;
    gs_trace *t = NULL;
    if (gs_load_trace_buffer((const char *)data, size, "fuzz_rank3.json", NULL, &t, &err) == 0) {
        gs_ns first, last;
        gs_trace_span(t, &first, &last);
        gs_trace_delete(t);
    }
    return 0;
}
