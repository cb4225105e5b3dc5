#include "common/demangle.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dynlib.h"
#include "common/log.h"

typedef struct cxxabi {
    /* abi::__cxa_demangle(mangled, buffer, length, status): a malloc'ed string, status 0. */
    char *(*cxa_demangle)(const char *mangled, char *buf, size_t *n, int *status);
} cxxabi;

static const gs_dynsym cxxabi_syms[] = {{"__cxa_demangle", offsetof(cxxabi, cxa_demangle)}};
static const gs_dynlib cxxabi_lib = {"libstdc++.so.6", "demangling kernel names", "libstdc++6",
                                     cxxabi_syms, 1};

/* __cxa_demangle's status when it could not allocate (the Itanium C++ ABI, 3.4 Demangler API). */
#define CXA_NO_MEMORY (-1)

/* What loading libstdc++ came to, once per process. */
static enum { ABI_LOADED, ABI_MISSING, ABI_BROKEN } abi_state;
static cxxabi abi;
static gs_error abi_err; /* why, when ABI_BROKEN */
static pthread_once_t abi_once = PTHREAD_ONCE_INIT;

/* A library that is not there is a machine without libstdc++, where names stay mangled as
 * doc/design.md §7 says; one that is there and fails to load (the loader could not map it: the
 * address space ulimit -v allows is spent) would turn every name mangled without a word. The
 * loader says which by its message: "No such file or directory" (strerror(ENOENT)) for the
 * first, with glibc and musl alike. */
static void load_abi(void)
{
    if (gs_dynlib_load(&cxxabi_lib, &abi, &abi_err) == 0) {
        abi_state = ABI_LOADED;
    } else if (strstr(abi_err.msg, strerror(ENOENT))) {
        abi_state = ABI_MISSING;
        GS_LOG(GS_LOG_INFO, "%s: kernel names stay mangled", abi_err.msg);
    } else {
        /* dynlib's advice to install the package does not fit a library that is there. */
        char said[sizeof abi_err.msg];
        snprintf(said, sizeof said, "%s", abi_err.msg);
        char *advice = strstr(said, ": install ");
        if (advice)
            *advice = '\0';
        abi_state = ABI_BROKEN;
        gs_fail(&abi_err, GS_EXIT_INPUT, "%s, though it is installed: out of memory or of address "
                "space (ulimit -v)?", said);
    }
}

int gs_demangle(const char *name, size_t len, char **out, gs_error *err)
{
    *out = NULL;
    if (len < 2 || len > GS_DEMANGLE_MAX_LEN || name[0] != '_' || name[1] != 'Z')
        return 0;
    pthread_once(&abi_once, load_abi);
    if (abi_state == ABI_BROKEN) {
        *err = abi_err;
        return -1;
    }
    if (abi_state == ABI_MISSING)
        return 0;
    char copy[GS_DEMANGLE_MAX_LEN + 1]; /* names in the model need not end where len says */
    memcpy(copy, name, len);
    copy[len] = '\0';
    int status = 0;
    char *d = abi.cxa_demangle(copy, NULL, NULL, &status);
    if (status == CXA_NO_MEMORY)
        return gs_fail(err, GS_EXIT_INPUT, "out of memory demangling the kernel name %.*s",
                       (int)(len < 200 ? len : 200), name);
    if (status != 0)
        free(d); /* not a mangled name after all: kept */
    else
        *out = d;
    return 0;
}
