/* Fuzz target for gpuscope diff (src/compare/): the input is two traces, BASE and NEW, split at
 * the first line "--gpuscope-diff-new--" (without one, the input is compared with itself); both
 * are loaded as the readers load any trace, compared as `gpuscope diff BASE NEW` compares them,
 * with and without a gate, and rendered as text, CSV and JSON. Seeds: tests/fuzz/corpus/diff/,
 * pairs of small traces written by tests/fuzz/make_diff_seeds.py. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "compare/diff.h"
#include "ingest/load.h"
#include "render/diff_tables.h"
#include "render/diff_view.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char separator[] = "\n--gpuscope-diff-new--\n";

/* One side: a profile of the one trace in [data, data + size), or -1 when the readers refuse it. */
static int load_side(const char *data, size_t size, const char *name, gs_profile *out)
{
    gs_error err;
    gs_trace *t;
    memset(out, 0, sizeof *out);
    if (gs_load_trace_buffer(data, size, name, NULL, &t, &err) != 0)
        return -1;
    gs_trace **slot = GS_VEC_PUSH(&out->traces);
    if (!slot) {
        gs_trace_delete(t);
        return -1;
    }
    *slot = t;
    return 0;
}

static void render(FILE *sink, const gs_diff *d)
{
    gs_diff_tables tables;
    if (gs_diff_tables_make(d, &tables) != 0)
        return;
    static const enum gs_format formats[] = {GS_FORMAT_TABLE, GS_FORMAT_CSV, GS_FORMAT_JSON};
    const gs_text_style style = {0};
    for (size_t f = 0; f < sizeof formats / sizeof *formats; f++) {
        /* With a gate of 5 % on the text, as a CI job runs it; without on the others. */
        gs_diff_view view = {.path = {"base.json", "new.json"}, .diff = d, .tables = &tables,
                             .gate_pct = f == 0 ? 5 : -1};
        gs_render_diff(sink, &view, formats[f], &style, f == 0 ? 10 : 0);
        if (!gs_diff_gate_refused(&view))
            gs_diff_gate(d, 5.0);
    }
    gs_diff_tables_free(&tables);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *base = (const char *)data, *next = base;
    size_t nbase = size, nnext = size;
    const char *cut = memmem(base, size, separator, sizeof separator - 1);
    if (cut) {
        nbase = (size_t)(cut - base);
        next = cut + sizeof separator - 1;
        nnext = size - nbase - (sizeof separator - 1);
    }
    gs_profile prof[GS_SIDES];
    if (load_side(base, nbase, "base.json", &prof[0]) != 0)
        return 0;
    if (load_side(next, nnext, "new.json", &prof[1]) != 0) {
        gs_profile_free(&prof[0]);
        return 0;
    }
    FILE *sink = fopen("/dev/null", "w");
    const gs_diff_opts opts = {0};
    gs_diff d;
    gs_error err;
    if (sink && gs_diff_build(&prof[0], &prof[1], &opts, &d, &err) == 0) {
        render(sink, &d);
        gs_diff_free(&d);
    }
    if (sink)
        fclose(sink);
    gs_profile_free(&prof[0]);
    gs_profile_free(&prof[1]);
    return 0;
}
