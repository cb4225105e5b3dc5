#include "common/strbuf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

void gs_strbuf_init(gs_strbuf *b)
{
    memset(b, 0, sizeof *b);
}

/* Room for `extra` more bytes and the NUL; false (and the buffer failed) when there is none. */
static bool reserve(gs_strbuf *b, size_t extra)
{
    if (b->failed)
        return false;
    bool fresh = b->data == NULL;
    if (extra >= SIZE_MAX - b->len ||
        gs_grow((void **)&b->data, &b->cap, b->len + extra + 1, 1) != 0) {
        b->failed = true;
        return false;
    }
    if (fresh)
        b->data[0] = '\0';
    return true;
}

void gs_strbuf_append(gs_strbuf *b, const char *s)
{
    size_t n = strlen(s);
    if (!reserve(b, n))
        return;
    memcpy(b->data + b->len, s, n + 1);
    b->len += n;
}

void gs_strbuf_vappendf(gs_strbuf *b, const char *fmt, va_list ap)
{
    if (b->failed)
        return;
    /* Format into the room there is; when the text is longer, grow to its length and again. */
    va_list again;
    va_copy(again, ap);
    size_t room = b->data ? b->cap - b->len : 0;
    int n = vsnprintf(b->data ? b->data + b->len : NULL, room, fmt, ap);
    if (n < 0) { /* a text printf cannot produce: longer than INT_MAX, or not encodable */
        if (b->data)
            b->data[b->len] = '\0';
        b->failed = true;
    } else if ((size_t)n < room) {
        b->len += (size_t)n;
    } else if (reserve(b, (size_t)n)) {
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, again);
        b->len += (size_t)n;
    } else if (b->data) {
        b->data[b->len] = '\0'; /* the cut attempt is not kept */
    }
    va_end(again);
}

void gs_strbuf_appendf(gs_strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gs_strbuf_vappendf(b, fmt, ap);
    va_end(ap);
}

const char *gs_strbuf_str(const gs_strbuf *b)
{
    return b->data ? b->data : "";
}

char *gs_strbuf_steal(gs_strbuf *b)
{
    reserve(b, 0); /* "" when nothing was appended: the caller always owns a string */
    char *text = b->failed ? NULL : b->data;
    if (b->failed)
        free(b->data);
    gs_strbuf_init(b);
    return text;
}

void gs_strbuf_free(gs_strbuf *b)
{
    free(b->data);
    gs_strbuf_init(b);
}
