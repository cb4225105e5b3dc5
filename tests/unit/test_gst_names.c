/* What the .gst reader makes of the names CUPTI and PyTorch's emit_nvtx write (ingest/gst_names.h)
 * and of a GPU described by both CUPTI and the sampler: read back through gs_load_trace_buffer. */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "common/gst_writer.h"
#include "ingest/load.h"

#define MAX_FILE (1 << 16)

enum {
    S_KERNEL = 1, S_PLAIN_KERNEL, S_LAUNCH, S_LAUNCH_DRIVER, S_CAPTURE_INFO, S_OP, S_OP_SHAPES,
    S_USER, S_DOMAIN, S_IN_DOMAIN, S_GPU, S_UUID, S_UTIL, S_COUNT
};

static int put_str(gst_writer *w, gst_strid id, const char *s)
{
    return gst_writer_string(w, id, 0, s, strlen(s));
}

static int fill(gst_writer *w)
{
    static const char *const strings[S_COUNT] = {
        [S_KERNEL] = "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEESt5"
                     "arrayIPcLm1EEEEviT0_T1_",
        [S_PLAIN_KERNEL] = "nvjet_sm90_tst_128x128_64x6_4x2_h_bz_NTT",
        [S_LAUNCH] = "cudaLaunchKernel_v7000",
        [S_LAUNCH_DRIVER] = "cuMemAlloc_v2",
        [S_CAPTURE_INFO] = "cudaStreamGetCaptureInfo_v2_v11030",
        [S_OP] = "aten::fill_, seq = 5, op_id = 7",
        [S_OP_SHAPES] = "aten::fill_, seq = 6, op_id = 9, sizes = [[8, 8], []]",
        [S_USER] = "forward, seq = 1", /* in a domain of the user's: not PyTorch's */
        [S_DOMAIN] = "my_domain",
        [S_IN_DOMAIN] = "ProfilerStep#0",
        [S_GPU] = "NVIDIA H100 80GB HBM3",
        [S_UUID] = "GPU-96f8eb6e-4b4f-5f41-299a-8752558fc110",
        [S_UTIL] = "gpu_util_pct",
    };
    int rc = 0;
    for (gst_strid id = 1; id < S_COUNT; id++)
        rc |= put_str(w, id, strings[id]);
    /* The sampler's NVML record (index 1 here: another GPU is index 0 in PCI order), then
     * CUPTI's of the same GPU (CUDA ordinal 0). */
    gst_device nvml = {1, 0, 85520809984ull, 9, 0, 0, S_GPU, S_UUID};
    gst_device cuda = {0, 132, 85017493504ull, 9, 0, 2048, S_GPU, S_UUID};
    gst_counter util = {500, 75, 1, S_UTIL};
    rc |= gst_writer_add(w, GST_REC_DEVICE, &nvml) | gst_writer_add(w, GST_REC_DEVICE, &cuda);
    rc |= gst_writer_add(w, GST_REC_COUNTER, &util);
    gst_nvtx_range op = {1000, 2000, 7, 7, S_OP, 0, GST_NVTX_PUSH_POP};
    gst_nvtx_range shapes = {3000, 4000, 7, 7, S_OP_SHAPES, 0, GST_NVTX_PUSH_POP};
    gst_nvtx_range user = {5000, 6000, 7, 7, S_USER, S_DOMAIN, GST_NVTX_PUSH_POP};
    gst_nvtx_range step = {500, 7000, 7, 7, S_IN_DOMAIN, 0, GST_NVTX_PUSH_POP};
    rc |= gst_writer_add(w, GST_REC_NVTX_RANGE, &op) | gst_writer_add(w, GST_REC_NVTX_RANGE, &shapes);
    rc |= gst_writer_add(w, GST_REC_NVTX_RANGE, &user) | gst_writer_add(w, GST_REC_NVTX_RANGE, &step);
    gst_api launch = {1100, 1200, 7, 7, 1, 211, S_LAUNCH, GST_API_RUNTIME};
    gst_api alloc = {1300, 1400, 7, 7, 2, 1, S_LAUNCH_DRIVER, GST_API_DRIVER};
    gst_api info = {1500, 1600, 7, 7, 3, 2, S_CAPTURE_INFO, GST_API_RUNTIME};
    rc |= gst_writer_add(w, GST_REC_API, &launch) | gst_writer_add(w, GST_REC_API, &alloc);
    rc |= gst_writer_add(w, GST_REC_API, &info);
    gst_kernel k1 = {1250, 1300, 1, 0, 0, 7, S_KERNEL, {1, 1, 1}, {256, 1, 1}, 16, 0};
    gst_kernel k2 = {3100, 3200, 4, 0, 0, 7, S_PLAIN_KERNEL, {1, 1, 1}, {256, 1, 1}, 16, 0};
    rc |= gst_writer_add(w, GST_REC_KERNEL, &k1) | gst_writer_add(w, GST_REC_KERNEL, &k2);
    return rc ? -1 : gst_writer_flush(w);
}

static gs_trace *write_and_read(void)
{
    static uint8_t buf[1 << 16], file[MAX_FILE];
    char path[] = "/tmp/test_gst_names_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    gst_writer w;
    CHECK_INT(gst_writer_open(&w, fd, buf, sizeof buf, GST_CLOCK_REALTIME, 0), 0);
    CHECK_INT(fill(&w), 0);
    ssize_t n = pread(fd, file, sizeof file, 0);
    close(fd);
    unlink(path);
    gs_trace *t = NULL;
    gs_error err;
    CHECK_INT(gs_load_trace_buffer((const char *)file, n > 0 ? (size_t)n : 0, "names.gst", NULL,
                                   &t, &err),
              0);
    return t;
}

static const gs_range *range_at(const gs_trace *t, gs_ns start)
{
    for (size_t i = 0; i < t->ranges.n; i++)
        if (t->ranges.v[i].start == start)
            return &t->ranges.v[i];
    return NULL;
}

static const gs_api *api_at(const gs_trace *t, gs_ns start)
{
    for (size_t i = 0; i < t->apis.n; i++)
        if (t->apis.v[i].start == start)
            return &t->apis.v[i];
    return NULL;
}

int main(void)
{
    gs_trace *t = write_and_read();
    if (!t)
        return check_done("test_gst_names");
    CHECK_INT(t->kernels.n, 2);
    const gs_kernel *k = &t->kernels.v[0];
    CHECK_STR(gs_trace_str(t, k->name),
              "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
              "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, "
              "std::array<char*, 1ul>)");
    CHECK_STR(gs_trace_str(t, k->mangled),
              "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEESt5arrayIPc"
              "Lm1EEEEviT0_T1_");
    k = &t->kernels.v[1];
    CHECK_STR(gs_trace_str(t, k->name), "nvjet_sm90_tst_128x128_64x6_4x2_h_bz_NTT");
    CHECK_INT(k->mangled, GS_STR_EMPTY);

    CHECK_STR(gs_trace_str(t, api_at(t, 1100)->name), "cudaLaunchKernel");
    CHECK_STR(gs_trace_str(t, api_at(t, 1300)->name), "cuMemAlloc_v2");
    CHECK_STR(gs_trace_str(t, api_at(t, 1500)->name), "cudaStreamGetCaptureInfo_v2");

    const gs_range *r = range_at(t, 1000);
    CHECK_STR(gs_trace_str(t, r->name), "aten::fill_");
    CHECK_INT(r->kind, GS_RANGE_OP);
    CHECK(r->has_seq);
    CHECK_INT(r->seq, 5);
    CHECK_INT(r->op_id, 7);
    CHECK_STR(gs_trace_str(t, r->input_dims), "");
    r = range_at(t, 3000);
    CHECK_STR(gs_trace_str(t, r->name), "aten::fill_");
    CHECK_STR(gs_trace_str(t, r->input_dims), "[[8, 8], []]");
    r = range_at(t, 5000);
    CHECK_STR(gs_trace_str(t, r->name), "forward, seq = 1");
    CHECK_INT(r->kind, GS_RANGE_NVTX);
    r = range_at(t, 500);
    CHECK_STR(gs_trace_str(t, r->name), "ProfilerStep#0");
    CHECK_INT(r->kind, GS_RANGE_NVTX);

    CHECK_INT(t->devices.n, 1);
    CHECK_INT(t->devices.v[0].id, 0);
    CHECK_INT(t->devices.v[0].num_sms, 132);
    CHECK_INT(t->devices.v[0].total_memory, 85017493504ull);
    CHECK_INT(t->counters.v[0].device, 0); /* NVML's index 1 is CUDA's device 0 */
    CHECK(t->kernels.v[0].blocks_per_sm > 0); /* derived with the merged device's SMs */
    gs_trace_delete(t);
    return check_done("test_gst_names");
}
