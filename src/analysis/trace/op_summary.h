/* Operators and annotations summed by name, or by name and input shapes (PyTorch
 * key_averages(), key_averages(group_by_input_shape=True)). */
#ifndef GS_ANALYSIS_OP_SUMMARY_H
#define GS_ANALYSIS_OP_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/base/trace_ctx.h"
#include "common/error.h"
#include "model/trace.h"

typedef struct gs_op_row {
    const char *name;
    const char *input_dims; /* grouped by shape: as the trace wrote it, "" when absent; else NULL */
    uint64_t calls;
    gs_ns self_cpu;   /* Σ duration minus the ranges and API calls directly inside */
    gs_ns cpu_total;  /* Σ duration */
    gs_ns self_cuda;  /* Σ GPU time (kernels, copies, sets) launched directly by the range */
    gs_ns cuda_total; /* Σ GPU time launched by the range or any range inside it */
    bool has_flops;   /* FLOPs known for some call: a formula and its shapes (doc/flops.md) */
    double flops;     /* then: Σ FLOPs of its calls */
} gs_op_row;

typedef struct gs_op_summary {
    gs_op_row *rows; /* CUDA total desc when has_gpu, else CPU total desc; then name, shapes */
    size_t nrows;
    bool by_shape;
    bool has_gpu; /* the selected traces have kernels or memory operations */
    bool with_flops; /* rows have FLOPs (gs_op_summary_build; not a report's merged rows) */
    /* The profiled CPU time the CPU shares are of, as key_averages' table takes it: the sum of
     * every event's self time, the CUDA calls' included (they are events of their own there),
     * which is the time of the outermost ranges plus the CUDA calls outside any range. */
    gs_ns cpu_base;
    gs_strtab names;  /* owns the row names and shapes */
    struct gs_op_groups *groups; /* the rows as the traces' calls add up, until _finish */
} gs_op_summary;

/* Ranges of kind GS_RANGE_OP, GS_RANGE_ANNOTATION and GS_RANGE_NVTX: the operator tree that
 * gs_trace_index builds (not Python functions, not annotations projected on GPU streams).
 *
 * GPU time goes to the range that launched it on the launching thread (Self CUDA) and to the
 * ranges enclosing that one (CUDA total), except for the steps (the context's), whose CUDA
 * total is the GPU work any thread of the process launched while the step's range was open, as
 * the step breakdown counts it. An operator directly inside an operator of the same name
 * (autocast's aten::addmm around the bf16 aten::addmm) is part of that call: its FLOPs and GPU
 * time count once (doc/ops.md); so is an annotation directly inside an annotation of its name, and
 * an NVTX range inside an NVTX range of its name. Ranges count where they start in the context's
 * window.
 *
 * A summary of the traces added one at a time (init, add each, finish); build is the three for
 * one trace. Each returns 0, or -1 with err (out of memory); a failed summary is freed. Finish,
 * which orders the rows made as the calls came, cannot fail. */
int gs_op_summary_init(gs_op_summary *s, bool by_shape, gs_error *err);
int gs_op_summary_add(gs_op_summary *s, const gs_trace_ctx *c, gs_error *err);
void gs_op_summary_finish(gs_op_summary *s);
int gs_op_summary_build(const gs_trace_ctx *c, bool by_shape, gs_op_summary *out,
                        gs_error *err);
void gs_op_summary_free(gs_op_summary *s);

/* Whether range r is an operator directly inside an operator of the same name (autocast's inner
 * aten::addmm), or an annotation or NVTX range directly inside one of its kind and name, and so
 * part of that call rather than a call of its own. */
bool gs_op_call_absorbed(const gs_trace *t, uint32_t r);

/* The outermost range of the call range r is part of (r itself when it is not absorbed). */
uint32_t gs_op_call_of(const gs_trace *t, uint32_t r);

#endif
