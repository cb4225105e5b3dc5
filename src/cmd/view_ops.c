/* gpuscope ops: operators and annotations summed by name (PyTorch key_averages). */
#include "analysis/trace/op_summary.h"
#include "cmd/cmd.h"
#include "cmd/view.h"
#include "render/view_tables.h"

/* The same text is in doc/ops.md; tests/cli/test_docs.sh keeps the two equal. */
static const char help[] =
    "usage: gpuscope ops [OPTIONS] TRACE...\n"
    "\n"
    "PyTorch operators, user annotations (record_function, ProfilerStep#N) and NVTX\n"
    "ranges summed by name over the selected traces (PyTorch key_averages).\n"
    "\n"
    "By default, when a trace has steps, only its kept steps count: the warm-up\n"
    "steps and the time outside every step are left out, as the line above the\n"
    "results says. Host events count where they start, GPU work where the call\n"
    "that launched it started.\n"
    "\n"
    "options:\n"
    "  --group-by-shape  group by name and input shapes\n"
    "                    (key_averages(group_by_input_shape=True))\n"
    GS_CLI_WINDOW_HELP
    "  --format FORMAT   table (default), csv or json\n"
    "  --sort COLUMN     name, calls, self_cpu, cpu_total, self_cuda, cuda_total,\n"
    "                    flops, tflops or input_dims; numbers sort descending, names\n"
    "                    ascending\n"
    "                    (default: cuda_total when the traces have GPU activity, else\n"
    "                    cpu_total; then name)\n"
    "  --limit N         show the first N rows (default: all)\n"
    "  --rank R          only the traces of rank R\n"
    "  -h, --help        show this help\n"
    "\n"
    "columns:\n"
    "  Name          operator, annotation or NVTX range\n"
    "  Calls         number of ranges\n"
    "  Self CPU      sum of each range's duration minus the ranges and CUDA calls\n"
    "                directly inside it on its thread\n"
    "  Self CPU %    Self CPU / the sum of every row's Self CPU x 100 (as PyTorch's\n"
    "                key_averages table: these add up to 100)\n"
    "  CPU total     sum of the ranges' durations\n"
    "  CPU total %   CPU total / the same sum x 100 (a parent holds its children)\n"
    "  CPU avg       CPU total / Calls\n"
    "  Self CUDA     sum of the durations of the kernels, copies and sets launched\n"
    "                directly by the ranges, on the thread that launched them\n"
    "  Self CUDA %   Self CUDA / the sum of every row's Self CUDA x 100\n"
    "  CUDA total    Self CUDA plus the GPU time launched by every range inside them;\n"
    "                for a step, the GPU work launched by every thread of the process\n"
    "                while the step was open (backward runs on its own thread), as\n"
    "                the step breakdown counts it\n"
    "  CUDA avg      CUDA total / Calls\n"
    "  FLOPs         floating-point operations of the calls, from the trace's flops\n"
    "                or the input shapes, for matmuls, convolutions and attention\n"
    "                (doc/flops.md); - for other operators or without shapes\n"
    "  TFLOP/s       FLOPs / CUDA total\n"
    "  Input Shapes  input dimensions as the trace recorded them (--group-by-shape)\n"
    "An operator whose only child is an operator of the same name is one call (as\n"
    "the TensorBoard plugin counts it). PyTorch's emit_nvtx ranges (\"aten::mm,\n"
    "seq = 3, op_id = 7, sizes = [...]\") are read as the operator and its shapes.\n"
    "Durations are whole ns in csv and json.\n";

enum { BY_SHAPE }; /* its flag */

static const gs_cli_flag flags[] = {[BY_SHAPE] = {"group-by-shape"}};

static const gs_column *columns(const gs_view_args *a, size_t *ncols)
{
    return gs_op_columns(a->flag[BY_SHAPE], true, ncols);
}

static int init(const gs_view_args *a, void *state, gs_error *err)
{
    return gs_op_summary_init(state, a->flag[BY_SHAPE], err);
}

static int add(const gs_trace_ctx *c, const gs_view_args *a, void *state, gs_error *err)
{
    (void)a;
    return gs_op_summary_add(state, c, err);
}

static int finish(const gs_view_args *a, void *state, gs_error *err)
{
    (void)a;
    return gs_op_summary_finish(state, err);
}

static int table(const void *state, const gs_view_args *a, gs_table *out)
{
    (void)a;
    return gs_op_table(state, out);
}

static void free_summary(void *state)
{
    gs_op_summary_free(state);
}

const gs_view gs_view_ops = {
    .spec = {.command = "ops", .help = help, .csv = true, .step = true, .keep_warmup = true,
             .window = true, .flags = flags,
             .nflags = 1},
    .summary = "operators and annotations (PyTorch key_averages)",
    .columns = columns,
    .state_size = sizeof(gs_op_summary),
    .init = init,
    .add = add,
    .finish = finish,
    .table = table,
    .free = free_summary,
};
