#include "common/demangle.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/dynlib.h"
#include "common/error.h"
#include "common/log.h"

typedef struct cxxabi {
    /* abi::__cxa_demangle(mangled, buffer, length, status): a malloc'ed string, status 0. */
    char *(*cxa_demangle)(const char *mangled, char *buf, size_t *n, int *status);
} cxxabi;

static const gs_dynsym cxxabi_syms[] = {{"__cxa_demangle", offsetof(cxxabi, cxa_demangle)}};
static const gs_dynlib cxxabi_lib = {"libstdc++.so.6", "demangling kernel names", "libstdc++6",
                                     cxxabi_syms, 1};

static cxxabi abi;
static bool abi_loaded;
static pthread_once_t abi_once = PTHREAD_ONCE_INIT;

static void load_abi(void)
{
    gs_error err;
    abi_loaded = gs_dynlib_load(&cxxabi_lib, &abi, &err) == 0;
    if (!abi_loaded)
        GS_LOG(GS_LOG_INFO, "%s: kernel names stay mangled", err.msg);
}

char *gs_demangle(const char *name, size_t len)
{
    if (len < 2 || len > GS_DEMANGLE_MAX_LEN || name[0] != '_' || name[1] != 'Z')
        return NULL;
    pthread_once(&abi_once, load_abi);
    if (!abi_loaded)
        return NULL;
    char copy[GS_DEMANGLE_MAX_LEN + 1]; /* names in the model need not end where len says */
    memcpy(copy, name, len);
    copy[len] = '\0';
    int status = -1;
    char *out = abi.cxa_demangle(copy, NULL, NULL, &status);
    if (status != 0) {
        free(out);
        return NULL;
    }
    return out;
}
