/* Fuzz target for the .gst merge of `gpuscope run` (src/collect/gst_merge.c), which reads the
 * per-process files a killed or broken agent may have left: the input is written to a file
 * (with the .gst magic forced on, as in fuzz_gst) and merged with itself, then the result is
 * read back, so renumbered string ids go through the reader too. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect/gst_merge.h"
#include "common/gst_format.h"
#include "ingest/load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char in[64], out[64];
    snprintf(in, sizeof in, "/tmp/fuzz-merge-%ld.in", (long)getpid());
    snprintf(out, sizeof out, "/tmp/fuzz-merge-%ld.out", (long)getpid());
    /* The agent writes CLOCK_REALTIME files only, and the merge refuses others: the clock and
     * epoch of the header are forced too, so the fuzzer spends its time on chunks and records. */
    uint8_t *buf = malloc(size + GST_MAGIC_SIZE);
    if (!buf)
        return 0;
    size_t n = size;
    if (size >= GST_MAGIC_SIZE && memcmp(data, GST_MAGIC, GST_MAGIC_SIZE) == 0) {
        memcpy(buf, data, size);
    } else {
        memcpy(buf, GST_MAGIC, GST_MAGIC_SIZE);
        memcpy(buf + GST_MAGIC_SIZE, data, size);
        n += GST_MAGIC_SIZE;
    }
    if (n >= GST_FILE_HEADER_SIZE) {
        gst_put_u32(buf + 16, GST_CLOCK_REALTIME);
        gst_put_u64(buf + 24, 0);
    }
    FILE *f = fopen(in, "wb");
    if (f) {
        fwrite(buf, 1, n, f);
        fclose(f);
    }
    free(buf);
    if (!f)
        return 0;
    const char *inputs[] = {in, in};
    gs_merge_stats st;
    gs_error err;
    if (gs_gst_merge(inputs, 2, out, true, &st, &err) == 0) {
        gs_trace *t = NULL;
        if (gs_load_trace(out, NULL, &t, &err) == 0)
            gs_trace_delete(t);
    }
    gs_merge_stats_free(&st);
    return 0;
}
