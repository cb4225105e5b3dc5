/* The monitor's renderers on hand-made snapshots: Prometheus families and escaping, throttle
 * reason names, and the absent, failed and hostile values of the table, CSV and JSON. */
#include <stdlib.h>

#include "check.h"
#include "monitor/prometheus.h"
#include "monitor/live_table.h"

static char *render(void (*fn)(FILE *, const gs_snapshot *, const void *), const gs_snapshot *s,
                    const void *arg)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    fn(out, s, arg);
    fclose(out);
    return text;
}

static void prom(FILE *out, const gs_snapshot *s, const void *h)
{
    gs_prom_write(out, s, h);
}

static void table(FILE *out, const gs_snapshot *s, const void *note)
{
    gs_live_table_text(out, s, note);
}

static void csv(FILE *out, const gs_snapshot *s, const void *arg)
{
    (void)arg;
    gs_live_table_csv(out, s, true);
}

static void json(FILE *out, const gs_snapshot *s, const void *arg)
{
    (void)arg;
    gs_live_table_json(out, s);
}

static int count(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

static gs_mon_gpu *gpu(gs_snapshot *s, unsigned index, const char *name)
{
    gs_mon_gpu *g = gs_snapshot_add_gpu(s);
    g->index = index;
    snprintf(g->name, sizeof g->name, "%s", name);
    snprintf(g->uuid, sizeof g->uuid, "GPU-%u", index);
    return g;
}

static void set(gs_mon_gpu *g, enum gs_nvml_metric m, double v)
{
    g->avail[m] = GS_NVML_OK;
    g->value[m] = v;
}

static void throttle_names(void)
{
    char buf[128];
    gs_throttle_names(0, ",", buf, sizeof buf);
    CHECK_STR(buf, "none");
    gs_throttle_names(0x44, ", ", buf, sizeof buf);
    CHECK_STR(buf, "sw_power_cap, hw_thermal_slowdown");
    gs_throttle_names(0x10001, "|", buf, sizeof buf);
    CHECK_STR(buf, "gpu_idle|0x10000");
    gs_throttle_names(0x1ff, "|", buf, 12); /* cut, never overflowing */
    CHECK(strlen(buf) < 12);
}

static void label_escaping(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    gs_prom_label_value(out, "a\"b\\c\nd\xff\xc3\xa9");
    fclose(out);
    CHECK_STR(text, "a\\\"b\\\\c\\nd\xef\xbf\xbd\xc3\xa9");
    free(text);
}

static void exposition(void)
{
    gs_prom_health h = {false, 1, 0, 0, 0};
    char *text = render(prom, NULL, &h);
    CHECK(strstr(text, "\ngpuscope_exporter_up 0\n") != NULL);
    CHECK(strstr(text, "last_sample_age") == NULL); /* no sample, no age */
    CHECK(strstr(text, "DCGM_") == NULL);
    free(text);

    gs_snapshot s = {0};
    snprintf(s.hostname, sizeof s.hostname, "h\"1");
    gs_mon_gpu *a = gpu(&s, 0, "A"), *b = gpu(&s, 1, "B");
    a->avail[GS_NVML_UTIL_GPU] = GS_NVML_UNSUPPORTED;
    set(b, GS_NVML_UTIL_GPU, 55);
    set(a, GS_NVML_MEM_USED, 3 * 1048576.0 + 5); /* FB_USED is whole MiB: 3 */
    set(a, GS_NVML_MEM_TOTAL, 10 * 1048576.0);
    set(b, GS_NVML_MEM_USED, 1048576.0); /* no total: no FB_FREE for B */
    set(a, GS_NVML_PCIE_RX, 2048);       /* KB/s: 2 */
    a->procs_avail = GS_NVML_OK;
    gs_mon_proc *p = gs_mon_gpu_add_proc(a);
    *p = (gs_mon_proc){42, "x", true, 100};
    p = gs_mon_gpu_add_proc(a); /* the same pid again (two MIG instances): one series, summed */
    *p = (gs_mon_proc){42, "x", true, 23};
    p = gs_mon_gpu_add_proc(a); /* unknown memory: no series */
    *p = (gs_mon_proc){43, "y", false, 0};
    h = (gs_prom_health){true, 7, 3, 2, 1.5};
    text = render(prom, &s, &h);
    CHECK_INT(count(text, "DCGM_FI_DEV_GPU_UTIL{"), 1);
    CHECK(strstr(text, "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",UUID=\"GPU-1\",pci_bus_id=\"\","
                       "device=\"nvidia1\",modelName=\"B\",Hostname=\"h\\\"1\"} 55\n") != NULL);
    CHECK(strstr(text, "DCGM_FI_DEV_POWER_USAGE") == NULL); /* no GPU has it: no family */
    CHECK_INT(count(text, "# TYPE DCGM_FI_DEV_FB_USED gauge\n"), 1);
    CHECK(strstr(text, "modelName=\"A\",Hostname=\"h\\\"1\"} 3\n") != NULL);
    CHECK_INT(count(text, "DCGM_FI_DEV_FB_FREE{"), 1);
    CHECK(strstr(text, "DCGM_FI_DEV_FB_FREE{gpu=\"0\"") != NULL);
    CHECK(strstr(text, "DCGM_FI_DEV_PCIE_RX_THROUGHPUT{gpu=\"0\"") != NULL);
    CHECK(strstr(text, "} 2\n") != NULL);
    CHECK_INT(count(text, "gpuscope_process_gpu_memory_bytes{"), 1);
    CHECK(strstr(text, "gpuscope_process_gpu_memory_bytes{pid=\"42\",process=\"x\",gpu=\"0\","
                       "UUID=\"GPU-0\",Hostname=\"h\\\"1\"} 123\n") != NULL);
    CHECK(strstr(text, "\ngpuscope_exporter_scrapes_total 7\n") != NULL);
    CHECK(strstr(text, "\ngpuscope_exporter_last_sample_age_seconds 1.5\n") != NULL);
    CHECK(strstr(text, "\ngpuscope_exporter_nvml_errors_total 2\n") != NULL);
    CHECK(strstr(text, "gpuscope_host_") == NULL); /* host metrics not read */
    /* Every family has one HELP and one TYPE. */
    CHECK_INT(count(text, "# HELP "), count(text, "# TYPE "));
    free(text);
    gs_snapshot_free(&s);
}

static void views(void)
{
    gs_snapshot s = {0};
    s.ts_ms = 1717000000123LL;
    snprintf(s.hostname, sizeof s.hostname, "n");
    gs_mon_gpu *a = gpu(&s, 0, "Evil\033[2J, \"GPU\"");
    a->avail[GS_NVML_POWER_W] = GS_NVML_UNSUPPORTED;
    a->avail[GS_NVML_TEMP_C] = GS_NVML_FAILED;
    set(a, GS_NVML_UTIL_GPU, 7);
    set(a, GS_NVML_THROTTLE, 0x8);
    char *text = render(table, &s, "(stale)");
    CHECK(strstr(text, "n  2024-05-29 16:26:40.123 UTC  1 GPU  (stale)\n") != NULL);
    CHECK(strchr(text, '\033') == NULL); /* control characters never reach the terminal */
    CHECK(strstr(text, "Evil?[2J") != NULL);
    CHECK(strstr(text, "n/a") != NULL && strstr(text, "err") != NULL);
    CHECK(strstr(text, "GPU 0 clocks throttled by: hw_slowdown\n") != NULL);
    CHECK(strstr(text, "GPU processes: not available") != NULL); /* not read: no "none" */
    free(text);
    text = render(csv, &s, NULL);
    CHECK(strstr(text, ",\"Evil\033[2J, \"\"GPU\"\"\",") != NULL);
    CHECK(strstr(text, ",7,,,,,,,,8,,,hw_slowdown,\n") != NULL);
    free(text);
    text = render(json, &s, NULL);
    CHECK(strstr(text, "\"gpu_power_w\":null") != NULL);
    CHECK(strstr(text, "\"throttle_reason_names\":[\"hw_slowdown\"]") != NULL);
    CHECK(strstr(text, "\"processes\":null") != NULL);
    CHECK(strstr(text, "\\u001b") != NULL);
    CHECK_INT(count(text, "\n"), 1); /* one line per sample */
    free(text);
    gs_snapshot_free(&s);
}

int main(void)
{
    throttle_names();
    label_escaping();
    exposition();
    views();
    return check_done("test_monitor_render");
}
