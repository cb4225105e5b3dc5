/* The view tables' derived columns: ops' key_averages shares and averages. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "render/breakdown_tables.h"
#include "render/view_tables.h"

/* The column whose JSON key is key, or -1. */
static long column(const gs_table *t, const char *key)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (!strcmp(t->cols[c].key, key))
            return (long)c;
    return -1;
}

static double pct(const gs_table *t, size_t row, const char *key)
{
    long c = column(t, key);
    CHECK(c >= 0);
    return c >= 0 ? gs_table_cell(t, row, (size_t)c)->f : NAN;
}

static int64_t num(const gs_table *t, size_t row, const char *key)
{
    long c = column(t, key);
    CHECK(c >= 0);
    return c >= 0 ? gs_table_cell(t, row, (size_t)c)->i : -1;
}

/* Two operators: Self CPU 300 and 100 ns (400 in all), CPU total 400 and 100; Self CUDA 30 and
 * 10. As PyTorch's key_averages table: Self CPU % 75 and 25, CPU total % 100 and 25 (of the same
 * 400), Self CUDA % 75 and 25; averages per call rounded to the ns. */
static void test_op_shares(void)
{
    gs_op_row rows[] = {
        {.name = "aten::linear", .calls = 3, .self_cpu = 300, .cpu_total = 400, .self_cuda = 30,
         .cuda_total = 40},
        {.name = "aten::addmm", .calls = 2, .self_cpu = 100, .cpu_total = 100, .self_cuda = 10,
         .cuda_total = 10},
    };
    gs_op_summary s = {.rows = rows, .nrows = 2, .has_gpu = true};
    gs_table t;
    CHECK_INT(gs_op_table(&s, &t), 0);
    CHECK(fabs(pct(&t, 0, "self_cpu_pct") - 75.0) < 1e-9);
    CHECK(fabs(pct(&t, 1, "self_cpu_pct") - 25.0) < 1e-9);
    CHECK(fabs(pct(&t, 0, "cpu_total_pct") - 100.0) < 1e-9);
    CHECK(fabs(pct(&t, 1, "cpu_total_pct") - 25.0) < 1e-9);
    CHECK(fabs(pct(&t, 0, "self_cuda_pct") - 75.0) < 1e-9);
    CHECK_INT(num(&t, 0, "cpu_avg_ns"), 133); /* 400 / 3 */
    CHECK_INT(num(&t, 0, "cuda_avg_ns"), 13); /* 40 / 3 */
    CHECK_INT(num(&t, 1, "cpu_avg_ns"), 50);
    gs_table_free(&t);

    /* No GPU work at all: the CUDA shares are not a number (shown "-"), not 0. */
    rows[0].self_cuda = rows[0].cuda_total = rows[1].self_cuda = rows[1].cuda_total = 0;
    s.has_gpu = false;
    CHECK_INT(gs_op_table(&s, &t), 0);
    CHECK(isnan(pct(&t, 0, "self_cuda_pct")));
    gs_table_free(&t);
}

/* GPU utilization is printed with the window it is of (Kernel Busy / Window), since the GPU time
 * table beside it has a window of its own: [first kept step, last step] = 2000 ns here, busy 1500
 * ns, 75 %. A rank summary read from a .gsum keeps no window: it is Kernel Busy / Utilization. */
static void test_gpu_window(void)
{
    gs_gpu_device_metrics dev = {.device = 0, .busy_ns = 1500, .utilization = 0.75};
    gs_bd_trace b = {.gpu = {.window_start = 1000, .window_end = 3000, .v = &dev, .n = 1}};
    gs_table t;
    CHECK_INT(gs_bd_gpu_table(&b, &t), 0);
    CHECK_INT(num(&t, 0, "window_ns"), 2000);
    CHECK(fabs(pct(&t, 0, "utilization_pct") - 75.0) < 1e-9);
    gs_table_free(&t);
    b.gpu.window_start = b.gpu.window_end = 0;
    CHECK_INT(gs_bd_gpu_table(&b, &t), 0);
    CHECK_INT(num(&t, 0, "window_ns"), 2000);
    gs_table_free(&t);
}

int main(void)
{
    test_gpu_window();
    test_op_shares();
    return check_done("test_view_tables");
}
