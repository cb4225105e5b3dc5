/* The tables of the views: column definitions (JSON keys, --sort names, headers) and the
 * conversion of each summary into rows. The cells point into the summary, which must outlive
 * the table. */
#ifndef GS_RENDER_VIEW_TABLES_H
#define GS_RENDER_VIEW_TABLES_H

#include <stdbool.h>

#include "analysis/trace/api_summary.h"
#include "analysis/trace/kernel_summary.h"
#include "analysis/trace/memcpy_summary.h"
#include "analysis/trace/op_summary.h"
#include "analysis/trace/profile_facts.h"
#include "render/table.h"

/* Column sets, so that a command can check --sort before it loads anything. */
const gs_column *gs_kernel_columns(bool by_launch, size_t *ncols);
const gs_column *gs_op_columns(bool by_shape, bool with_flops, size_t *ncols);
const gs_column *gs_api_columns(size_t *ncols);
const gs_column *gs_memcpy_columns(size_t *ncols);
const gs_column *gs_file_columns(size_t *ncols);
const gs_column *gs_device_columns(size_t *ncols);

/* Each returns -1 when memory is exhausted. */
int gs_kernel_table(const gs_kernel_summary *s, gs_table *out);
int gs_op_table(const gs_op_summary *s, gs_table *out);
int gs_api_table(const gs_api_summary *s, gs_table *out);
int gs_memcpy_table(const gs_memcpy_summary *s, gs_table *out);
int gs_file_table(const gs_profile_facts *f, gs_table *out);
int gs_device_table(const gs_profile_facts *f, gs_table *out);

#endif
