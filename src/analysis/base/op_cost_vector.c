#include "analysis/base/op_cost_vector.h"

#include <string.h>

enum gs_op_class gs_vector_op_class(const char *name)
{
    (void)name;
    return GS_OPC_NONE;
}

enum gs_op_class gs_vector_op_cost(const char *name, const char *input_dims,
                                   const char *input_types, const char *concrete,
                                   gs_op_cost *out)
{
    (void)input_dims, (void)input_types, (void)concrete;
    memset(out, 0, sizeof *out);
    return gs_vector_op_class(name);
}
