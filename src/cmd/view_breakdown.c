/* gpuscope breakdown: step time by category with the TensorBoard profiler plugin's semantics,
 * and its GPU metrics per device (doc/design.md §11, §12). */
#include "analysis/trace/breakdown.h"
#include "cmd/cmd.h"
#include "cmd/view.h"
#include "render/breakdown_tables.h"

/* The same text is in doc/breakdown.md; tests/cli/test_docs.sh keeps the two equal. */
static const char help[] =
    "usage: gpuscope breakdown [OPTIONS] TRACE...\n"
    "\n"
    "Step time broken into categories, as the TensorBoard profiler plugin's\n"
    "Overview did: each instant of a step goes to the first category active\n"
    "then, in the order Kernel, Memcpy, Memset, Communication, Runtime,\n"
    "DataLoader, CPU Exec, Other. Then GPU utilization, est. SM efficiency and\n"
    "est. achieved occupancy per GPU over the kept steps.\n"
    "\n"
    "options:\n"
    "  --step REGEX     steps are the annotation or NVTX ranges matching REGEX\n"
    "                   (default: ProfilerStep#N, else detected)\n"
    "  --detect-steps   steps from the repeating kernel sequence, not ranges\n"
    "  --keep-warmup    count the warm-up steps too (the plugin counts every step)\n"
    "  --tb-compat      find steps, communication and runtime calls exactly as the\n"
    "                   plugin did, to compare with its numbers (it misses the\n"
    "                   NCCL kernels of modern PyTorch and takes a trace without\n"
    "                   ProfilerStep#N as one step; see doc/breakdown.md)\n"
    "  --format FORMAT  table (default), csv or json\n"
    "  --limit N        show the first N steps of each trace (default: all)\n"
    "  --rank R         only the traces of rank R\n"
    "  -h, --help       show this help\n"
    "\n"
    "categories:\n"
    "  Kernel          GPU kernels other than communication kernels\n"
    "  Memcpy, Memset  GPU copies and sets\n"
    "  Communication   NCCL kernels, and host ops named nccl:* or gloo:*\n"
    "  Runtime         CUDA runtime and driver calls\n"
    "  DataLoader      enumerate(DataLoader)#...__next__, enumerate(DataPipe)#...\n"
    "  CPU Exec        other operators, annotations and NVTX ranges\n"
    "  Other           step time covered by none of these\n"
    "\n"
    "GPU metrics (kernels only, over [first kept step start, last step end]):\n"
    "  Utilization             time with at least one kernel running / window\n"
    "  Est. SM Efficiency      time-weighted min(sum of running kernels' blocks\n"
    "                          per SM, 1) / window\n"
    "  Est. Achieved Occupancy kernel-time-weighted mean of the kernels'\n"
    "                          estimated achieved occupancy\n"
    "Durations are whole ns in csv and json.\n";

enum { TB_COMPAT }; /* its flag */

static const gs_cli_flag flags[] = {[TB_COMPAT] = {"tb-compat"}};

static int add(const gs_trace_ctx *c, const gs_view_args *a, void *state, gs_error *err)
{
    return gs_breakdown_add(state, c, a->flag[TB_COMPAT], err);
}

static int finish(const gs_view_args *a, void *state, gs_error *err)
{
    (void)a, (void)err;
    gs_breakdown_finish(state);
    return 0;
}

/* --tb-compat: the TensorBoard plugin's steps too (steps.h, plugin_rules). */
static void context(const gs_view_args *a, gs_ctx_opts *o)
{
    o->steps.plugin_rules = a->flag[TB_COMPAT];
}

static int render(FILE *out, void *state, const gs_view_args *a, const gs_text_style *style)
{
    return gs_render_breakdown(out, state, a->cli.format, style, a->cli.limit);
}

static void free_breakdown(void *state)
{
    gs_breakdown_free(state);
}

const gs_view gs_view_breakdown = {
    .spec = {.command = "breakdown", .help = help, .csv = true, .step = true,
             .keep_warmup = true, .flags = flags, .nflags = 1},
    .summary = "where each step's time goes; GPU utilization, SM efficiency",
    .state_size = sizeof(gs_breakdown),
    .add = add,
    .finish = finish,
    .render = render,
    .free = free_breakdown,
    .context = context,
};
