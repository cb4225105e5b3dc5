/* The plain JSON writer every output shares: strings made safe and numbers that stay JSON. */
#include "common/json_write.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "common/utf8.h"

/* Short escapes JSON defines; other control characters are written as \u00XX. */
static const char *const short_escapes[128] = {
    ['"'] = "\\\"", ['\\'] = "\\\\", ['\b'] = "\\b", ['\f'] = "\\f",
    ['\n'] = "\\n", ['\r'] = "\\r",  ['\t'] = "\\t",
};

void gs_json_string(FILE *out, const char *s)
{
    if (!s) {
        fputs("null", out);
        return;
    }
    size_t len = strlen(s);
    putc('"', out);
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)s[i];
        uint32_t cp;
        size_t n = gs_utf8_decode(s + i, len - i, &cp);
        if (n == 0)
            fputs("\\ufffd", out);
        else if (c < 0x80 && short_escapes[c])
            fputs(short_escapes[c], out);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fwrite(s + i, 1, n, out);
        i += n ? n : 1;
    }
    putc('"', out);
}

void gs_json_number(FILE *out, double v, int decimals)
{
    if (isfinite(v))
        fprintf(out, "%.*f", decimals, v);
    else
        fputs("null", out);
}
