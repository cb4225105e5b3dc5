/* Tensor Cores by name: the name rules' TENSOR_CORE and TC_ELIGIBLE groups (name_rules.c), after
 * the TensorBoard plugin's lists (torch_tb_profiler/profiler/tensor_core.py) and extended with
 * the names that came after them (doc/flops.md). */
#include "analysis/base/tensor_core.h"

#include "analysis/base/name_rules.h"

bool gs_kernel_uses_tensor_cores(const char *name)
{
    return gs_name_judge(GS_NAME_TENSOR_CORE, name) != 0;
}

bool gs_kernel_uses_tensor_cores_plugin(const char *name)
{
    return gs_name_judge(GS_NAME_TENSOR_CORE_PLUGIN, name) != 0;
}

bool gs_op_tensor_core_eligible(const char *name)
{
    return gs_name_judge(GS_NAME_TC_ELIGIBLE, name) != 0;
}

bool gs_op_tensor_core_eligible_plugin(const char *name)
{
    return gs_name_judge(GS_NAME_TC_ELIGIBLE_PLUGIN, name) != 0;
}
