/* Fuzz target for the trace readers (Kineto object and legacy array) and the model's indexes; an
 * input naming gpuscopeRanks (a chrome export of several ranks) is also read as its first two
 * parts, as a command would read them. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ingest/load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_part(const uint8_t *data, size_t size, uint32_t part)
{
    gs_error err;
    gs_trace *t = NULL;
    const gs_load_opts opts = {.part = part};
    if (gs_load_trace_buffer((const char *)data, size, "fuzz_rank3.json", &opts, &t, &err) == 0) {
        gs_ns first, last;
        gs_trace_span(t, &first, &last);
        gs_trace_delete(t);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    read_part(data, size, 0);
    static const char key[] = "gpuscopeRanks";
    if (memmem(data, size, key, sizeof key - 1))
        for (uint32_t part = 1; part <= 2; part++)
            read_part(data, size, part);
    return 0;
}
