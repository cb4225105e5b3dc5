/* Fuzz target for what `gpuscope report` and `gpuscope whatif` do with a trace once it is read:
 * the trace's context (names, steps, windows), every per-rank analysis (src/analysis/trace/, the
 * diagnosis's inputs, the replay and its runs: src/analysis/pipeline/summarise.c), the report
 * merged from the ranks and rendered as text, JSON and HTML, and the replay of every action alone
 * and together rendered with its explanation. An input naming gpuscopeRanks (a chrome export of
 * several ranks) is read as its first three ranks, as `report` reads such a file, so that the
 * report merges several ranks (clock alignment, collectives matched across ranks, stragglers).
 * The readers are fuzz_kineto's; here they only let through what an analysis gets. Seeds:
 * tests/fuzz/corpus/kineto/ (small traces with steps, kernels, copies, memory records,
 * collectives, and an export of two ranks) and tests/fuzz/corpus/gst/ (gpuscope run's files, read
 * by the content's magic whatever the name). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/base/trace_ctx.h"
#include "analysis/pipeline/report.h"
#include "analysis/pipeline/summarise.h"
#include "analysis/pipeline/whatif.h"
#include "ingest/load.h"
#include "render/html.h"
#include "render/report.h"
#include "render/whatif.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_PARTS = 3 };

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

/* Part `part` of the input summarised into *out as `report` summarises a rank, and replayed on the
 * way; false when the readers refuse it or an analysis fails. */
static bool summarise_part(const uint8_t *data, size_t size, uint32_t part, FILE *sink,
                           gs_rank_summary *out)
{
    gs_trace *t;
    gs_error err;
    const gs_load_opts lo = {.part = part};
    if (gs_load_trace_buffer((const char *)data, size, "fuzz_report.json", &lo, &t, &err) != 0)
        return false;
    gs_trace_ctx c;
    const gs_ctx_opts co = {0}; /* the steps and window `report` finds without options */
    const gs_summarise_opts so = {.stages = GS_STAGE_ALL};
    bool done = false;
    if (gs_trace_ctx_build(t, &co, &c, &err) == 0) {
        done = gs_rank_summarise(&c, &so, out, &err) == 0;
        whatif(sink, &c);
        gs_trace_ctx_free(&c);
    }
    gs_trace_delete(t);
    return done;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *sink = fopen("/dev/null", "w");
    gs_rank_summary *ranks = calloc(MAX_PARTS, sizeof *ranks);
    if (!sink || !ranks) {
        if (sink)
            fclose(sink);
        free(ranks);
        return 0;
    }
    /* Part 0 is the whole file; parts 1, 2, ... are the ranks of a file that holds several. */
    static const char key[] = "gpuscopeRanks";
    bool several = memmem(data, size, key, sizeof key - 1) != NULL;
    size_t n = 0;
    for (uint32_t part = several; part <= (several ? MAX_PARTS : 0); part++)
        n += summarise_part(data, size, part, sink, &ranks[n]);
    gs_report r;
    gs_error err;
    const gs_report_opts ro = {.stages = GS_STAGE_ALL, .align = true}; /* as `gpuscope report` */
    if (n && gs_report_build(ranks, n, &ro, &r, &err) == 0) { /* the summaries are the report's */
        gs_render_report(sink, &r, GS_FORMAT_TABLE, NULL, 0, true);
        gs_render_report(sink, &r, GS_FORMAT_JSON, NULL, 0, false);
        gs_render_html(sink, &r, 0);
        gs_report_free(&r);
    } else if (!n) {
        free(ranks);
    }
    fclose(sink);
    return 0;
}
