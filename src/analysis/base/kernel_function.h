/* The function a kernel name names, without its namespaces, template arguments, parameters and
 * return type: "vectorized_layer_norm_kernel" for both
 *   void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float, false>(int, float, float const*, ...)
 * (libstdc++'s demangler, as torch.profiler and gpuscope run show it) and
 *   void at::<unnamed>::vectorized_layer_norm_kernel<float, float, 0>(int, T2, const T1 *, ...)
 * (Nsight Compute's demangler). It is also what ncu's --kernel-name matches by default
 * (--kernel-name-base function). A name that is not C++ ("nvjet_sm90_tst_...") is its own. */
#ifndef GS_ANALYSIS_KERNEL_FUNCTION_H
#define GS_ANALYSIS_KERNEL_FUNCTION_H

#include <stddef.h>

/* The function name's bytes within `name`: *start and the returned length. A mangled name
 * ("_Z...") should be demangled first (common/demangle.h). */
size_t gs_kernel_function(const char *name, const char **start);

#endif
