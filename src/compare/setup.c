#include "compare/setup.h"
#include "common/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The items that say how a side was recorded rather than what ran: when one differs, the step
 * times differ by the collectors' own cost (compare/collectors.h). */
static const bool collection_item[GS_SETUP__COUNT] = {
    [GS_SETUP_COLLECTOR] = true, [GS_SETUP_RECORD_SHAPES] = true,
    [GS_SETUP_PROFILE_MEMORY] = true, [GS_SETUP_WITH_STACK] = true, [GS_SETUP_EMIT_NVTX] = true,
};

static const char *const item_names[GS_SETUP__COUNT][2] = {
    [GS_SETUP_GPU_MODEL] = {"GPU model", "gpu_model"},
    [GS_SETUP_GPU_COUNT] = {"GPUs with kernels", "gpu_count"},
    [GS_SETUP_WORLD_SIZE] = {"world size", "world_size"},
    [GS_SETUP_COLLECTOR] = {"collector", "collector"},
    [GS_SETUP_RECORD_SHAPES] = {"record_shapes", "record_shapes"},
    [GS_SETUP_PROFILE_MEMORY] = {"memory records", "profile_memory"},
    [GS_SETUP_WITH_STACK] = {"with_stack", "with_stack"},
    [GS_SETUP_EMIT_NVTX] = {"emit_nvtx", "emit_nvtx"},
    [GS_SETUP_DTYPE] = {"low-precision kernels", "dtype"},
};

const char *gs_setup_category_key(enum gs_setup_category c)
{
    static const char *const keys[GS_REC__COUNT] = {
        [GS_REC_CPU_OPS] = "cpu_operators", [GS_REC_RUNTIME] = "runtime_calls",
        [GS_REC_MEMORY] = "memory"};
    return keys[c];
}

/* What one side holds, summed over its traces. */
typedef struct side_facts {
    int32_t world_size;
    size_t gpus;                  /* (trace, device) pairs that ran kernels */
    char models[64];              /* distinct names of those devices, ", "-separated */
    bool models_known;
    const char *collector;
    uint64_t ops, shaped, python, seq_nvtx, emit_nvtx, apis, mem_events;
    bool mem_cuda;                /* allocation records are CUDA's (a .gst capture) */
    gs_ns kernel_ns, bf16_ns, fp16_ns;
} side_facts;

static const char *collector_of(const char *format)
{
    if (!strcmp(format, "gst"))
        return "gpuscope run";
    if (!strcmp(format, "kineto"))
        return "torch.profiler";
    if (!strcmp(format, "legacy"))
        return "torch.autograd.profiler (legacy)";
    return format;
}

/* Kernel names show the dtype of GEMMs, convolutions and many elementwise kernels
 * (cutlass_*_bf16_*, nvjet *_bz_ for bf16, "c10::BFloat16" in template arguments). */
static void add_dtype(const char *name, gs_ns dur, side_facts *f)
{
    if (strstr(name, "bf16") || strstr(name, "BFloat16") || strstr(name, "bfloat16"))
        f->bf16_ns += dur;
    else if (strstr(name, "fp16") || strstr(name, "c10::Half") || strstr(name, "f16_"))
        f->fp16_ns += dur;
}

static void add_model(side_facts *f, const char *name)
{
    if (strstr(f->models, name))
        return;
    size_t len = strlen(f->models);
    snprintf(f->models + len, sizeof f->models - len, "%s%s", len ? ", " : "", name);
}

static void read_trace(const gs_trace *t, side_facts *f)
{
    if (t->id.world_size > f->world_size)
        f->world_size = t->id.world_size;
    const char *collector = collector_of(gs_trace_str(t, t->format));
    if (!f->collector)
        f->collector = collector;
    else if (strcmp(f->collector, collector) != 0)
        f->collector = "mixed";
    /* Devices that ran kernels; their names from the trace's device list. */
    int32_t seen[64];
    size_t nseen = 0;
    for (size_t i = 0; i < t->kernels.n; i++) {
        const gs_kernel *k = &t->kernels.v[i];
        gs_ns dur = k->end - k->start;
        f->kernel_ns += dur;
        add_dtype(gs_trace_str(t, k->name), dur, f);
        bool known = false;
        for (size_t j = 0; j < nseen && !known; j++)
            known = seen[j] == k->device;
        if (known || nseen == COUNT_OF(seen))
            continue;
        seen[nseen++] = k->device;
        f->gpus++;
        for (size_t d = 0; d < t->devices.n; d++)
            if (t->devices.v[d].id == k->device) {
                add_model(f, gs_trace_str(t, t->devices.v[d].name));
                f->models_known = true;
            }
    }
    /* gpuscope run records operators only as emit_nvtx names them (emit_nvtx, or --torch-ops:
     * doc/run.md), and its own cost grows with them as emit_nvtx's does */
    bool gst = !strcmp(gs_trace_str(t, t->format), "gst");
    for (size_t i = 0; i < t->ranges.n; i++) {
        const gs_range *r = &t->ranges.v[i];
        f->ops += r->kind == GS_RANGE_OP;
        f->emit_nvtx += gst && r->kind == GS_RANGE_OP;
        f->python += r->kind == GS_RANGE_PYTHON;
        f->seq_nvtx += r->kind == GS_RANGE_NVTX && r->has_seq;
        f->shaped += r->input_dims != GS_STR_EMPTY;
    }
    f->apis += t->apis.n;
    f->mem_events += t->mem_events.n;
    f->mem_cuda |= t->mem_events.n && gst;
}

static void put(gs_setup_row *row, int side, bool known, const char *fmt, const char *text)
{
    row->known[side] = known;
    snprintf(row->value[side], sizeof row->value[side], fmt, known ? text : "not recorded");
}

static const char *yes_no(uint64_t n)
{
    return n ? "yes" : "no";
}

static void fill_rows(const side_facts *f, int s, gs_setup_row *rows)
{
    char num[32];
    put(&rows[GS_SETUP_GPU_MODEL], s, f->models_known, "%s", f->models);
    snprintf(num, sizeof num, "%zu", f->gpus);
    put(&rows[GS_SETUP_GPU_COUNT], s, f->gpus > 0, "%s", num);
    snprintf(num, sizeof num, "%d", (int)f->world_size);
    put(&rows[GS_SETUP_WORLD_SIZE], s, f->world_size > 0, "%s", num);
    put(&rows[GS_SETUP_COLLECTOR], s, f->collector != NULL, "%s", f->collector);
    /* gpuscope run records no operator shapes or Python stacks: those options are PyTorch's. */
    bool pytorch = f->ops > 0;
    put(&rows[GS_SETUP_RECORD_SHAPES], s, pytorch, "%s", yes_no(f->shaped));
    put(&rows[GS_SETUP_WITH_STACK], s, pytorch, "%s", yes_no(f->python));
    put(&rows[GS_SETUP_PROFILE_MEMORY], s, true, "%s",
        !f->mem_events ? "none" : f->mem_cuda ? "CUDA's allocations" : "PyTorch's allocator");
    put(&rows[GS_SETUP_EMIT_NVTX], s, true, "%s", yes_no(f->seq_nvtx + f->emit_nvtx));
    char dtype[64];
    double bf16 = f->kernel_ns ? (double)f->bf16_ns / (double)f->kernel_ns : 0;
    double fp16 = f->kernel_ns ? (double)f->fp16_ns / (double)f->kernel_ns : 0;
    /* The label compares; the shares only say how much (they move with any code change). */
    snprintf(dtype, sizeof dtype, "%s%s%s", bf16 >= 0.01 ? "bf16" : "",
             bf16 >= 0.01 && fp16 >= 0.01 ? " and " : "", fp16 >= 0.01 ? "fp16" : "");
    put(&rows[GS_SETUP_DTYPE], s, f->kernel_ns > 0, "%s", *dtype ? dtype : "none by name");
}

static void say_why_not(gs_diff_setup *o, enum gs_setup_category c, const char *what,
                        const char *fix)
{
    const bool *b = o->recorded[GS_SIDE_BASE], *n = o->recorded[GS_SIDE_NEW];
    if (c == GS_REC_MEMORY && b[c] && n[c])
        snprintf(o->why_not[c], sizeof o->why_not[c],
                 "%s: BASE has %s, NEW %s, which count different things", what,
                 o->rows[GS_SETUP_PROFILE_MEMORY].value[GS_SIDE_BASE],
                 o->rows[GS_SETUP_PROFILE_MEMORY].value[GS_SIDE_NEW]);
    else
        snprintf(o->why_not[c], sizeof o->why_not[c], "%s: only %s recorded them (%s)", what,
                 b[c] ? "BASE" : "NEW", fix);
}

void gs_diff_setup_build(const gs_trace *const *traces[GS_SIDES], const size_t n[GS_SIDES],
                         gs_diff_setup *out)
{
    memset(out, 0, sizeof *out);
    side_facts f[GS_SIDES];
    memset(f, 0, sizeof f);
    for (int s = 0; s < GS_SIDES; s++) {
        for (size_t i = 0; i < n[s]; i++)
            read_trace(traces[s][i], &f[s]);
        for (int k = 0; k < GS_SETUP__COUNT; k++) {
            out->rows[k].name = item_names[k][0];
            out->rows[k].key = item_names[k][1];
        }
        fill_rows(&f[s], s, out->rows);
        out->recorded[s][GS_REC_CPU_OPS] = f[s].ops > 0 || f[s].seq_nvtx > 0;
        out->recorded[s][GS_REC_RUNTIME] = f[s].apis > 0;
        out->recorded[s][GS_REC_MEMORY] = f[s].mem_events > 0;
    }
    size_t len = 0;
    for (int k = 0; k < GS_SETUP__COUNT; k++) {
        gs_setup_row *r = &out->rows[k];
        r->differs = r->known[0] && r->known[1] && strcmp(r->value[0], r->value[1]) != 0;
        if (!r->differs)
            continue;
        out->differs = true;
        out->collection_differs |= collection_item[k];
        len += (size_t)snprintf(out->summary + len, len < sizeof out->summary ? sizeof out->summary - len : 0,
                                "%s%s %s vs %s", len ? "; " : "", r->name, r->value[0], r->value[1]);
        if (len >= sizeof out->summary)
            len = sizeof out->summary - 1;
    }
    for (int c = 0; c < GS_REC__COUNT; c++)
        out->comparable[c] = out->recorded[0][c] == out->recorded[1][c];
    /* Allocations of CUDA (all of PyTorch's pool) against PyTorch's tensors are not one thing. */
    if (out->recorded[0][GS_REC_MEMORY] && out->recorded[1][GS_REC_MEMORY] &&
        f[0].mem_cuda != f[1].mem_cuda)
        out->comparable[GS_REC_MEMORY] = false;
    if (!out->comparable[GS_REC_CPU_OPS])
        say_why_not(out, GS_REC_CPU_OPS, "CPU operators",
                    "torch.profiler records them; gpuscope run only under emit_nvtx");
    if (!out->comparable[GS_REC_RUNTIME])
        say_why_not(out, GS_REC_RUNTIME, "CUDA runtime calls", "ProfilerActivity.CUDA");
    if (!out->comparable[GS_REC_MEMORY])
        say_why_not(out, GS_REC_MEMORY, "memory",
                    "profile_memory=True, or gpuscope run's --trace memory");
}
