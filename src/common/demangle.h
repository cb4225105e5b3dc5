/* C++ symbol names as people read them: `_ZN2at6native29vectorized_elementwise_kernel...` becomes
 * `void at::native::vectorized_elementwise_kernel<8, ...>(...)`, exactly the text torch.profiler
 * shows for the same CUDA kernel. PyTorch's profiler (libkineto, src/Demangle.cpp) demangles with
 * libstdc++'s abi::__cxa_demangle and leaves names longer than 1024 bytes as they are; gpuscope
 * calls the same function with the same rule, so a trace recorded by `gpuscope run` and a
 * torch.profiler trace of the same job name every kernel alike.
 *
 * __cxa_demangle has C linkage; libstdc++.so.6 is loaded on first use (dynlib.h), so the binary
 * keeps no C++ runtime dependency. Where it is not installed, names stay mangled (the debug log
 * says why). Where it is installed but cannot be loaded (the address space `ulimit -v` allows is
 * spent), or runs out of memory demangling, the names are not shown mangled as if that were the
 * answer: the caller gets an error. Thread-safe. */
#ifndef GS_COMMON_DEMANGLE_H
#define GS_COMMON_DEMANGLE_H

#include <stddef.h>

#include "common/error.h"

/* Kineto's kMaxSymbolSize: longer names are shown mangled by torch.profiler, so here too. */
#define GS_DEMANGLE_MAX_LEN 1024

/* The demangled form of name[0..len) (a mangled C++ name starts with "_Z") into *out, malloc'ed;
 * *out NULL when the name is to be kept as it is: it is not one, is longer than
 * GS_DEMANGLE_MAX_LEN, does not demangle, or libstdc++ is not installed. 0, or -1 with err
 * (GS_EXIT_INPUT) when it could not be demangled for want of memory or because libstdc++, though
 * installed, cannot be loaded. */
int gs_demangle(const char *name, size_t len, char **out, gs_error *err);

#endif
