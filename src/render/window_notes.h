/* What part of each trace a view looked at (analysis/base/window.h), said with its results: a line
 * above the table, and a "window" member in JSON. */
#ifndef GS_RENDER_WINDOW_NOTES_H
#define GS_RENDER_WINDOW_NOTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/base/trace_ctx.h"
#include "analysis/base/window.h"
#include "common/error.h"
#include "model/trace.h"
#include "render/render.h"

typedef struct gs_window_note {
    int32_t rank;
    gs_window window; /* what describes it: its spans are not kept */
} gs_window_note;

typedef struct gs_window_notes {
    gs_window_note *v; /* one per trace, by rank */
    size_t n;
    bool restricts;    /* some window leaves something out */
} gs_window_notes;

/* Notes the window of c (traces one at a time; zeroed notes to begin with), and puts the notes
 * in rank order. 0, or -1 out of memory. */
int gs_window_notes_add(gs_window_notes *n, const gs_trace_ctx *c);
void gs_window_notes_finish(gs_window_notes *n);
void gs_window_notes_free(gs_window_notes *n);

/* "Over steps 1-7 of 8 (ProfilerStep#N); ..." and a newline: one line when every trace has the
 * same window, else one per trace ("rank 1: over ..."); nothing when no window restricts. */
void gs_window_notes_text(FILE *out, const gs_window_notes *n, const gs_text_style *style);

/* The member "window": [{...}, ...], one object per trace (doc/output-json.md), to follow the
 * "command" member; nothing when no window restricts. */
void gs_window_notes_json(gs_json_writer *w, const gs_window_notes *n);

#endif
