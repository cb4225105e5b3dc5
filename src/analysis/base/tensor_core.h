/* Whether a kernel runs on Tensor Cores, judged by its name: the only evidence a trace has; and
 * whether an operator could use them (doc/flops.md, "Tensor Cores"). */
#ifndef GS_ANALYSIS_TENSOR_CORE_H
#define GS_ANALYSIS_TENSOR_CORE_H

#include <stdbool.h>

/* The TensorBoard plugin's patterns extended with Hopper and Blackwell names. */
bool gs_kernel_uses_tensor_cores(const char *name);
/* The TensorBoard plugin's patterns alone (TC_Allowlist). */
bool gs_kernel_uses_tensor_cores_plugin(const char *name);

/* The launching operator could run on Tensor Cores: the plugin's TC_OP_Allowlist extended with
 * today's backward names and attention. */
bool gs_op_tensor_core_eligible(const char *name);
/* TC_OP_Allowlist alone. */
bool gs_op_tensor_core_eligible_plugin(const char *name);

#endif
