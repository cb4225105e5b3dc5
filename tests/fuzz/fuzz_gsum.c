/* Fuzz target for the rank-summary reader (src/analysis/pipeline/gsum_read.c, `.gsum` files of
 * gpuscope summarize): whatever it accepts is written back out with the writer, so both sides of
 * the field table see the values the fuzzer finds, then merged into a report and rendered as
 * text, JSON and HTML, as `gpuscope report RANK.gsum` would. Seeds: tests/fuzz/corpus/gsum/,
 * summaries of the committed 4-rank profile, the bundled example and the .gst fixture. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/pipeline/gsum_read.h"
#include "analysis/pipeline/report.h"
#include "analysis/pipeline/gsum_write.h"
#include "render/html.h"
#include "render/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gs_rank_summary *s = malloc(sizeof *s);
    gs_error err;
    if (!s)
        return 0;
    if (gs_gsum_read_buffer((const char *)data, size, "fuzz.gsum", s, &err) != 0) {
        free(s);
        return 0;
    }
    FILE *sink = fopen("/dev/null", "w");
    if (sink)
        gs_gsum_write(sink, s);
    gs_report r;
    const gs_report_opts ro = {.stages = GS_STAGE_ALL, .align = true}; /* as `gpuscope report` */
    if (gs_report_build(s, 1, &ro, &r, &err) == 0) { /* s is the report's now */
        if (sink) {
            gs_render_report(sink, &r, GS_FORMAT_TABLE, NULL, 0, true);
            gs_render_report(sink, &r, GS_FORMAT_JSON, NULL, 0, false);
            gs_render_html(sink, &r, 0);
        }
        gs_report_free(&r);
    }
    if (sink)
        fclose(sink);
    return 0;
}
