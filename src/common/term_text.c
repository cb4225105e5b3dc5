#include "common/term_text.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/utf8.h"

size_t gs_term_control_len(const char *s, size_t len)
{
    uint32_t cp;
    size_t n = gs_utf8_decode(s, len, &cp);
    if (n == 0)
        return 1;
    return cp < 0x20 || (cp >= 0x7f && cp < 0xa0) ? n : 0;
}

/* Writes the escaped form of s into out while it fits in `room` bytes; the bytes it took, and in
 * *whole whether all of s fit. With out NULL, only measures. */
static size_t escape_into(char *out, size_t room, const char *s, bool *whole)
{
    size_t len = strlen(s), o = 0;
    for (size_t i = 0; i < len;) {
        size_t ctl = gs_term_control_len(s + i, len - i);
        uint32_t cp;
        size_t n = ctl ? ctl : gs_utf8_decode(s + i, len - i, &cp);
        if (o + (ctl ? 4 * n : n) > room) {
            *whole = false;
            return o;
        }
        for (size_t k = 0; k < n; k++, i++) {
            if (!ctl && out)
                out[o] = s[i];
            else if (out)
                snprintf(out + o, 5, "\\x%02x", (unsigned char)s[i]);
            o += ctl ? 4 : 1;
        }
    }
    *whole = true;
    return o;
}

char *gs_term_escape(char *out, size_t cap, const char *s)
{
    static const char cut[] = "...";
    bool whole;
    escape_into(NULL, cap - 1, s, &whole);
    size_t o = escape_into(out, whole ? cap - 1 : cap - sizeof cut, s, &whole);
    strcpy(out + o, whole ? "" : cut);
    return out;
}
