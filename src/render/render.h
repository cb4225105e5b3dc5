/* Writing a result table in one of the three output formats every view offers. */
#ifndef GS_RENDER_RENDER_H
#define GS_RENDER_RENDER_H

#include <stdbool.h>
#include <stdio.h>

#include "common/json_write.h"
#include "render/table.h"

enum gs_format { GS_FORMAT_TABLE, GS_FORMAT_CSV, GS_FORMAT_JSON };

/* Line width the table format keeps its lines within when the caller has no terminal width: text
 * columns are cut and free text wrapped to it (doc/report.md, "Width"). */
#define GS_TEXT_DEFAULT_WIDTH 120

typedef struct gs_text_style {
    bool tty;     /* the output is a terminal: bold header */
    size_t width; /* columns available; 0 means GS_TEXT_DEFAULT_WIDTH */
} gs_text_style;

/* Aligned columns for people: numbers right-aligned in the unit that fits, long text cut with
 * "…" so the line fits the width, control characters and invalid UTF-8 shown as U+FFFD.
 * Returns -1 when memory is exhausted. */
int gs_render_text(FILE *out, const gs_table *t, const gs_text_style *style);

/* Free text of the table format that holds names from the trace (the verdict's evidence): s with
 * control characters and invalid UTF-8 shown as U+FFFD, as in a table cell, so that a name
 * cannot drive the terminal. */
void gs_text_put_clean(FILE *out, const char *s);

/* The columns a style's lines keep within. */
size_t gs_text_width(const gs_text_style *style);

/* s cleaned as gs_text_put_clean, continuing a line on which `at` columns are used, wrapped at
 * spaces so that lines stay within `width` columns, each new line indented by `hang` spaces.
 * A word longer than a line is kept whole; s that fits is written as it is. No final newline. */
void gs_text_put_wrapped(FILE *out, const char *s, size_t at, size_t hang, size_t width);

/* RFC 4180 CSV: a header naming each column with its unit, integers in ns and bytes, and names
 * that a spreadsheet would run as formulas behind a '. */
void gs_render_csv(FILE *out, const gs_table *t);
/* The rows alone, under a header written before (monitor --format csv: one table per sample). */
void gs_render_csv_rows(FILE *out, const gs_table *t);

/* {"command":"<command>","rows":[{...}, ...]} with one row object per line. */
void gs_render_json(FILE *out, const gs_table *t, const char *command);

/* Dispatches on the format; returns -1 when memory is exhausted. */
int gs_render(FILE *out, const gs_table *t, enum gs_format format, const gs_text_style *style,
              const char *command);

/* A heading for the table format, bold on a terminal; "(first SHOWN of TOTAL)" when --limit cut
 * the table. */
void gs_put_title(FILE *out, const gs_text_style *style, const char *title, size_t shown,
                  size_t total);

/* One table of a view made of several: its JSON member and CSV block name, its heading. */
typedef struct gs_section {
    const char *key;
    const char *title;
    gs_table *table;
    bool unlimited; /* --limit does not cut it (it holds its own selection) */
    size_t total;   /* the count its heading gives; 0: its rows before --limit */
} gs_section;

/* Writes the sections of a multi-table view, --limit applied to each: in JSON as members of the
 * object `json` the caller opened (and closes), each an array of rows; as CSV blocks ("# key");
 * or as titled text tables separated by a blank line (also before the first when `blank_first`:
 * something precedes it). JSON goes to `json` (NULL will do in the other formats), the rest to
 * `out`. Returns -1 when memory is exhausted. */
int gs_render_sections(FILE *out, gs_json_writer *json, gs_section *s, size_t n,
                       enum gs_format format, const gs_text_style *style, size_t limit,
                       bool blank_first);

#endif
