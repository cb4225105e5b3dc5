/* The launcher's sampler end to end: a fake NVML and a fake /proc, ticks driven by the test, the
 * file read back with gs_load_trace and every counter checked in the model; the window; NVML
 * absent or failing; the thread on the real /proc. */
#include <fcntl.h>
#include <math.h>
#include <time.h>

#include "check.h"
#include "collect/sampler.h"
#include "fake_nvml.h"
#include "fake_proc.h"
#include "ingest/load.h"
#include "probe/proc.h"

#define T0 1700000000000000000LL
#define STEP 100000000LL /* 10 Hz */

static char trace_path[64];

static int new_trace(void)
{
    snprintf(trace_path, sizeof trace_path, "/tmp/test_sampler_XXXXXX");
    return mkstemp(trace_path);
}

static gs_trace *load(void)
{
    gs_trace *t = NULL;
    gs_error err;
    int rc = gs_load_trace(trace_path, NULL, &t, &err);
    CHECK_INT(rc, 0);
    if (rc)
        fprintf(stderr, "load: %s\n", err.msg);
    unlink(trace_path);
    return t;
}

/* The counter `name` of `device` at `ts`, NULL if none; *n counts all matches. */
static const gs_counter *find(const gs_trace *t, const char *name, int32_t device, int64_t ts,
                              int *n)
{
    const gs_counter *hit = NULL;
    *n = 0;
    for (size_t i = 0; i < t->counters.n; i++) {
        const gs_counter *c = &t->counters.v[i];
        if (c->device == device && c->ts == ts && strcmp(gs_trace_str(t, c->name), name) == 0) {
            hit = c;
            ++*n;
        }
    }
    return hit;
}

static int count(const gs_trace *t, const char *name, int32_t device)
{
    int n = 0;
    for (size_t i = 0; i < t->counters.n; i++)
        n += t->counters.v[i].device == device &&
             strcmp(gs_trace_str(t, t->counters.v[i].name), name) == 0;
    return n;
}

/* Checks that exactly one counter (name, device, ts) exists and has `want`. */
#define CHECK_COUNTER(t, name, device, ts, want)                                                   \
    do {                                                                                           \
        int n_;                                                                                    \
        const gs_counter *c_ = find(t, name, device, ts, &n_);                                     \
        CHECK_INT(n_, 1);                                                                          \
        CHECK(c_ && c_->value == (double)(want));                                                  \
    } while (0)

static void setup_gpus(gs_nvml_api *api)
{
    fake_reset(2, api);
    fake_gpu *g = &fake.gpu[0];
    g->name = "NVIDIA A100-SXM4-40GB";
    g->uuid = "GPU-aaaaaaaa-0000-1111-2222-333333333333";
    g->cc_major = 8;
    g->mem = (nvmlMemory_t){42949672960ull, 40000000000ull, 2949672960ull};
    g->mw = 250500;
    g->temp_c = 60;
    g->sm_mhz = 1410;
    g->mem_mhz = 1215;
    g->throttle = 0x1;
    g->tx_kbps = 10;
    g->rx_kbps = 20;
    g->nprocs = 2;
    g->procs[0] = (nvmlProcessInfo_t){500, 1073741824ull, ~0u, ~0u};
    g->procs[1] = (nvmlProcessInfo_t){777, NVML_VALUE_NOT_AVAILABLE, ~0u, ~0u};
    fake_gpu *h = &fake.gpu[1];
    h->name = "NVIDIA A100-SXM4-40GB";
    h->uuid = "GPU-bbbbbbbb-0000-1111-2222-333333333333";
    h->cc_major = 8;
    h->mem = (nvmlMemory_t){42949672960ull, 42949672960ull, 0};
    h->power_rc = NVML_ERROR_NOT_SUPPORTED;
    h->pcie_rc = NVML_ERROR_NOT_SUPPORTED;
}

/* Tick i: the target (500) and its child (501) each used 5 more ticks; GPU 0's utilisation is
 * 10 + i, so every sample is told apart. */
static void advance(int i)
{
    fake_proc_set(500, "python run.py", 1, 100 + 5ull * i, 7, 1000, 2048);
    fake_proc_set(501, "pt_data_worker", 500, 40 + 5ull * i, 0, 1001, 1024);
    fake.gpu[0].util = (nvmlUtilization_t){10u + (unsigned)i, 3u * (unsigned)i};
}

static int run_ticks(gs_sampler *s, int nticks)
{
    gs_error err;
    for (int i = 0; i < nticks; i++) {
        advance(i);
        if (gs_sampler_tick(s, T0 + i * STEP, &err) != 0)
            return -1;
    }
    return 0;
}

static void test_ticks(void)
{
    gs_nvml_api api;
    setup_gpus(&api);
    gs_nvml *nv = NULL;
    gs_error err;
    CHECK_INT(gs_nvml_open_api(&api, &nv, &err), 0);
    int fd = new_trace();
    gs_sampler_opts o = {fd, nv, fake_proc_root, 500, 10, 0, 0};
    gs_sampler *s = NULL;
    CHECK_INT(gs_sampler_create(&o, &s, &err), 0);
    if (!s)
        return;
    CHECK_INT(run_ticks(s, 12), 0);
    CHECK_INT(gs_sampler_samples(s), 12);
    CHECK_INT(gs_sampler_stop(s, GS_SAMPLER_STOP_WAIT_NS, &err), 0);
    gs_sampler_destroy(s);
    close(fd);
    gs_nvml_close(nv);
    gs_trace *t = load();
    if (!t)
        return;

    CHECK_INT(t->devices.n, 2);
    if (t->devices.n == 2) {
        CHECK_INT(t->devices.v[0].id, 0);
        CHECK_STR(gs_trace_str(t, t->devices.v[0].name), "NVIDIA A100-SXM4-40GB");
        CHECK_STR(gs_trace_str(t, t->devices.v[0].uuid), "GPU-aaaaaaaa-0000-1111-2222-333333333333");
        CHECK_INT(t->devices.v[0].total_memory, 42949672960ull);
        CHECK_INT(t->devices.v[0].compute_major, 8);
        CHECK_INT(t->devices.v[1].id, 1);
        CHECK_STR(gs_trace_str(t, t->devices.v[1].uuid), "GPU-bbbbbbbb-0000-1111-2222-333333333333");
    }
    long hz = gs_proc_ticks_per_second();
    for (int i = 0; i < 12; i++) {
        int64_t ts = T0 + i * STEP;
        CHECK_COUNTER(t, "gpu_util_pct", 0, ts, 10 + i);
        CHECK_COUNTER(t, "gpu_mem_util_pct", 0, ts, 3 * i);
        CHECK_COUNTER(t, "gpu_mem_used_bytes", 0, ts, 2949672960ull);
        CHECK_COUNTER(t, "gpu_mem_total_bytes", 0, ts, 42949672960ull);
        CHECK_COUNTER(t, "gpu_power_w", 0, ts, 250.5);
        CHECK_COUNTER(t, "gpu_temp_c", 0, ts, 60);
        CHECK_COUNTER(t, "gpu_sm_clock_mhz", 0, ts, 1410);
        CHECK_COUNTER(t, "gpu_mem_clock_mhz", 0, ts, 1215);
        CHECK_COUNTER(t, "gpu_throttle_reasons", 0, ts, 1);
        CHECK_COUNTER(t, "gpu_proc_mem_bytes:500", 0, ts, 1073741824ull);
        CHECK_COUNTER(t, "gpu_util_pct", 1, ts, 0);
        CHECK_COUNTER(t, "host_rss_bytes", -1, ts, 3072 * 1024);
        CHECK_COUNTER(t, "host_procs", -1, ts, 2);
        if (i > 0) { /* 10 ticks of the tree in 0.1 s */
            int n;
            const gs_counter *c = find(t, "host_cpu_pct", -1, ts, &n);
            CHECK_INT(n, 1);
            CHECK(c && fabs(c->value - 100.0 * (10.0 / (double)hz) / 0.1) < 1e-9);
        }
    }
    /* PCIe once a second: ticks 0 and 10; GPU 1 has no power or PCIe counters at all. */
    CHECK_INT(count(t, "gpu_pcie_tx_bytes_per_s", 0), 2);
    CHECK_COUNTER(t, "gpu_pcie_tx_bytes_per_s", 0, T0, 10240);
    CHECK_COUNTER(t, "gpu_pcie_rx_bytes_per_s", 0, T0 + 10 * STEP, 20480);
    CHECK_INT(count(t, "gpu_pcie_rx_bytes_per_s", 0), 2);
    CHECK_INT(count(t, "gpu_pcie_tx_bytes_per_s", 1), 0);
    CHECK_INT(count(t, "gpu_power_w", 1), 0);
    CHECK_INT(count(t, "host_cpu_pct", -1), 11);
    CHECK_INT(count(t, "gpu_proc_mem_bytes:777", 0), 0); /* memory unknown */
    /* Per tick: GPU 0 has 9 metrics and 1 process, GPU 1 has 8 metrics, the host 3 (2 on the
     * first); PCIe adds 2 on two ticks. */
    CHECK_INT(t->counters.n, 12 * (9 + 1 + 8 + 3) - 1 + 2 * 2);
    gs_trace_delete(t);
}

static void test_window(void)
{
    gs_nvml_api api;
    setup_gpus(&api);
    gs_nvml *nv = NULL;
    gs_error err;
    CHECK_INT(gs_nvml_open_api(&api, &nv, &err), 0);
    int fd = new_trace();
    gs_sampler_opts o = {fd, nv, fake_proc_root, 500, 10, T0 + 3 * STEP, T0 + 7 * STEP};
    gs_sampler *s = NULL;
    CHECK_INT(gs_sampler_create(&o, &s, &err), 0);
    if (!s)
        return;
    CHECK_INT(run_ticks(s, 12), 0);
    CHECK_INT(gs_sampler_samples(s), 5);
    gs_sampler_destroy(s);
    close(fd);
    gs_nvml_close(nv);
    gs_trace *t = load();
    if (!t)
        return;
    CHECK_INT(count(t, "gpu_util_pct", 0), 5);
    CHECK_INT(count(t, "host_procs", -1), 5);
    /* The first sample inside has a CPU %: /proc was read on the tick before the window. */
    CHECK_INT(count(t, "host_cpu_pct", -1), 5);
    CHECK(find(t, "host_cpu_pct", -1, T0 + 3 * STEP, &(int){0}) != NULL);
    CHECK_COUNTER(t, "gpu_util_pct", 0, T0 + 3 * STEP, 13);
    CHECK_COUNTER(t, "gpu_util_pct", 0, T0 + 7 * STEP, 17);
    CHECK_INT(count(t, "gpu_pcie_tx_bytes_per_s", 0), 1);
    CHECK_COUNTER(t, "gpu_pcie_tx_bytes_per_s", 0, T0 + 3 * STEP, 10240);
    CHECK_INT(t->counters.v[0].ts, T0 + 3 * STEP);
    CHECK_INT(t->counters.v[t->counters.n - 1].ts, T0 + 7 * STEP);
    gs_trace_delete(t);
}

/* No NVML: host counters only. NVML that fails every call after opening: no GPU counters, and
 * the sampler goes on. */
static void test_without_gpu(void)
{
    gs_error err;
    int fd = new_trace();
    gs_sampler_opts o = {fd, NULL, fake_proc_root, 500, 10, 0, 0};
    gs_sampler *s = NULL;
    CHECK_INT(gs_sampler_create(&o, &s, &err), 0);
    if (!s)
        return;
    CHECK_INT(run_ticks(s, 3), 0);
    /* The target and its child exit: the tree is empty, and says so. */
    fake_proc_remove(500);
    fake_proc_remove(501);
    CHECK_INT(gs_sampler_tick(s, T0 + 3 * STEP, &err), 0);
    gs_sampler_destroy(s);
    close(fd);
    gs_trace *t = load();
    if (t) {
        CHECK_INT(t->devices.n, 0);
        CHECK_INT(t->counters.n, 3 + 3 + 2 + 3);
        CHECK_INT(count(t, "host_procs", -1), 4);
        CHECK_COUNTER(t, "host_procs", -1, T0 + 2 * STEP, 2);
        CHECK_COUNTER(t, "host_procs", -1, T0 + 3 * STEP, 0);
        CHECK_COUNTER(t, "host_rss_bytes", -1, T0 + 3 * STEP, 0);
        CHECK_COUNTER(t, "host_cpu_pct", -1, T0 + 3 * STEP, 0);
        gs_trace_delete(t);
    }

    gs_nvml_api api;
    setup_gpus(&api);
    gs_nvml *nv = NULL;
    CHECK_INT(gs_nvml_open_api(&api, &nv, &err), 0);
    for (int i = 0; i < 2; i++) {
        fake_gpu *g = &fake.gpu[i];
        g->util_rc = g->mem_rc = g->power_rc = g->temp_rc = g->sm_rc = g->memclk_rc =
            g->throttle_rc = g->pcie_rc = g->procs_rc = NVML_ERROR_GPU_IS_LOST;
    }
    fd = new_trace();
    o = (gs_sampler_opts){fd, nv, fake_proc_root, 500, 10, 0, 0};
    CHECK_INT(gs_sampler_create(&o, &s, &err), 0);
    if (!s)
        return;
    CHECK_INT(run_ticks(s, 3), 0);
    gs_sampler_destroy(s);
    close(fd);
    gs_nvml_close(nv);
    t = load();
    if (t) {
        CHECK_INT(t->devices.n, 2); /* enumerated while the GPUs still answered */
        CHECK_INT(t->counters.n, 3 + 3 + 2);
        CHECK_INT(count(t, "gpu_util_pct", 0), 0);
        gs_trace_delete(t);
    }
}

static void test_errors(void)
{
    gs_error err;
    gs_sampler *s = NULL;
    gs_sampler_opts o = {-1, NULL, fake_proc_root, 500, 0, 0, 0};
    CHECK_INT(gs_sampler_create(&o, &s, &err), -1);
    CHECK_INT(err.code, GS_EXIT_USAGE);
    CHECK_STR(err.msg, "sample rate 0 Hz: want more than 0 and at most 1000");
    o.rate_hz = 10;
    CHECK_INT(gs_sampler_create(&o, &s, &err), -1);
    CHECK(s == NULL);
    CHECK_STR(err.msg, "cannot write the sampler's trace: Bad file descriptor");
}

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The thread at 20 Hz on this process in the real /proc: it samples, and stop returns promptly
 * (well under a second, where one interval is 50 ms) with everything in the file. */
static void test_thread(void)
{
    gs_error err;
    int fd = new_trace();
    gs_sampler_opts o = {fd, NULL, "/proc", getpid(), 20, 0, 0};
    gs_sampler *s = NULL;
    CHECK_INT(gs_sampler_create(&o, &s, &err), 0);
    if (!s)
        return;
    CHECK_INT(gs_sampler_start(s, &err), 0);
    CHECK_INT(gs_sampler_start(s, &err), -1);
    struct timespec pause = {0, 300000000};
    nanosleep(&pause, NULL);
    int64_t before = mono_ns();
    CHECK_INT(gs_sampler_stop(s, GS_SAMPLER_STOP_WAIT_NS, &err), 0);
    CHECK(mono_ns() - before < 1000000000LL);
    uint64_t samples = gs_sampler_samples(s);
    CHECK(samples >= 2);
    gs_sampler_destroy(s);
    close(fd);
    gs_trace *t = load();
    if (t) {
        CHECK_INT(count(t, "host_procs", -1), samples);
        CHECK_INT(count(t, "host_cpu_pct", -1), samples - 1);
        for (size_t i = 0; i < t->counters.n; i++)
            if (strcmp(gs_trace_str(t, t->counters.v[i].name), "host_rss_bytes") == 0)
                CHECK(t->counters.v[i].value > 0);
        gs_trace_delete(t);
    }
}

int main(void)
{
    fake_proc_init();
    test_ticks();
    test_window();
    test_without_gpu();
    test_errors();
    fake_proc_cleanup();
    test_thread();
    return check_done("test_sampler");
}
