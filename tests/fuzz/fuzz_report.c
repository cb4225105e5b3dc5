/* Fuzz target for what `gpuscope report` and `gpuscope whatif` do with a trace once it is read:
 * the trace's context (names, steps, windows), every per-rank analysis (src/analysis/trace/, the
 * diagnosis's inputs, the replay and its runs: src/analysis/pipeline/summarise.c), the report
 * merged from that rank and rendered as text, JSON and HTML, and the replay of every action alone
 * and together rendered with its explanation. The readers are fuzz_kineto's; here they only let
 * through what an analysis gets. Seeds: tests/fuzz/corpus/kineto/ (small traces with steps,
 * kernels, copies, memory records, collectives and two ranks). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/base/trace_ctx.h"
#include "analysis/pipeline/report.h"
#include "analysis/pipeline/summarise.h"
#include "analysis/pipeline/whatif.h"
#include "ingest/load.h"
#include "render/html.h"
#include "render/report.h"
#include "render/whatif.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The rank summarised as `report` summarises it, merged and rendered. */
static void report(FILE *sink, const gs_trace_ctx *c)
{
    gs_error err;
    gs_rank_summary *s = malloc(sizeof *s);
    const gs_summarise_opts so = {.stages = GS_STAGE_ALL};
    if (!s || gs_rank_summarise(c, &so, s, &err) != 0) {
        free(s);
        return;
    }
    gs_report r;
    const gs_report_opts ro = {.stages = GS_STAGE_ALL, .align = true}; /* as `gpuscope report` */
    if (gs_report_build(s, 1, &ro, &r, &err) != 0) /* s is the report's now */
        return;
    gs_render_report(sink, &r, GS_FORMAT_TABLE, NULL, 0, true);
    gs_render_report(sink, &r, GS_FORMAT_JSON, NULL, 0, false);
    gs_render_html(sink, &r, 0);
    gs_report_free(&r);
}

/* Every action replayed alone and all of them together, as `whatif --action` with all of them. */
static void whatif(FILE *sink, const gs_trace_ctx *c)
{
    gs_error err;
    gs_whatif w = {.actions = GS_REPLAY_ALL};
    if (gs_whatif_add(&w, c, &err) != 0)
        return; /* w is freed */
    gs_whatif_finish(&w);
    gs_render_whatif(sink, &w, true, GS_FORMAT_TABLE, NULL);
    gs_render_whatif(sink, &w, false, GS_FORMAT_JSON, NULL);
    gs_whatif_free(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gs_trace *t;
    gs_error err;
    if (gs_load_trace_buffer((const char *)data, size, "fuzz_report.json", NULL, &t, &err) != 0)
        return 0;
    gs_trace_ctx c;
    const gs_ctx_opts co = {0}; /* the steps and window `report` finds without options */
    FILE *sink = fopen("/dev/null", "w");
    if (sink && gs_trace_ctx_build(t, &co, &c, &err) == 0) {
        report(sink, &c);
        whatif(sink, &c);
        gs_trace_ctx_free(&c);
    }
    if (sink)
        fclose(sink);
    gs_trace_delete(t);
    return 0;
}
