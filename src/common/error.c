#include "common/error.h"

#include <stdio.h>
#include <string.h>

int gs_vfail(gs_error *err, enum gs_exit code, const char *fmt, va_list ap)
{
    if (err) {
        err->code = code;
        int n = vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        /* A message longer than msg is cut, and says so (as the debug log's lines do). */
        if (n >= (int)sizeof err->msg)
            memcpy(err->msg + sizeof err->msg - 4, "...", 4);
    }
    return -1;
}

int gs_fail(gs_error *err, enum gs_exit code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gs_vfail(err, code, fmt, ap);
    va_end(ap);
    return -1;
}

int gs_fail_oom(gs_error *err)
{
    return gs_fail(err, GS_EXIT_INPUT, "out of memory");
}
