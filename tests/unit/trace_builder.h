/* Building small traces by hand for the analysis tests: each helper appends one event with the
 * defaults a reader would give, and tb_index() builds the model's links as a reader does. */
#ifndef GS_TEST_TRACE_BUILDER_H
#define GS_TEST_TRACE_BUILDER_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/base/trace_ctx.h"
#include "model/trace.h"

#define TB_PID 100
#define TB_TID 101

static inline gs_trace *tb_new(const char *path, int32_t rank)
{
    gs_error err;
    gs_trace *t = gs_trace_new(path, &err);
    if (!t)
        abort();
    t->format = gs_strtab_intern(&t->strings, "kineto", 6);
    t->id.rank = rank;
    return t;
}

static inline gs_str tb_str(gs_trace *t, const char *s)
{
    return gs_strtab_intern(&t->strings, s, strlen(s));
}

static inline void tb_kernel(gs_trace *t, const char *name, gs_ns start, gs_ns end,
                             uint64_t correlation)
{
    gs_kernel *k = GS_VEC_PUSH(&t->kernels);
    k->name = tb_str(t, name);
    k->start = start;
    k->end = end;
    k->stream = 7;
    k->correlation = correlation;
    k->grid[0] = k->grid[1] = k->grid[2] = 1;
    k->block[0] = k->block[1] = k->block[2] = 1;
    k->registers_per_thread = k->shared_memory = -1;
    k->blocks_per_sm = k->warps_per_sm = k->occupancy_pct = -1;
    k->api = k->op = GS_NONE;
}

static inline void tb_launch_config(gs_trace *t, int32_t gx, int32_t bx)
{
    gs_kernel *k = &t->kernels.v[t->kernels.n - 1];
    k->grid[0] = gx;
    k->block[0] = bx;
}

static inline void tb_memop(gs_trace *t, enum gs_memop_kind kind, enum gs_mem_loc src,
                            enum gs_mem_loc dst, uint64_t bytes, gs_ns start, gs_ns end,
                            uint64_t correlation)
{
    gs_memop *m = GS_VEC_PUSH(&t->memops);
    m->kind = (uint8_t)kind;
    m->src = (uint8_t)src;
    m->dst = (uint8_t)dst;
    m->bytes = bytes;
    m->start = start;
    m->end = end;
    m->stream = 7;
    m->correlation = correlation;
    m->api = m->op = GS_NONE;
}

static inline void tb_api(gs_trace *t, const char *name, gs_ns start, gs_ns end,
                          uint64_t correlation)
{
    gs_api *a = GS_VEC_PUSH(&t->apis);
    a->name = tb_str(t, name);
    a->start = start;
    a->end = end;
    a->pid = TB_PID;
    a->tid = TB_TID;
    a->correlation = correlation;
    a->cbid = -1;
    a->gpu = a->parent = GS_NONE;
}

static inline void tb_range(gs_trace *t, enum gs_range_kind kind, const char *name, gs_ns start,
                            gs_ns end, const char *input_dims)
{
    gs_range *r = GS_VEC_PUSH(&t->ranges);
    r->kind = (uint8_t)kind;
    r->name = tb_str(t, name);
    r->start = start;
    r->end = end;
    r->pid = TB_PID;
    r->tid = TB_TID;
    r->input_dims = input_dims ? tb_str(t, input_dims) : GS_STR_EMPTY;
    r->parent = GS_NONE;
}

static inline void tb_device(gs_trace *t, int32_t id, const char *name, uint64_t memory,
                             int32_t sms, int32_t major, int32_t minor)
{
    gs_device *d = GS_VEC_PUSH(&t->devices);
    d->id = id;
    d->name = tb_str(t, name);
    d->total_memory = memory;
    d->num_sms = sms;
    d->compute_major = major;
    d->compute_minor = minor;
}

/* Indexes the trace and adds it to the profile. */
static inline void tb_add(gs_profile *p, gs_trace *t)
{
    gs_error err;
    if (gs_trace_index(t, &err) != 0)
        abort();
    gs_trace **slot = GS_VEC_PUSH(&p->traces);
    if (!slot)
        abort();
    *slot = t;
}

/* The context of an indexed trace, as a command that asks for nothing but `o` builds it (o NULL:
 * the default steps, the whole trace); free it with gs_trace_ctx_free. */
static inline gs_trace_ctx tb_ctx(const gs_trace *t, const gs_ctx_opts *o)
{
    static const gs_ctx_opts defaults = {0};
    gs_trace_ctx c;
    gs_error err;
    if (gs_trace_ctx_build(t, o ? o : &defaults, &c, &err) != 0) {
        fprintf(stderr, "tb_ctx: %s\n", err.msg);
        abort();
    }
    return c;
}

#endif
