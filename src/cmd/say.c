#include "cmd/say.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/term_text.h"

/* A message longer than this is cut, and ends in "..." (a gs_error's message is 512 bytes). */
enum { SAY_MAX_BYTES = 2048 };

void gs_vsay(const char *fmt, va_list ap)
{
    char msg[SAY_MAX_BYTES], safe[SAY_MAX_BYTES];
    int n = vsnprintf(msg, sizeof msg, fmt, ap);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof msg)
        memcpy(msg + sizeof msg - 4, "...", 4);
    fprintf(stderr, "gpuscope: %s\n", gs_term_escape(safe, sizeof safe, msg));
}

void gs_say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gs_vsay(fmt, ap);
    va_end(ap);
}
