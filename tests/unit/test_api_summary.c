/* The API summary (nsys cuda_api_sum): version suffixes stripped, nsys statistics. */
#include "analysis/trace/api_summary.h"
#include "check.h"
#include "trace_builder.h"

static size_t key_len(const char *s)
{
    return gs_api_name_len(s, strlen(s));
}

static void test_version_suffix(void)
{
    CHECK_INT(key_len("cudaMemcpy_v3020"), 10);
    CHECK_INT(key_len("cudaLaunchKernel_v7000"), 16);
    CHECK_INT(key_len("cuLaunchKernel"), 14);
    CHECK_INT(key_len("x_v1"), 1);
    CHECK_INT(key_len("_v12"), 4);       /* nothing would be left */
    CHECK_INT(key_len("cudaFoo_v"), 9);  /* no digits */
    CHECK_INT(key_len("cudaFoo_x12"), 11);
    CHECK_INT(key_len("cudaFoo12"), 9);
    CHECK_INT(key_len(""), 0);
}

static void test_summary(void)
{
    gs_profile p = {0};
    gs_trace *t = tb_new("api.json", 0);
    tb_api(t, "cudaLaunchKernel_v7000", 0, 4, 1);
    tb_api(t, "cudaLaunchKernel", 10, 16, 2);
    tb_api(t, "cudaLaunchKernel", 20, 30, 3);
    tb_api(t, "cudaMemcpy_v3020", 40, 60, 4);
    tb_api(t, "cudaStreamSynchronize", 70, 90, 0);
    tb_add(&p, t);
    gs_trace_ctx c = tb_ctx(t, NULL);
    gs_api_summary s;
    gs_error err;
    CHECK_INT(gs_api_summary_build(&c, &s, &err), 0);
    CHECK_INT(s.nrows, 3);
    /* cudaLaunchKernel 20 ns total, 3 calls; cudaMemcpy and cudaStreamSynchronize 20 ns, 1 call
     * each: Total desc, then Num Calls asc, then Name asc. */
    CHECK_STR(s.rows[0].name, "cudaMemcpy");
    CHECK_STR(s.rows[1].name, "cudaStreamSynchronize");
    CHECK_STR(s.rows[2].name, "cudaLaunchKernel");
    const gs_api_row *launch = &s.rows[2];
    CHECK_INT(launch->time.count, 3);
    CHECK_INT(launch->time.total, 20);
    CHECK_INT(launch->time.avg, 6);    /* 6.67 */
    CHECK_INT(launch->time.med, 6);    /* 4, 6, 10 */
    CHECK_INT(launch->time.stddev, 3); /* mean 6.67: squares 7.11 + 0.44 + 11.11 = 18.67 / 2 -> 3.06 */
    CHECK(launch->time_pct > 33.33 && launch->time_pct < 33.34);
    gs_api_summary_free(&s);
    gs_trace_ctx_free(&c);
    gs_profile_free(&p);
}

int main(void)
{
    test_version_suffix();
    test_summary();
    return check_done("test_api_summary");
}
