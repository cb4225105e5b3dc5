/* gs_trace_merge_devices: one device per physical GPU, CUPTI's and NVML's records of a GPU merged
 * by UUID, NVML's counters renumbered to CUDA's id. */
#include "check.h"
#include "trace_builder.h"

static void add_device(gs_trace *t, int32_t id, int32_t sms, uint64_t mem, int32_t cc,
                       const char *uuid)
{
    gs_device *d = GS_VEC_PUSH(&t->devices);
    *d = (gs_device){.id = id, .name = tb_str(t, "NVIDIA H100 80GB HBM3"), .total_memory = mem,
                     .num_sms = sms, .compute_major = cc, .max_threads_per_sm = sms ? 2048 : 0,
                     .uuid = uuid ? tb_str(t, uuid) : GS_STR_EMPTY};
}

static void add_counter(gs_trace *t, int32_t device, double v)
{
    gs_counter *c = GS_VEC_PUSH(&t->counters);
    *c = (gs_counter){.ts = 1, .name = tb_str(t, "gpu_util_pct"), .device = device, .value = v};
}

/* One GPU described by the sampler (NVML, written first) and by CUPTI. */
static void test_one_gpu(void)
{
    gs_trace *t = tb_new("one.gst", 0);
    add_device(t, 0, 0, 85520809984ull, 9, "GPU-96f8eb6e");
    add_device(t, 0, 132, 85017493504ull, 9, "GPU-96f8eb6e");
    add_counter(t, 0, 50);
    gs_error err;
    CHECK_INT(gs_trace_merge_devices(t, &err), 0);
    CHECK_INT(t->devices.n, 1);
    CHECK_INT(t->devices.v[0].id, 0);
    CHECK_INT(t->devices.v[0].num_sms, 132);
    CHECK_INT(t->devices.v[0].total_memory, 85017493504ull); /* CUDA's, as torch.profiler shows */
    CHECK_INT(t->devices.v[0].max_threads_per_sm, 2048);
    CHECK_INT(t->counters.v[0].device, 0);
    gs_trace_delete(t);
}

/* CUDA_VISIBLE_DEVICES=1 on a 2-GPU machine: CUDA's device 0 is NVML's index 1; NVML's index 0
 * is a GPU the program never used, whose id 0 CUDA holds, so it moves to the first free id. */
static void test_visible_devices(void)
{
    gs_trace *t = tb_new("visible.gst", 0);
    add_device(t, 0, 0, 80, 0, "GPU-aaaa"); /* NVML: no compute capability known */
    add_device(t, 1, 0, 81, 9, "GPU-bbbb");
    add_device(t, 0, 132, 79, 9, "GPU-bbbb");
    add_counter(t, 0, 10); /* the unused GPU */
    add_counter(t, 1, 90); /* the program's GPU */
    add_counter(t, -1, 5); /* host */
    gs_error err;
    CHECK_INT(gs_trace_merge_devices(t, &err), 0);
    CHECK_INT(t->devices.n, 2);
    CHECK_INT(t->devices.v[0].id, 0);
    CHECK_INT(t->devices.v[0].num_sms, 132);
    CHECK_INT(t->devices.v[0].total_memory, 79);
    CHECK_STR(gs_trace_str(t, t->devices.v[0].uuid), "GPU-bbbb");
    CHECK_INT(t->devices.v[1].id, 2); /* 0 is CUDA's, 1 another record's index */
    CHECK_STR(gs_trace_str(t, t->devices.v[1].uuid), "GPU-aaaa");
    CHECK_INT(t->counters.v[0].device, 2);
    CHECK_INT(t->counters.v[1].device, 0);
    CHECK_INT(t->counters.v[2].device, -1);
    gs_trace_delete(t);
}

/* Two processes of one merged trace each describe the GPU; a record without UUID stays apart;
 * what the first CUDA record left unknown comes from the other CUDA record before NVML's. */
static void test_two_processes(void)
{
    gs_trace *t = tb_new("two.gst", 0);
    add_device(t, 0, 132, 0, 9, "GPU-cccc");
    add_device(t, 0, 0, 85520809984ull, 9, "GPU-cccc");
    add_device(t, 0, 132, 85017493504ull, 9, "GPU-cccc");
    add_device(t, 3, 0, 1, 8, NULL);
    gs_error err;
    CHECK_INT(gs_trace_merge_devices(t, &err), 0);
    CHECK_INT(t->devices.n, 2);
    CHECK_INT(t->devices.v[0].num_sms, 132);
    CHECK_INT(t->devices.v[0].total_memory, 85017493504ull);
    CHECK_INT(t->devices.v[1].id, 3);
    gs_trace_delete(t);
}

int main(void)
{
    test_one_gpu();
    test_visible_devices();
    test_two_processes();
    return check_done("test_devices");
}
