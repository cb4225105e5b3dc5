/* Fuzz target for the live monitor path: what NVML and /proc give, through the probe and the
 * live sampler (src/probe/nvml.c, proc.c, src/monitor/live.c), into snapshots, then every
 * renderer (Prometheus text, table, CSV, JSON, the log line) and the log read back as
 * `monitor --replay` reads it.
 *
 * The input drives a fake NVML (every answer: return code, numbers at any width, strings with
 * any bytes and no NUL, process lists of any size) and a fake /proc (stat, meminfo, the
 * processes' comm) written from it. Beyond what the sanitizers catch, it aborts when the
 * monitor cannot read its own log line back, or reads back something else than it wrote (GPU
 * count, availability of each metric and of the process list, the processes, whole numbers). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "monitor/jsonl.h"
#include "monitor/live.h"
#include "monitor/live_table.h"
#include "monitor/prometheus.h"
#include "monitor/replay.h"
#include "probe/nvml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_GPUS 3
#define MAX_PROCS 300 /* per answer: enough for every path of the probe, fast enough to fuzz */
#define NPIDS 8       /* pids 1..8 have a comm file; others come from the input at full width */

/* ---- the input, taken a piece at a time (zeros once it runs out) ----------------------------- */

static const uint8_t *in_p, *in_end;

static void take(void *out, size_t n)
{
    size_t have = (size_t)(in_end - in_p) < n ? (size_t)(in_end - in_p) : n;
    memcpy(out, in_p, have);
    memset((uint8_t *)out + have, 0, n - have);
    in_p += have;
}

static uint8_t take_u8(void)
{
    uint8_t v;
    take(&v, 1);
    return v;
}

/* A number as NVML would hand it: small mostly, else any value of the width. */
static uint64_t take_number(unsigned bytes)
{
    uint8_t how = take_u8();
    uint64_t v = 0;
    take(&v, how & 1 ? bytes : 2);
    return how & 2 ? ~0ull >> (64 - 8 * bytes) : v; /* all ones: NVML's "not available" */
}

static nvmlReturn_t take_rc(void)
{
    static const nvmlReturn_t codes[] = {NVML_SUCCESS, NVML_SUCCESS, NVML_SUCCESS, NVML_SUCCESS,
                                         NVML_ERROR_NOT_SUPPORTED, NVML_ERROR_NO_PERMISSION,
                                         NVML_ERROR_GPU_IS_LOST, NVML_ERROR_UNKNOWN};
    return codes[take_u8() % (sizeof codes / sizeof codes[0])];
}

/* ---- the fake NVML --------------------------------------------------------------------------- */

static unsigned ngpus;

static nvmlReturn_t f_init(void)
{
    return NVML_SUCCESS;
}

static nvmlReturn_t f_shutdown(void)
{
    return NVML_SUCCESS;
}

static const char *f_error_string(nvmlReturn_t r)
{
    return r == NVML_SUCCESS ? "Success" : "Fuzzed error";
}

static nvmlReturn_t f_count(unsigned *n)
{
    *n = ngpus;
    return NVML_SUCCESS;
}

static nvmlReturn_t f_handle(unsigned i, nvmlDevice_t *d)
{
    *d = (nvmlDevice_t)(uintptr_t)(i + 1);
    return take_rc();
}

/* Up to len bytes of the input, NUL-terminated only when the input says so. */
static nvmlReturn_t f_string(char *out, unsigned len)
{
    nvmlReturn_t r = take_rc();
    unsigned n = take_u8() % (len + 1);
    take(out, n);
    if (n < len)
        out[n] = '\0';
    return r;
}

static nvmlReturn_t f_name(nvmlDevice_t d, char *out, unsigned len)
{
    (void)d;
    return f_string(out, len);
}

static nvmlReturn_t f_pci(nvmlDevice_t d, nvmlPciInfo_t *p)
{
    (void)d;
    return f_string(p->busId, sizeof p->busId);
}

static nvmlReturn_t f_cc(nvmlDevice_t d, int *major, int *minor)
{
    (void)d;
    *major = (int)(int8_t)take_u8();
    *minor = (int)(int8_t)take_u8();
    return take_rc();
}

static nvmlReturn_t f_util(nvmlDevice_t d, nvmlUtilization_t *u)
{
    (void)d;
    u->gpu = (unsigned)take_number(4);
    u->memory = (unsigned)take_number(4);
    return take_rc();
}

static nvmlReturn_t f_mem(nvmlDevice_t d, nvmlMemory_t *m)
{
    (void)d;
    m->total = take_number(8);
    m->used = take_number(8);
    m->free = m->total - m->used;
    return take_rc();
}

static nvmlReturn_t f_uint(nvmlDevice_t d, unsigned *v)
{
    (void)d;
    *v = (unsigned)take_number(4);
    return take_rc();
}

static nvmlReturn_t f_uint_arg(nvmlDevice_t d, int arg, unsigned *v)
{
    (void)arg;
    return f_uint(d, v);
}

static nvmlReturn_t f_throttle(nvmlDevice_t d, unsigned long long *mask)
{
    (void)d;
    *mask = take_number(8);
    return take_rc();
}

static nvmlReturn_t f_procs(nvmlDevice_t d, unsigned *count, nvmlProcessInfo_t *infos)
{
    (void)d;
    nvmlReturn_t r = take_rc();
    uint8_t how = take_u8();
    /* Mostly a list that fits; sometimes more than asked for, or a count a broken driver gives. */
    unsigned want = how & 0x80 ? (unsigned)take_number(4) : (unsigned)(take_u8() % 8);
    if (r != NVML_SUCCESS)
        return r;
    if (!infos || *count < want) {
        *count = want;
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    unsigned n = want < MAX_PROCS ? want : MAX_PROCS;
    for (unsigned i = 0; i < n; i++) {
        uint8_t pid = take_u8();
        infos[i].pid = pid & 0x80 ? (unsigned)take_number(4) : (unsigned)(pid % NPIDS + 1);
        infos[i].usedGpuMemory = take_number(8);
        infos[i].gpuInstanceId = infos[i].computeInstanceId = ~0u;
    }
    *count = n;
    return NVML_SUCCESS;
}

static const gs_nvml_api api = {
    .init = f_init, .shutdown = f_shutdown, .error_string = f_error_string,
    .get_count = f_count, .get_handle = f_handle, .get_name = f_name, .get_uuid = f_name,
    .get_pci = f_pci, .get_cc = f_cc, .get_util = f_util, .get_mem = f_mem,
    .get_power = f_uint, .get_temp = f_uint_arg, .get_clock = f_uint_arg,
    .get_throttle = f_throttle, .get_pcie = f_uint_arg, .get_procs = f_procs,
};

/* ---- the fake /proc -------------------------------------------------------------------------- */

static char proc_root[64];

static void put_file(const char *name, const void *bytes, size_t n)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", proc_root, name);
    FILE *f = fopen(path, "w");
    if (!f)
        abort();
    fwrite(bytes, 1, n, f);
    fclose(f);
}

/* A file of the input: up to 255 bytes after a length byte. */
static void put_input_file(const char *name)
{
    uint8_t buf[255];
    size_t n = take_u8();
    take(buf, n);
    put_file(name, buf, n);
}

static void make_proc_root(void)
{
    if (proc_root[0])
        return;
    snprintf(proc_root, sizeof proc_root, "/tmp/fuzz-monitor-live-XXXXXX");
    if (!mkdtemp(proc_root))
        abort();
    for (int pid = 1; pid <= NPIDS; pid++) {
        char dir[96];
        snprintf(dir, sizeof dir, "%s/%d", proc_root, pid);
        mkdir(dir, 0700);
    }
}

/* ---- rendering and reading back -------------------------------------------------------------- */

static void check_read_back(const gs_snapshot *s, size_t i, const char *line, size_t len)
{
    gs_snapshot back = {0};
    gs_error err;
    if (gs_replay_parse_line(line, len, "fuzz: line 1", &back, &err) != 0) {
        fprintf(stderr, "the monitor's own log line is refused: %s\n%.*s\n", err.msg, (int)len,
                line);
        abort();
    }
    if (back.ts_ms != s->ts_ms || back.host.have_mem != s->host.have_mem ||
        back.host.have_cpu != s->host.have_cpu || back.ngpus != (i < s->ngpus ? 1u : 0u))
        abort();
    if (i < s->ngpus) {
        const gs_mon_gpu *g = &s->gpus[i], *b = &back.gpus[0];
        if (b->index != g->index || b->procs_avail != g->procs_avail || b->nprocs != g->nprocs ||
            memcmp(b->avail, g->avail, sizeof g->avail) != 0)
            abort();
        for (int m = 0; m < GS_NVML_NMETRICS; m++)
            if (g->avail[m] == GS_NVML_OK && g->value[m] == floor(g->value[m]) &&
                fabs(g->value[m]) < 9007199254740992.0 && b->value[m] != g->value[m])
                abort(); /* whole numbers below 2^53 are written exactly */
        for (size_t p = 0; p < g->nprocs; p++)
            if (b->procs[p].pid != g->procs[p].pid || b->procs[p].known != g->procs[p].known)
                abort();
    }
    gs_snapshot_free(&back);
}

static void render(const gs_snapshot *s, FILE *sink)
{
    gs_prom_health h = {true, 1, 1, 0, 0.5};
    gs_prom_write(sink, s, &h);
    gs_live_table_text(sink, s, NULL);
    gs_live_table_csv(sink, s, true);
    gs_live_table_json(sink, s);
    for (size_t i = 0; i < (s->ngpus ? s->ngpus : 1); i++) {
        char *text = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&text, &len);
        if (!out)
            abort();
        gs_jsonl_line(out, s, i);
        fclose(out);
        check_read_back(s, i, text, len && text[len - 1] == '\n' ? len - 1 : len);
        free(text);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    make_proc_root();
    in_p = data;
    in_end = data + size;
    ngpus = take_u8() % (MAX_GPUS + 1);
    char hostname[GS_MON_HOST_MAX] = "";
    take(hostname, take_u8() % GS_MON_HOST_MAX);
    int64_t ts_ms = 0;
    take(&ts_ms, 6); /* 48 bits of ms: any wall clock time up to the year 10889 */
    put_input_file("stat");
    put_input_file("meminfo");
    for (int pid = 1; pid <= NPIDS; pid++) {
        char name[32];
        snprintf(name, sizeof name, "%d/comm", pid);
        put_input_file(name);
    }
    FILE *sink = fopen("/dev/null", "w");
    gs_nvml *n = NULL;
    gs_live *live = NULL;
    gs_error err;
    gs_live_opts o = {NULL, proc_root, hostname, 1000000000, 0};
    if (!sink || gs_nvml_open_api(&api, &n, &err) != 0 ||
        (o.nvml = n, gs_live_create(&o, &live, &err)) != 0)
        goto done;
    gs_snapshot s = {0};
    /* Two samples: the second has a CPU % from the change of /proc/stat, and PCIe carried. */
    for (int k = 0; k < 2; k++) {
        if (gs_live_sample(live, ts_ms + 250 * k, &s, &err) != 0)
            break;
        render(&s, sink);
        put_input_file("stat");
    }
    gs_snapshot_free(&s);
done:
    gs_live_destroy(live);
    gs_nvml_close(n);
    if (sink)
        fclose(sink);
    return 0;
}
