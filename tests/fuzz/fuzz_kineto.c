/* Fuzz target for the trace readers (Kineto object and legacy array) and the model's indexes; an
 * input naming gpuscopeRanks (a chrome export of several ranks) is also read as its first two
 * parts, as a command would read them. Each input is also read in 3 chunks on 3 threads, which
 * must give the one-thread model or error exactly (aborts otherwise). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/load.h"
#include "../unit/trace_same.h"

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

static void read_in_chunks(const uint8_t *data, size_t size)
{
    gs_error e1, e3;
    gs_trace *t1 = NULL, *t3 = NULL;
    const gs_load_opts one = {.threads = 1}, three = {.threads = 3};
    int rc1 = gs_load_trace_buffer((const char *)data, size, "fuzz_rank3.json", &one, &t1, &e1);
    int rc3 = gs_load_trace_buffer((const char *)data, size, "fuzz_rank3.json", &three, &t3, &e3);
    if (rc1 != rc3 || (rc1 != 0 && strcmp(e1.msg, e3.msg) != 0) ||
        (rc1 == 0 && trace_difference(t1, t3) != NULL))
        abort();
    gs_trace_delete(t1);
    gs_trace_delete(t3);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    read_part(data, size, 0);
    read_in_chunks(data, size);
    static const char key[] = "gpuscopeRanks";
    if (memmem(data, size, key, sizeof key - 1))
        for (uint32_t part = 1; part <= 2; part++)
            read_part(data, size, part);
    return 0;
}
