/* A stand-in for libstdc++.so.6 whose demangler always runs out of memory, as the real one does
 * when malloc fails: status -1 (the Itanium C++ ABI, 3.4 Demangler API). tests/hostile/
 * cases_inputs.py puts its folder first on LD_LIBRARY_PATH, so that gpuscope's demangling
 * (src/common/demangle.c) meets the failure on every name, deterministically. */
#include <stddef.h>

char *__cxa_demangle(const char *mangled, char *buf, size_t *n, int *status);

char *__cxa_demangle(const char *mangled, char *buf, size_t *n, int *status)
{
    (void)mangled, (void)buf, (void)n;
    *status = -1;
    return NULL;
}
