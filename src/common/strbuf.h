/* A growable string: text built in parts (printf-style or plain), as long as it needs to be, then
 * handed to whoever keeps it. Out of memory is a value, not an abort: an append that cannot grow
 * the buffer marks it failed, every later append is then ignored, and the caller checks once at
 * the end (gs_strbuf_steal returns NULL, gs_strbuf_failed says so) and reports gs_fail_oom. */
#ifndef GS_COMMON_STRBUF_H
#define GS_COMMON_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct gs_strbuf {
    char *data; /* NUL-terminated once anything was appended; NULL before */
    size_t len, cap;
    bool failed; /* an append could not be made: sticky until steal or free */
} gs_strbuf;

void gs_strbuf_init(gs_strbuf *b);

void gs_strbuf_append(gs_strbuf *b, const char *s);
void gs_strbuf_appendf(gs_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void gs_strbuf_vappendf(gs_strbuf *b, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

/* The text so far, "" when empty; after a failure, what it held before the append that failed. */
const char *gs_strbuf_str(const gs_strbuf *b);

static inline bool gs_strbuf_failed(const gs_strbuf *b)
{
    return b->failed;
}

/* The text, now the caller's to free(), "" when nothing was appended; NULL when an append failed
 * (or the empty string could not be allocated). The buffer is left empty, as after init. */
char *gs_strbuf_steal(gs_strbuf *b);

/* Releases the text and leaves the buffer empty, as after init. */
void gs_strbuf_free(gs_strbuf *b);

#endif
