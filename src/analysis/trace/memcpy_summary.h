/* Memory copies and sets summed by kind and memory locations (nsys cuda_gpu_mem_time_sum and
 * cuda_gpu_mem_size_sum in one table, with bandwidth). */
#ifndef GS_ANALYSIS_MEMCPY_SUMMARY_H
#define GS_ANALYSIS_MEMCPY_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/base/dur_groups.h"
#include "analysis/base/stats.h"
#include "analysis/base/trace_ctx.h"
#include "common/error.h"
#include "model/trace.h"

typedef struct gs_memcpy_row {
    char operation[64]; /* "HtoD (Pageable -> Device)", "Memset (Device)", "DtoD" */
    uint8_t kind;       /* enum gs_memop_kind */
    uint8_t src, dst;   /* enum gs_mem_loc */
    gs_dur_stats time;
    uint64_t bytes;        /* total */
    double bandwidth_gbps; /* bytes / total time; 1 GB = 1e9 B, so bytes per ns */
    double time_pct;       /* time.total / sum of all rows' totals × 100 */
    bool pageable;         /* either side is pageable host memory: the copy cannot overlap */
    size_t first;          /* its time.count durations start at durations[first] */
} gs_memcpy_row;

typedef struct gs_memcpy_summary {
    gs_memcpy_row *rows; /* Total time desc, then Count asc, then Operation asc */
    size_t nrows;
    /* Every operation's duration, each row's ascending: a merge of ranks summarised one at a
     * time (analysis/pipeline/summary.h) needs them for the exact median and deviation across ranks. */
    gs_ns *durations;
    gs_dur_items ops; /* the traces' copies and sets, until _finish */
} gs_memcpy_summary;

/* The table's order: Total time desc, then Count asc, then Operation asc. */
void gs_memcpy_rows_sort(gs_memcpy_row *rows, size_t n);

/* A row of the groups' merge: label, bandwidth and pageable from kind, src, dst, time, bytes. */
gs_memcpy_row gs_memcpy_row_make(uint8_t kind, uint8_t src, uint8_t dst, gs_dur_stats time,
                                 uint64_t bytes, double time_pct);

/* A summary of the traces added one at a time (zeroed, add each, finish); build is both for one
 * trace. Each returns 0, or -1 with err (out of memory); a failed summary is freed. */
int gs_memcpy_summary_add(gs_memcpy_summary *s, const gs_trace_ctx *c, gs_error *err);
int gs_memcpy_summary_finish(gs_memcpy_summary *s, gs_error *err);
int gs_memcpy_summary_build(const gs_trace_ctx *c, gs_memcpy_summary *out, gs_error *err);
void gs_memcpy_summary_free(gs_memcpy_summary *s);

/* The Operation label of a kind and its locations; unknown locations are left out. */
void gs_memcpy_label(char *buf, size_t size, enum gs_memop_kind kind, enum gs_mem_loc src,
                     enum gs_mem_loc dst);

#endif
