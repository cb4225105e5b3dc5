#include "render/window_notes.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_write.h"
#include "common/util.h"

int gs_window_notes_add(gs_window_notes *n, const gs_trace_ctx *c)
{
    gs_window_note *grown = realloc(n->v, (n->n + 1) * sizeof *grown);
    if (!grown)
        return -1;
    n->v = grown;
    gs_window_note *note = &n->v[n->n++];
    note->rank = c->trace->id.rank;
    note->window = c->window;
    note->window.spans = (gs_spans){0};
    n->restricts |= gs_window_restricts(&note->window);
    return 0;
}

void gs_window_notes_finish(gs_window_notes *n)
{
    gs_stable_sort_by_i32(n->v, n->n, sizeof *n->v, offsetof(gs_window_note, rank));
}

void gs_window_notes_free(gs_window_notes *n)
{
    free(n->v);
    memset(n, 0, sizeof *n);
}

static void put_sentence(FILE *out, const char *prefix, const char *text)
{
    fputs(prefix, out);
    if (!*prefix && text[0] >= 'a' && text[0] <= 'z') {
        fputc(text[0] - 'a' + 'A', out);
        text++;
    }
    fputs(text, out);
    fputc('\n', out);
}

void gs_window_notes_text(FILE *out, const gs_window_notes *n, const gs_text_style *style)
{
    (void)style;
    if (!n->restricts)
        return;
    char first[512], buf[512];
    gs_window_describe(&n->v[0].window, first, sizeof first);
    bool same = true;
    for (size_t i = 1; i < n->n && same; i++)
        same = !strcmp(gs_window_describe(&n->v[i].window, buf, sizeof buf), first);
    if (same) {
        put_sentence(out, "", first);
        return;
    }
    for (size_t i = 0; i < n->n; i++) {
        char prefix[48];
        snprintf(prefix, sizeof prefix, "rank %" PRId32 ": ", n->v[i].rank);
        gs_window_describe(&n->v[i].window, buf, sizeof buf);
        put_sentence(out, prefix, *buf ? buf : "the whole trace");
    }
}

static const char *kind_key(enum gs_window_kind k)
{
    static const char *const keys[] = {
        [GS_WINDOW_WHOLE] = "whole", [GS_WINDOW_STEPS] = "steps", [GS_WINDOW_TIME] = "time",
        [GS_WINDOW_RANGE] = "range"};
    return keys[k];
}

static void put_window(gs_json_writer *w, int32_t rank, const gs_window *win)
{
    char note[512];
    gs_json_begin_object(w, NULL, GS_JSON_INLINE);
    gs_json_put_int(w, "rank", rank);
    gs_json_put_str(w, "kind", kind_key(win->kind));
    gs_json_put_int(w, "from_ns", win->from - win->origin);
    gs_json_put_int(w, "to_ns", win->to - win->origin);
    if (win->kind == GS_WINDOW_STEPS) {
        gs_json_put_uint(w, "steps", win->nsteps);
        gs_json_put_uint(w, "steps_kept", win->nkept);
        gs_json_put_int(w, "first_step", win->first_step);
        gs_json_put_int(w, "last_step", win->last_step);
        gs_json_put_uint(w, "warmup_steps_left_out", win->nwarmup_out);
    }
    if (win->kind == GS_WINDOW_RANGE) {
        gs_json_put_str(w, "range", win->range);
        gs_json_put_uint(w, "ranges", win->nranges);
    }
    gs_json_put_str(w, "note", gs_window_describe(win, note, sizeof note));
    gs_json_end(w);
}

void gs_window_notes_json(gs_json_writer *w, const gs_window_notes *n)
{
    if (!n->restricts)
        return;
    gs_json_begin_array(w, "window", GS_JSON_BLOCK);
    for (size_t i = 0; i < n->n; i++)
        put_window(w, n->v[i].rank, &n->v[i].window);
    gs_json_end(w);
}
