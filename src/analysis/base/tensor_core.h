/* Whether a kernel runs on Tensor Cores, judged by its name: the only evidence a trace has. */
#ifndef GS_ANALYSIS_TENSOR_CORE_H
#define GS_ANALYSIS_TENSOR_CORE_H

#include <stdbool.h>

bool gs_kernel_uses_tensor_cores(const char *name);

#endif
