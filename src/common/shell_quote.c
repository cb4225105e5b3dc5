#include "common/shell_quote.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "common/term_text.h"
#include "common/utf8.h"

static const char bare_chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                 "0123456789_@%+=:,./-";

void gs_shell_word_write(FILE *out, const char *arg)
{
    size_t len = strlen(arg);
    if (len && strspn(arg, bare_chars) == len) {
        fputs(arg, out);
        return;
    }
    bool quoted = false; /* inside a single-quoted part */
    if (!len)
        fputs("''", out);
    for (size_t i = 0; i < len;) {
        size_t ctl = arg[i] == '\n' ? 0 : gs_term_control_len(arg + i, len - i);
        if (ctl && quoted)
            putc('\'', out);
        for (size_t k = 0; k < ctl; k++)
            fprintf(out, "\"$(printf '\\%03o')\"", (unsigned char)arg[i + k]);
        if (ctl) {
            quoted = false;
            i += ctl;
            continue;
        }
        if (!quoted)
            putc('\'', out);
        quoted = true;
        uint32_t cp;
        size_t n = arg[i] == '\n' ? 1 : gs_utf8_decode(arg + i, len - i, &cp);
        if (arg[i] == '\'')
            fputs("'\\''", out);
        else
            fwrite(arg + i, 1, n, out);
        i += n;
    }
    if (quoted)
        putc('\'', out);
}
