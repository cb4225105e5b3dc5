/* Libraries loaded when a feature runs (src/common/dynlib.h): the table is filled from the
 * library, and a missing library or symbol gives the message the user sees. */
#include <stddef.h>

#include "check.h"
#include "common/dynlib.h"

typedef struct libc_api {
    size_t (*strlen)(const char *);
    int (*abs)(int);
} libc_api;

static const gs_dynsym LIBC_SYMS[] = {
    {"strlen", offsetof(libc_api, strlen)},
    {"abs", offsetof(libc_api, abs)},
};

static void check_loads_table(void)
{
    gs_dynlib lib = {"libc.so.6", "the test", "glibc", LIBC_SYMS, 2};
    libc_api api = {0};
    gs_error err = {0};
    CHECK_INT(gs_dynlib_load(&lib, &api, &err), 0);
    CHECK(api.strlen && api.abs);
    if (api.strlen && api.abs) {
        CHECK_INT(api.strlen("gpuscope"), 8);
        CHECK_INT(api.abs(-7), 7);
    }
}

static void check_missing_library(void)
{
    gs_dynlib lib = {"libgpuscope-absent.so.9", "export --format nothing", "nothing-libs",
                     LIBC_SYMS, 2};
    libc_api api = {0};
    gs_error err = {0};
    CHECK_INT(gs_dynlib_load(&lib, &api, &err), -1);
    CHECK_INT(err.code, GS_EXIT_ENV);
    const char *want = "export --format nothing needs libgpuscope-absent.so.9, which cannot be "
                       "loaded (libgpuscope-absent.so.9: cannot open shared object file";
    CHECK(strncmp(err.msg, want, strlen(want)) == 0);
    CHECK(strstr(err.msg, "): install nothing-libs") != NULL);
    CHECK(api.strlen == NULL);
}

static void check_missing_symbol(void)
{
    static const gs_dynsym syms[] = {
        {"strlen", offsetof(libc_api, strlen)},
        {"gpuscope_no_such_function", offsetof(libc_api, abs)},
    };
    gs_dynlib lib = {"libc.so.6", "monitor --serve", "glibc", syms, 2};
    libc_api api = {0};
    gs_error err = {0};
    CHECK_INT(gs_dynlib_load(&lib, &api, &err), -1);
    CHECK_INT(err.code, GS_EXIT_ENV);
    CHECK_STR(err.msg, "monitor --serve needs gpuscope_no_such_function from libc.so.6, which "
                       "this libc.so.6 lacks (too old): install a newer glibc");
}

int main(void)
{
    check_loads_table();
    check_missing_library();
    check_missing_symbol();
    return check_done("test_dynlib");
}
