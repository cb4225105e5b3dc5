/* The cross-rank phase of the pipeline (pipeline.h): the sections of the report merged from the
 * rank summaries (sorted by rank, then path). Clock offsets and stragglers come from the
 * summaries' collectives and steps through the same code as from full traces (straggler.h), so
 * they agree to the nanosecond; the tables are merged by name (kernels, operators) or by kind
 * and locations (copies): counts and totals add, min of mins, max of maxes. Medians and
 * deviations across ranks need every duration: they are exact when every rank has its detail
 * (detail.h), and left at 0 otherwise, the section saying so.
 *
 * Each section owns what it holds (names and paths copied from the summaries), so it is freed
 * by its own free function, even when a merge fails half way. Each returns 0, or -1 out of
 * memory (with err where it takes one). */
#ifndef GS_ANALYSIS_PIPELINE_MERGE_H
#define GS_ANALYSIS_PIPELINE_MERGE_H

#include <stdbool.h>

#include "analysis/trace/comm.h"
#include "analysis/trace/idle.h"
#include "analysis/trace/kernel_summary.h"
#include "analysis/trace/memcpy_summary.h"
#include "analysis/trace/op_summary.h"
#include "analysis/trace/profile_facts.h"
#include "analysis/pipeline/summary.h"
#include "analysis/crossrank/straggler.h"

/* Files, ranks, world size, span, steps and events; the GPUs when every rank lists them. */
int gs_merge_facts(const gs_rank_summary *v, size_t n, gs_profile_facts *out, bool *has_devices);

/* The straggler analysis over the ranks (one rank: its row, nothing to compare). */
int gs_merge_stragglers(const gs_rank_summary *v, size_t n, bool align, gs_stragglers *out,
                        gs_error *err);

/* The ranks' communication side by side: per rank, per kind and per step. */
int gs_merge_comm(const gs_rank_summary *v, size_t n, gs_comm *out);

/* The longest GS_RANK_GAPS gaps across ranks, when every rank kept its own. */
int gs_merge_gaps(const gs_rank_summary *v, size_t n, gs_idle *out, bool *has_gaps);

/* Operators by name, in the operator view's order. */
int gs_merge_ops(const gs_rank_summary *v, size_t n, gs_op_summary *out);

/* Kernels by name, in the kernel view's order; *spread when med and stddev are exact. */
int gs_merge_kernels(const gs_rank_summary *v, size_t n, gs_kernel_summary *out, bool *spread);

/* Copies and sets by kind and locations, when every rank has its copies table. */
int gs_merge_copies(const gs_rank_summary *v, size_t n, gs_memcpy_summary *out, bool *has_copies,
                    bool *spread);

#endif
