/* gpuscope memory: the allocator's view from PyTorch [memory] records (TB plugin memory view) or
 * CUDA's allocations in a .gst trace. */
#include "analysis/trace/memory.h"
#include "cmd/cmd.h"
#include "cmd/view.h"
#include "common/util.h"
#include "render/memory_tables.h"

/* The start of --help: the rest is made from the spec and the column tables it names.
 * doc/memory.md shows the whole; tests/cli/test_docs.sh keeps the two equal. */
static const char intro[] =
    "usage: gpuscope memory [OPTIONS] TRACE...\n"
    "\n"
    "Device memory from the allocator's records: PyTorch's (torch.profiler with\n"
    "profile_memory=True) or CUDA's (gpuscope run): peak allocated and reserved\n"
    "with the step and operator at the peak, fragmentation, growth per step with\n"
    "a least-squares fit (leak), and headroom against the device's memory. One row\n"
    "per device (host memory apart). \"-\" marks what the records do not give.\n"
    "\n";

enum { OPS, TIMELINE, PER_STEP }; /* its flags, which exclude each other */

static const gs_cli_flag flags[] = {
    [OPS] = {"ops", .help = "the operators that allocate instead (self and total)"},
    [TIMELINE] = {"timeline", .help = "allocated and reserved over time instead (<= 200 points\n"
                                      "per device, the peak kept)"},
    [PER_STEP] = {"per-step", .help = "allocated and reserved at each step's end instead"},
};

/* --help lists the columns of its four tables. */
static const gs_column *device_columns(size_t *ncols)
{
    return gs_memory_columns(GS_MEMORY_DEVICES, ncols);
}

static const gs_column *op_columns(size_t *ncols)
{
    return gs_memory_columns(GS_MEMORY_OPS, ncols);
}

static const gs_column *timeline_columns(size_t *ncols)
{
    return gs_memory_columns(GS_MEMORY_TIMELINE, ncols);
}

static const gs_column *step_columns(size_t *ncols)
{
    return gs_memory_columns(GS_MEMORY_STEPS, ncols);
}

static const gs_cli_help_part help_parts[] = {
    {"\ncolumns:\n", {device_columns, op_columns, timeline_columns, step_columns}, .indent = 18},
    {"Times are from the trace's first event; sizes are bytes in csv and json.\n"},
};

static int init(const gs_view_args *a, void *state, gs_error *err)
{
    (void)a;
    return gs_memory_init(state, err);
}

static int add(const gs_trace_ctx *c, const gs_view_args *a, void *state, gs_error *err)
{
    (void)a;
    return gs_memory_add(state, c, err);
}

static int finish(const gs_view_args *a, void *state, gs_error *err)
{
    (void)a;
    (void)err;
    gs_memory_finish(state);
    return 0;
}

static int table(const void *state, const gs_view_args *a, gs_table *out)
{
    enum gs_memory_view view = a->flag[OPS]        ? GS_MEMORY_OPS
                               : a->flag[TIMELINE] ? GS_MEMORY_TIMELINE
                               : a->flag[PER_STEP] ? GS_MEMORY_STEPS
                                                   : GS_MEMORY_DEVICES;
    return gs_memory_table(state, view, out);
}

static void free_summary(void *state)
{
    gs_memory_summary_free(state);
}

const gs_view gs_view_memory = {
    .spec = {.command = "memory",
             .help = {.intro = intro, .keep_warmup = "fit the growth over the warm-up steps too",
                      .parts = help_parts, .nparts = COUNT_OF(help_parts)},
             .csv = true, .step = true, .keep_warmup = true, .exclusive_flags = true,
             .flags = flags, .nflags = 3},
    .summary = "allocated/reserved memory over time, peak, growth, headroom",
    .state_size = sizeof(gs_memory_summary),
    .init = init,
    .add = add,
    .finish = finish,
    .table = table,
    .free = free_summary,
};
