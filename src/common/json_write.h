/* The one JSON writer, below every folder that writes JSON (the views, the report, the exports,
 * the monitor's output and log, the .gsum summaries). It writes the commas, the brackets, the
 * line breaks and the indents; a caller only says what it writes and how each container is laid
 * out, so no output types JSON syntax by hand (tests/lint/check_json_by_hand.py keeps it so).
 *
 *     gs_json_writer w;
 *     gs_json_writer_init(&w, out);
 *     gs_json_begin_object(&w, NULL, GS_JSON_BLOCK);
 *     gs_json_put_str(&w, "command", "kernels");
 *     gs_json_begin_array(&w, "rows", GS_JSON_BLOCK);
 *     gs_json_begin_object(&w, NULL, GS_JSON_INLINE);
 *     gs_json_put_int(&w, "total_ns", 12);
 *     gs_json_put_str(&w, "name", "k");
 *     gs_json_end(&w); gs_json_end(&w); gs_json_end(&w);
 *
 * writes
 *
 *     {
 *       "command": "kernels",
 *       "rows": [
 *         {"total_ns": 12, "name": "k"}
 *       ]
 *     }
 *
 * Every value takes the key it is written under: a key inside an object, NULL inside an array
 * and at the top. Closing the outermost container ends the line, so a document (or a JSON Lines
 * record) ends with '\n'. Nothing is allocated: a writer is a FILE* and a fixed stack of
 * GS_JSON_MAX_DEPTH open containers. */
#ifndef GS_COMMON_JSON_WRITE_H
#define GS_COMMON_JSON_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* How a container lays out its members. The usual three are below; an output whose established
 * format is laid out otherwise (the Chrome trace's event list, the .gsum file) names its own. */
typedef struct gs_json_layout {
    bool lines;        /* members on lines of their own; false: all on the line it opens on */
    uint8_t head;      /* with lines: the first `head` members stay on the opening line */
    int8_t indent;     /* with lines: their indent past the indent of the line it opens on */
    bool hang;         /* with lines: the closing bracket follows the last member */
    bool open_empty;   /* with lines: an empty container still closes on a line of its own */
    bool margin_close; /* with lines: the closing bracket starts its line (the report's verdict) */
    bool compact;      /* no space after ',' and ':' */
} gs_json_layout;

/* {"a": 1, "b": 2} */
#define GS_JSON_INLINE ((gs_json_layout){.lines = false})
/* {"a":1,"b":2}: Chrome trace events, JSON Lines records */
#define GS_JSON_COMPACT ((gs_json_layout){.compact = true})
/* {
 *   "a": 1,
 *   "b": 2
 * }   and {} or [] when empty */
#define GS_JSON_BLOCK ((gs_json_layout){.lines = true, .indent = 2})

/* Deeper than the writer nests: a container opened past it is written as null and whatever is
 * written into it until its gs_json_end is dropped, so the document stays valid JSON, and
 * `too_deep` is set. Every output of gpuscope nests at most 7 deep (the report's rules). */
#define GS_JSON_MAX_DEPTH 16

typedef struct gs_json_level {
    gs_json_layout layout;
    bool array;
    size_t members;
    int line;        /* indent of the line the container opens on */
    int member_line; /* indent of the line its latest member starts on */
} gs_json_level;

typedef struct gs_json_writer {
    FILE *out;
    size_t depth;
    size_t dropped; /* containers open past GS_JSON_MAX_DEPTH */
    bool too_deep;
    gs_json_level level[GS_JSON_MAX_DEPTH];
} gs_json_writer;

void gs_json_writer_init(gs_json_writer *w, FILE *out);

void gs_json_begin_object(gs_json_writer *w, const char *key, gs_json_layout layout);
void gs_json_begin_array(gs_json_writer *w, const char *key, gs_json_layout layout);
/* Closes the innermost open container. */
void gs_json_end(gs_json_writer *w);

/* A string with every byte made safe: quotes, backslashes and control characters escaped, bytes
 * that are not valid UTF-8 written as \ufffd. NULL is written as null. */
void gs_json_put_str(gs_json_writer *w, const char *key, const char *s);
void gs_json_put_int(gs_json_writer *w, const char *key, int64_t v);
void gs_json_put_uint(gs_json_writer *w, const char *key, uint64_t v);
/* `decimals` digits after the point ("%.*f"); null when not finite. */
void gs_json_put_fixed(gs_json_writer *w, const char *key, double v, int decimals);
/* `digits` significant digits ("%.*g"); null when not finite. */
void gs_json_put_real(gs_json_writer *w, const char *key, double v, int digits);
/* The same, or null when the caller says v is not known (a measure whose -1 means unknown). */
void gs_json_put_known_real(gs_json_writer *w, const char *key, double v, int digits, bool known);
void gs_json_put_bool(gs_json_writer *w, const char *key, bool v);
void gs_json_put_null(gs_json_writer *w, const char *key);
/* A value the caller formatted, written as is: it must be one valid JSON value (a number with
 * an exact format of its own, a JSON fragment a trace carried). */
void gs_json_put_raw(gs_json_writer *w, const char *key, const char *json);
void gs_json_put_rawf(gs_json_writer *w, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
