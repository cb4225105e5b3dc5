#include "common/dynlib.h"

#include <dlfcn.h>
#include <string.h>

/* dlsym returns a void *; POSIX guarantees it converts to a function pointer of the same size. */
_Static_assert(sizeof(void *) == sizeof(void (*)(void)), "function pointers are pointer-sized");

int gs_dynlib_load(const gs_dynlib *lib, void *table, gs_error *err)
{
    void *handle = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        return gs_fail(err, GS_EXIT_ENV, "%s needs %s, which cannot be loaded (%s): install %s",
                       lib->feature, lib->soname, why ? why : "not found", lib->package);
    }
    for (size_t i = 0; i < lib->nsyms; i++) {
        void *sym = dlsym(handle, lib->syms[i].symbol);
        if (!sym) {
            dlclose(handle);
            return gs_fail(err, GS_EXIT_ENV, "%s needs %s from %s, which this %s lacks (too old): "
                           "install a newer %s", lib->feature, lib->syms[i].symbol, lib->soname,
                           lib->soname, lib->package);
        }
        memcpy((char *)table + lib->syms[i].offset, &sym, sizeof sym);
    }
    return 0;
}
