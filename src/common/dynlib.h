/* Libraries a feature loads when it is used, not when gpuscope starts: SQLite for
 * `export --format sqlite` and libmicrohttpd for `monitor --serve` (NVML and CUPTI are loaded the
 * same way by their own code). The binary then starts, and every other command works, on a
 * machine that lacks them, and the wheel need not carry them (doc/python.md). */
#ifndef GS_COMMON_DYNLIB_H
#define GS_COMMON_DYNLIB_H

#include <stddef.h>

#include "common/error.h"

/* One function the caller's table needs: its symbol and where its pointer goes in the table. */
typedef struct gs_dynsym {
    const char *symbol;
    size_t offset;
} gs_dynsym;

/* What to load, and what to tell the user when it cannot be loaded. */
typedef struct gs_dynlib {
    const char *soname;  /* "libsqlite3.so.0" */
    const char *feature; /* "export --format sqlite" */
    const char *package; /* the packages that install it, for the message */
    const gs_dynsym *syms;
    size_t nsyms;
} gs_dynlib;

/* Opens lib->soname (the handle stays open for the life of the process) and fills the function
 * pointers of `table` from lib->syms. GS_EXIT_ENV with a message naming the feature, the library
 * and the packages when the library or one of the symbols is missing. */
int gs_dynlib_load(const gs_dynlib *lib, void *table, gs_error *err);

#endif
