/* Fuzz target for the rank-summary reader (src/analysis/ranks/gsum_read.c, `.gsum` files of gpuscope
 * summarize): whatever it accepts is written back out with the writer, so both sides of the
 * field table see the values the fuzzer finds. Seeds: tests/fuzz/corpus/gsum/, summaries of
 * the committed 4-rank profile. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "export/gsum.h"
#include "analysis/ranks/gsum_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gs_rank_summary s;
    gs_error err;
    if (gs_gsum_read_buffer((const char *)data, size, "fuzz.gsum", &s, &err) == 0) {
        FILE *sink = fopen("/dev/null", "w");
        if (sink) {
            gs_gsum_write(sink, &s);
            fclose(sink);
        }
        gs_rank_summary_free(&s);
    }
    return 0;
}
