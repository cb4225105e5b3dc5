/* The NVML probe over a fake function table: enumeration, every metric decoded exactly,
 * NOT_SUPPORTED and missing entry points as absent, other errors kept, the process list's
 * INSUFFICIENT_SIZE retry and unknown memory, and the messages when NVML cannot be loaded. */
#include "check.h"
#include "fake_nvml.h"

static void set_gpu0(void)
{
    fake_gpu *g = &fake.gpu[0];
    g->name = "NVIDIA H100 80GB HBM3";
    g->uuid = "GPU-12345678-abcd-ef01-2345-6789abcdef01";
    g->bus_id = "00000000:3B:00.0";
    g->cc_major = 9;
    g->cc_minor = 0;
    g->util = (nvmlUtilization_t){87, 45};
    g->mem = (nvmlMemory_t){85520809984ull, 85520809984ull - 1234567890123ull % 85520809984ull,
                            1234567890123ull % 85520809984ull};
    g->mw = 123456;
    g->temp_c = 71;
    g->sm_mhz = 1980;
    g->mem_mhz = 2619;
    g->throttle = 0x44;
    g->tx_kbps = 1000;
    g->rx_kbps = 3000000;
}

static void test_enumerate(void)
{
    gs_nvml_api api;
    fake_reset(3, &api);
    set_gpu0();
    fake.gpu[1].handle_rc = NVML_ERROR_NO_PERMISSION; /* outside this container */
    fake.gpu[2].name = "Tesla T4";
    fake.gpu[2].cc_rc = NVML_ERROR_NOT_SUPPORTED;
    fake.gpu[2].mem_rc = NVML_ERROR_NOT_SUPPORTED;
    gs_nvml *n = NULL;
    gs_error err;
    CHECK_INT(gs_nvml_open_api(&api, &n, &err), 0);
    CHECK_INT(fake.inits, 1);
    CHECK_INT(gs_nvml_device_count(n), 2);
    const gs_nvml_device *d = gs_nvml_device_at(n, 0);
    CHECK(d != NULL);
    if (d) {
        CHECK_INT(d->index, 0);
        CHECK_STR(d->name, "NVIDIA H100 80GB HBM3");
        CHECK_STR(d->uuid, "GPU-12345678-abcd-ef01-2345-6789abcdef01");
        CHECK_STR(d->pci_bus_id, "00000000:3B:00.0");
        CHECK_INT(d->total_memory, 85520809984ull);
        CHECK_INT(d->cc_major, 9);
        CHECK_INT(d->cc_minor, 0);
    }
    d = gs_nvml_device_at(n, 1);
    CHECK(d != NULL);
    if (d) {
        CHECK_INT(d->index, 2); /* the NVML index, past the device we may not see */
        CHECK_STR(d->name, "Tesla T4");
        CHECK_STR(d->uuid, "");
        CHECK_STR(d->pci_bus_id, "");
        CHECK_INT(d->total_memory, 0);
        CHECK_INT(d->cc_major, -1);
    }
    CHECK(gs_nvml_device_at(n, 2) == NULL);
    gs_nvml_close(n);
    CHECK_INT(fake.shutdowns, 1);
}

static void test_sample_values(void)
{
    gs_nvml_api api;
    fake_reset(1, &api);
    set_gpu0();
    gs_nvml *n = NULL;
    gs_error err;
    CHECK_INT(gs_nvml_open_api(&api, &n, &err), 0);
    gs_nvml_sample s = {0};
    CHECK_INT(gs_nvml_sample_device(n, 0, GS_NVML_WITH_PCIE, &s, &err), 0);
    for (int m = 0; m < GS_NVML_NMETRICS; m++)
        CHECK_INT(s.avail[m], GS_NVML_OK);
    CHECK(s.value[GS_NVML_UTIL_GPU] == 87);
    CHECK(s.value[GS_NVML_UTIL_MEM] == 45);
    CHECK(s.value[GS_NVML_MEM_USED] == (double)(1234567890123ull % 85520809984ull));
    CHECK(s.value[GS_NVML_MEM_TOTAL] == 85520809984.0);
    CHECK(s.value[GS_NVML_POWER_W] == 123.456);
    CHECK(s.value[GS_NVML_TEMP_C] == 71);
    CHECK(s.value[GS_NVML_SM_CLOCK_MHZ] == 1980);
    CHECK(s.value[GS_NVML_MEM_CLOCK_MHZ] == 2619);
    CHECK(s.value[GS_NVML_THROTTLE] == 0x44);
    CHECK(s.value[GS_NVML_PCIE_TX] == 1024000.0);
    CHECK(s.value[GS_NVML_PCIE_RX] == 3072000000.0);
    CHECK_INT(s.error, NVML_SUCCESS);
    CHECK_INT(fake.gpu[0].pcie_calls, 2);
    CHECK_INT(s.procs_avail, GS_NVML_NOT_READ); /* not asked for */
    CHECK_INT(fake.gpu[0].proc_calls, 0);

    /* Without GS_NVML_WITH_PCIE the blocking call is not made at all. */
    CHECK_INT(gs_nvml_sample_device(n, 0, 0, &s, &err), 0);
    CHECK_INT(fake.gpu[0].pcie_calls, 2);
    CHECK_INT(s.avail[GS_NVML_PCIE_TX], GS_NVML_NOT_READ);
    CHECK_INT(s.avail[GS_NVML_PCIE_RX], GS_NVML_NOT_READ);
    CHECK_INT(s.avail[GS_NVML_TEMP_C], GS_NVML_OK);

    CHECK_INT(gs_nvml_sample_device(n, 1, 0, &s, &err), -1);
    CHECK_STR(err.msg, "NVML: no device 1");
    CHECK_STR(gs_nvml_metric_name(GS_NVML_PCIE_RX), "gpu_pcie_rx_bytes_per_s");
    CHECK(gs_nvml_metric_name(GS_NVML_NMETRICS) == NULL);
    gs_nvml_sample_free(&s);
    gs_nvml_close(n);
}

static void test_absent_and_failed(void)
{
    gs_nvml_api api;
    fake_reset(1, &api);
    set_gpu0();
    fake.gpu[0].power_rc = NVML_ERROR_NOT_SUPPORTED;
    fake.gpu[0].memclk_rc = NVML_ERROR_NOT_SUPPORTED;
    fake.gpu[0].temp_rc = NVML_ERROR_GPU_IS_LOST;
    fake.gpu[0].sm_rc = NVML_ERROR_NO_PERMISSION;
    fake.gpu[0].pcie_rc = NVML_ERROR_NOT_SUPPORTED;
    api.get_throttle = NULL; /* an older driver without the entry point */
    gs_nvml *n = NULL;
    gs_error err;
    CHECK_INT(gs_nvml_open_api(&api, &n, &err), 0);
    gs_nvml_sample s = {0};
    CHECK_INT(gs_nvml_sample_device(n, 0, GS_NVML_WITH_PCIE | GS_NVML_WITH_PROCS, &s, &err), 0);
    CHECK_INT(s.avail[GS_NVML_POWER_W], GS_NVML_UNSUPPORTED);
    CHECK_INT(s.avail[GS_NVML_MEM_CLOCK_MHZ], GS_NVML_UNSUPPORTED);
    CHECK_INT(s.avail[GS_NVML_THROTTLE], GS_NVML_UNSUPPORTED);
    CHECK_INT(s.avail[GS_NVML_PCIE_TX], GS_NVML_UNSUPPORTED);
    CHECK_INT(s.avail[GS_NVML_TEMP_C], GS_NVML_FAILED);
    CHECK_INT(s.avail[GS_NVML_SM_CLOCK_MHZ], GS_NVML_FAILED);
    CHECK_INT(s.error, NVML_ERROR_GPU_IS_LOST); /* the first failure, in sampling order */
    CHECK_STR(gs_nvml_strerror(n, s.error), "GPU is lost");
    CHECK_INT(s.avail[GS_NVML_UTIL_GPU], GS_NVML_OK);
    CHECK(s.value[GS_NVML_UTIL_GPU] == 87);
    CHECK(s.value[GS_NVML_POWER_W] == 0);
    CHECK_INT(s.procs_avail, GS_NVML_OK);
    CHECK_INT(s.nprocs, 0);

    fake.gpu[0].procs_rc = NVML_ERROR_NOT_SUPPORTED;
    CHECK_INT(gs_nvml_sample_device(n, 0, GS_NVML_WITH_PROCS, &s, &err), 0);
    CHECK_INT(s.procs_avail, GS_NVML_UNSUPPORTED);
    fake.gpu[0].procs_rc = NVML_ERROR_NO_PERMISSION;
    fake.gpu[0].temp_rc = NVML_SUCCESS;
    fake.gpu[0].sm_rc = NVML_SUCCESS;
    CHECK_INT(gs_nvml_sample_device(n, 0, GS_NVML_WITH_PROCS, &s, &err), 0);
    CHECK_INT(s.procs_avail, GS_NVML_FAILED);
    CHECK_INT(s.error, NVML_ERROR_NO_PERMISSION);
    gs_nvml_sample_free(&s);
    gs_nvml_close(n);
}

static void test_processes(void)
{
    gs_nvml_api api;
    fake_reset(1, &api);
    fake_gpu *g = &fake.gpu[0];
    g->nprocs = 20; /* more than the first buffer holds */
    for (unsigned i = 0; i < g->nprocs; i++)
        g->procs[i] = (nvmlProcessInfo_t){1000 + i, (i + 1) * 1048576ull, ~0u, ~0u};
    g->procs[7].usedGpuMemory = NVML_VALUE_NOT_AVAILABLE;
    g->procs_grow = 3; /* and three start between the size answer and the read */
    gs_nvml *n = NULL;
    gs_error err;
    CHECK_INT(gs_nvml_open_api(&api, &n, &err), 0);
    gs_nvml_sample s = {0};
    CHECK_INT(gs_nvml_sample_device(n, 0, GS_NVML_WITH_PROCS, &s, &err), 0);
    CHECK_INT(g->proc_calls, 2);
    CHECK_INT(s.procs_avail, GS_NVML_OK);
    CHECK_INT(s.nprocs, 23);
    if (s.nprocs == 23) {
        CHECK_INT(s.procs[0].pid, 1000);
        CHECK_INT(s.procs[0].known, 1);
        CHECK_INT(s.procs[0].used_bytes, 1048576);
        CHECK_INT(s.procs[7].pid, 1007);
        CHECK_INT(s.procs[7].known, 0);
        CHECK_INT(s.procs[7].used_bytes, 0);
        CHECK_INT(s.procs[19].used_bytes, 20 * 1048576ull);
        CHECK_INT(s.procs[22].pid, 9022);
    }
    /* The buffer is kept: the next sample fits at the first call. */
    g->procs_grow = 0;
    CHECK_INT(gs_nvml_sample_device(n, 0, GS_NVML_WITH_PROCS, &s, &err), 0);
    CHECK_INT(g->proc_calls, 3);
    CHECK_INT(s.nprocs, 23);

    /* A list that outgrows every retry is a failure, not a loop: 40 needed against the 31
     * kept, then 20 more start after each answer. */
    g->nprocs = 40;
    g->procs_grow = 20;
    CHECK_INT(gs_nvml_sample_device(n, 0, GS_NVML_WITH_PROCS, &s, &err), 0);
    CHECK_INT(s.procs_avail, GS_NVML_FAILED);
    CHECK_INT(s.error, NVML_ERROR_INSUFFICIENT_SIZE);
    CHECK_INT(s.nprocs, 0);
    CHECK_INT(g->proc_calls, 3 + 4);
    gs_nvml_sample_free(&s);
    CHECK(s.procs == NULL);
    gs_nvml_close(n);
}

static void test_not_available(void)
{
    gs_nvml *n = (gs_nvml *)&n;
    gs_error err;
    CHECK_INT(gs_nvml_open("libgpuscope-no-such-nvml.so.1", &n, &err), -1);
    CHECK(n == NULL);
    CHECK_INT(err.code, GS_EXIT_ENV);
    CHECK_STR(err.msg, "NVML not available: libgpuscope-no-such-nvml.so.1 not found (no NVIDIA driver)");

    /* A library that loads but is not NVML (as an incomplete driver install would be). */
    CHECK_INT(gs_nvml_open("libm.so.6", &n, &err), -1);
    CHECK_INT(err.code, GS_EXIT_ENV);
    CHECK_STR(err.msg, "NVML not available: libm.so.6 has no nvmlInit_v2 (driver too old)");

    gs_nvml_api api;
    fake_reset(1, &api);
    fake.init_rc = NVML_ERROR_DRIVER_NOT_LOADED;
    CHECK_INT(gs_nvml_open_api(&api, &n, &err), -1);
    CHECK(n == NULL);
    CHECK_INT(err.code, GS_EXIT_ENV);
    CHECK_STR(err.msg,
              "NVML not available: nvmlInit_v2 failed: Driver Not Loaded (is the NVIDIA driver loaded?)");

    fake_reset(1, &api);
    api.get_handle = NULL;
    CHECK_INT(gs_nvml_open_api(&api, &n, &err), -1);
    CHECK_STR(err.msg, "NVML not available: incomplete function table");
    CHECK_INT(fake.inits, 0);

    /* A driver and no GPU: open, with nothing to sample. */
    fake_reset(0, &api);
    CHECK_INT(gs_nvml_open_api(&api, &n, &err), 0);
    CHECK_INT(gs_nvml_device_count(n), 0);
    gs_nvml_close(n);
    CHECK_INT(fake.shutdowns, 1);
}

int main(void)
{
    test_enumerate();
    test_sample_values();
    test_absent_and_failed();
    test_processes();
    test_not_available();
    return check_done("test_probe_nvml");
}
