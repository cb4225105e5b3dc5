/* The traffic model of the operators that are not matrix work (op_cost.h): elementwise,
 * reductions, normalisations, softmax, embeddings, copies and casts, by name. */
#ifndef GS_ANALYSIS_OP_COST_VECTOR_H
#define GS_ANALYSIS_OP_COST_VECTOR_H

#include "analysis/base/op_cost.h"

/* The class of a vector operator by name; GS_OPC_NONE when it has no model here. */
enum gs_op_class gs_vector_op_class(const char *name);

/* Its cost, as gs_op_cost_compute (which calls it for every operator flops.h has no formula
 * for). Returns its class, GS_OPC_NONE (and *out zeroed) when it has no model. */
enum gs_op_class gs_vector_op_cost(const char *name, const char *input_dims,
                                   const char *input_types, const char *concrete,
                                   gs_op_cost *out);

/* The normalisations (layer, batch, group, RMS; forward and backward), as the two above; in
 * op_cost_norm.c. */
enum gs_op_class gs_norm_op_class(const char *name);
enum gs_op_class gs_norm_op_cost(const char *name, const char *input_dims,
                                 const char *input_types, const char *concrete, gs_op_cost *out);

#endif
