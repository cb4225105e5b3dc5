/* Errors carried as values: the core never prints or exits; it fills a gs_error and returns -1.
 * Only src/cmd/ turns an error into a message and an exit code. */
#ifndef GS_COMMON_ERROR_H
#define GS_COMMON_ERROR_H

#include <stdarg.h>

/* Exit classes, stable and documented (doc/design.md §4, README's Commands). */
enum gs_exit {
    GS_EXIT_OK = 0,
    GS_EXIT_FINDING = 1, /* a gate tripped (diff --fail-if-slower) */
    GS_EXIT_USAGE = 2,
    GS_EXIT_INPUT = 3,   /* bad, truncated or missing input */
    GS_EXIT_ENV = 4,     /* missing GPU, driver, library */
};

typedef struct gs_error {
    enum gs_exit code;
    char msg[512];
} gs_error;

/* Sets err (if not NULL) and returns -1, so callers can `return gs_fail(err, ...)`. A message
 * longer than msg ends in "...". */
int gs_fail(gs_error *err, enum gs_exit code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int gs_vfail(gs_error *err, enum gs_exit code, const char *fmt, va_list ap);

/* Out of memory is reported like any other input error: the trace was too big for this machine. */
int gs_fail_oom(gs_error *err);

#endif
