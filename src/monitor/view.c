/* Rendering a snapshot as a table, CSV or JSON. */
#include "monitor/view.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "monitor/jsonl.h"
#include "common/json_write.h"
#include "render/units.h"

#define CELL 112 /* the widest cell: a GPU name or the decoded throttle reasons */
#define MAX_COLS 12

/* ---- the table: cells formatted first, then aligned ---------------------------------------- */

typedef struct grid {
    const char *const *titles;
    const bool *right; /* numbers are right-aligned */
    size_t ncols, nrows;
    char (*cells)[MAX_COLS][CELL];
} grid;

static void print_grid(FILE *out, const grid *g)
{
    size_t width[MAX_COLS];
    for (size_t c = 0; c < g->ncols; c++) {
        width[c] = strlen(g->titles[c]);
        for (size_t r = 0; r < g->nrows; r++) {
            size_t w = strlen(g->cells[r][c]);
            width[c] = w > width[c] ? w : width[c];
        }
    }
    for (size_t r = 0; r <= g->nrows; r++)
        for (size_t c = 0; c < g->ncols; c++) {
            const char *text = r == 0 ? g->titles[c] : g->cells[r - 1][c];
            int w = (int)width[c];
            bool last = c + 1 == g->ncols;
            if (g->right[c])
                fprintf(out, "%*s%s", w, text, last ? "\n" : "  ");
            else if (last)
                fprintf(out, "%s\n", text);
            else
                fprintf(out, "%-*s  ", w, text);
        }
}

/* Names come from the driver and /proc: control characters could move the cursor. */
static void clean(char *dst, const char *src)
{
    size_t n = strnlen(src, CELL - 1);
    for (size_t i = 0; i < n; i++)
        dst[i] = (unsigned char)src[i] < 0x20 || src[i] == 0x7f ? '?' : src[i];
    dst[n] = '\0';
}

/* "n/a" where NVML does not support the metric, "err" where it failed, "-" where not read. */
static bool have(const gs_mon_gpu *g, enum gs_nvml_metric m, char *cell)
{
    static const char *const absent[] = {
        [GS_NVML_NOT_READ] = "-", [GS_NVML_UNSUPPORTED] = "n/a", [GS_NVML_FAILED] = "err"};
    if (g->avail[m] == GS_NVML_OK)
        return true;
    snprintf(cell, CELL, "%s", absent[g->avail[m] <= GS_NVML_FAILED ? g->avail[m] : 0]);
    return false;
}

static void fmt_unit(const gs_mon_gpu *g, enum gs_nvml_metric m, const char *fmt, char *cell)
{
    if (have(g, m, cell))
        snprintf(cell, CELL, fmt, g->value[m]);
}

static void fmt_bytes(const gs_mon_gpu *g, enum gs_nvml_metric m, char *cell)
{
    if (have(g, m, cell))
        gs_fmt_bytes(cell, CELL, (int64_t)g->value[m]);
}

static void fmt_rate(const gs_mon_gpu *g, enum gs_nvml_metric m, char *cell)
{
    if (have(g, m, cell))
        gs_fmt_bandwidth(cell, CELL, g->value[m] / 1e9);
}

enum { C_GPU, C_NAME, C_UTIL, C_MEMUTIL, C_USED, C_TOTAL, C_POWER, C_TEMP, C_SM, C_MEMCLK,
       C_RX, C_TX };

static void fill_gpu_row(const gs_mon_gpu *g, char row[MAX_COLS][CELL])
{
    snprintf(row[C_GPU], CELL, "%u", g->index);
    clean(row[C_NAME], g->name);
    fmt_unit(g, GS_NVML_UTIL_GPU, "%.0f %%", row[C_UTIL]);
    fmt_unit(g, GS_NVML_UTIL_MEM, "%.0f %%", row[C_MEMUTIL]);
    fmt_bytes(g, GS_NVML_MEM_USED, row[C_USED]);
    fmt_bytes(g, GS_NVML_MEM_TOTAL, row[C_TOTAL]);
    fmt_unit(g, GS_NVML_POWER_W, "%.1f W", row[C_POWER]);
    fmt_unit(g, GS_NVML_TEMP_C, "%.0f C", row[C_TEMP]);
    fmt_unit(g, GS_NVML_SM_CLOCK_MHZ, "%.0f MHz", row[C_SM]);
    fmt_unit(g, GS_NVML_MEM_CLOCK_MHZ, "%.0f MHz", row[C_MEMCLK]);
    fmt_rate(g, GS_NVML_PCIE_RX, row[C_RX]);
    fmt_rate(g, GS_NVML_PCIE_TX, row[C_TX]);
}

static void print_gpu_table(FILE *out, const gs_snapshot *s)
{
    static const char *const titles[] = {"GPU",   "Name",     "Util",      "Mem util",
                                         "Used",  "Total",    "Power",     "Temp",
                                         "SM clock", "Mem clock", "PCIe RX", "PCIe TX"};
    static const bool right[] = {true, false, true, true, true, true,
                                 true, true,  true, true, true, true};
    grid g = {titles, right, C_TX + 1, s->ngpus, calloc(s->ngpus ? s->ngpus : 1, sizeof *g.cells)};
    if (!g.cells)
        return;
    for (size_t i = 0; i < s->ngpus; i++)
        fill_gpu_row(&s->gpus[i], g.cells[i]);
    print_grid(out, &g);
    free(g.cells);
    /* Throttle reasons are a list of names: one line per GPU that has any, after the table. */
    for (size_t i = 0; i < s->ngpus; i++) {
        const gs_mon_gpu *gpu = &s->gpus[i];
        char names[CELL * 2];
        if (have(gpu, GS_NVML_THROTTLE, names))
            gs_throttle_names((unsigned long long)gpu->value[GS_NVML_THROTTLE], ", ", names,
                              sizeof names);
        fprintf(out, "GPU %u clocks throttled by: %s\n", gpu->index, names);
    }
}

typedef struct top_proc {
    const gs_mon_gpu *gpu;
    const gs_mon_proc *p;
} top_proc;

static int by_memory(const void *a, const void *b)
{
    const gs_mon_proc *x = ((const top_proc *)a)->p, *y = ((const top_proc *)b)->p;
    if (x->known != y->known)
        return x->known ? -1 : 1;
    if (x->used_bytes != y->used_bytes)
        return x->used_bytes > y->used_bytes ? -1 : 1;
    unsigned gx = ((const top_proc *)a)->gpu->index, gy = ((const top_proc *)b)->gpu->index;
    return gx != gy ? (gx > gy) - (gx < gy) : (x->pid > y->pid) - (x->pid < y->pid);
}

static void print_proc_table(FILE *out, const gs_snapshot *s)
{
    size_t n = 0;
    bool listed = false;
    for (size_t i = 0; i < s->ngpus; i++) {
        n += s->gpus[i].nprocs;
        listed |= s->gpus[i].procs_avail == GS_NVML_OK;
    }
    if (n == 0) {
        fputs(listed ? "\nno GPU processes\n" : "\nGPU processes: not available from NVML\n", out);
        return;
    }
    top_proc *all = malloc(n * sizeof *all);
    if (!all)
        return;
    n = 0;
    for (size_t i = 0; i < s->ngpus; i++)
        for (size_t p = 0; p < s->gpus[i].nprocs; p++)
            all[n++] = (top_proc){&s->gpus[i], &s->gpus[i].procs[p]};
    qsort(all, n, sizeof *all, by_memory);
    size_t shown = n < GS_VIEW_TOP_PROCS ? n : GS_VIEW_TOP_PROCS;
    static const char *const titles[] = {"GPU", "PID", "Process", "GPU memory"};
    static const bool right[] = {true, true, false, true};
    grid g = {titles, right, 4, shown, calloc(shown, sizeof *g.cells)};
    if (g.cells) {
        for (size_t r = 0; r < shown; r++) {
            snprintf(g.cells[r][0], CELL, "%u", all[r].gpu->index);
            snprintf(g.cells[r][1], CELL, "%" PRIu32, all[r].p->pid);
            clean(g.cells[r][2], all[r].p->name[0] ? all[r].p->name : "?");
            if (all[r].p->known)
                gs_fmt_bytes(g.cells[r][3], CELL, (int64_t)all[r].p->used_bytes);
            else
                snprintf(g.cells[r][3], CELL, "n/a");
        }
        fprintf(out, "\nGPU processes by GPU memory (%zu of %zu)\n", shown, n);
        print_grid(out, &g);
    }
    free(g.cells);
    free(all);
}

static void format_utc_time(int64_t ts_ms, char *buf, size_t cap)
{
    time_t t = (time_t)(ts_ms / 1000);
    struct tm tm;
    gmtime_r(&t, &tm);
    size_t n = strftime(buf, cap, "%Y-%m-%d %H:%M:%S", &tm);
    snprintf(buf + n, cap - n, ".%03d UTC", (int)(ts_ms % 1000));
}

void gs_view_table(FILE *out, const gs_snapshot *s, const char *note)
{
    char when[48], host[CELL];
    format_utc_time(s->ts_ms, when, sizeof when);
    clean(host, s->hostname);
    fprintf(out, "%s  %s  %zu GPU%s%s%s\n", host, when, s->ngpus, s->ngpus == 1 ? "" : "s",
            note ? "  " : "", note ? note : "");
    char cpu[32] = "-", used[GS_UNIT_BUF] = "-", total[GS_UNIT_BUF] = "-";
    if (s->host.have_cpu)
        snprintf(cpu, sizeof cpu, "%.1f %%", s->host.cpu_pct);
    if (s->host.have_mem) {
        gs_fmt_bytes(used, sizeof used, (int64_t)s->host.mem_used_bytes);
        gs_fmt_bytes(total, sizeof total, (int64_t)s->host.mem_total_bytes);
    }
    fprintf(out, "host CPU %s, memory %s / %s\n", cpu, used, total);
    if (s->ngpus == 0)
        return;
    fputc('\n', out);
    print_gpu_table(out, s);
    print_proc_table(out, s);
}

/* ---- CSV and JSON ---------------------------------------------------------------------------- */

static void put_csv_text(FILE *out, const char *s)
{
    if (!s[strcspn(s, ",\"\r\n")]) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

void gs_view_csv(FILE *out, const gs_snapshot *s, bool header)
{
    if (header) {
        fputs("ts,hostname,gpu,name,uuid,pci_bus_id", out);
        for (int m = 0; m < GS_NVML_NMETRICS; m++)
            fprintf(out, ",%s", gs_nvml_metric_name(m));
        fputs(",throttle_reason_names,processes\n", out);
    }
    for (size_t i = 0; i < s->ngpus; i++) {
        const gs_mon_gpu *g = &s->gpus[i];
        fprintf(out, "%" PRId64 ".%03d,", s->ts_ms / 1000, (int)(s->ts_ms % 1000));
        put_csv_text(out, s->hostname);
        fprintf(out, ",%u,", g->index);
        put_csv_text(out, g->name);
        fputc(',', out);
        put_csv_text(out, g->uuid);
        fputc(',', out);
        put_csv_text(out, g->pci_bus_id);
        for (int m = 0; m < GS_NVML_NMETRICS; m++) {
            fputc(',', out);
            if (g->avail[m] == GS_NVML_OK)
                gs_jsonl_number(out, g->value[m]);
        }
        char names[CELL * 2] = "";
        if (g->avail[GS_NVML_THROTTLE] == GS_NVML_OK)
            gs_throttle_names((unsigned long long)g->value[GS_NVML_THROTTLE], "|", names,
                              sizeof names);
        fprintf(out, ",%s,", names);
        if (g->procs_avail == GS_NVML_OK)
            fprintf(out, "%zu", g->nprocs);
        fputc('\n', out);
    }
}

static void put_json_gpu(FILE *out, const gs_mon_gpu *g)
{
    fprintf(out, "{\"gpu\":%u,\"name\":", g->index);
    gs_json_string(out, g->name);
    fputs(",\"uuid\":", out);
    gs_json_string(out, g->uuid);
    fputs(",\"pci_bus_id\":", out);
    gs_json_string(out, g->pci_bus_id);
    for (int m = 0; m < GS_NVML_NMETRICS; m++) {
        fprintf(out, ",\"%s\":", gs_nvml_metric_name(m));
        g->avail[m] == GS_NVML_OK ? gs_jsonl_number(out, g->value[m]) : (void)fputs("null", out);
    }
    fputs(",\"throttle_reason_names\":", out);
    if (g->avail[GS_NVML_THROTTLE] == GS_NVML_OK) {
        fputc('[', out);
        unsigned long long mask = (unsigned long long)g->value[GS_NVML_THROTTLE];
        int n = 0;
        for (size_t r = 0; r < gs_throttle_nreasons; r++)
            if (mask & gs_throttle_reasons[r].bit)
                fprintf(out, "%s\"%s\"", n++ ? "," : "", gs_throttle_reasons[r].name);
        fputc(']', out);
    } else {
        fputs("null", out);
    }
    fputs(",\"processes\":", out);
    if (g->procs_avail != GS_NVML_OK) {
        fputs("null}", out);
        return;
    }
    fputc('[', out);
    for (size_t p = 0; p < g->nprocs; p++) {
        fprintf(out, "%s{\"pid\":%" PRIu32 ",\"name\":", p ? "," : "", g->procs[p].pid);
        gs_json_string(out, g->procs[p].name);
        fputs(",\"gpu_memory_bytes\":", out);
        g->procs[p].known ? gs_jsonl_number(out, (double)g->procs[p].used_bytes)
                          : (void)fputs("null", out);
        fputc('}', out);
    }
    fputs("]}", out);
}

void gs_view_json(FILE *out, const gs_snapshot *s)
{
    fprintf(out, "{\"command\":\"monitor\",\"ts\":%" PRId64 ".%03d,\"hostname\":",
            s->ts_ms / 1000, (int)(s->ts_ms % 1000));
    gs_json_string(out, s->hostname);
    fputs(",\"host\":{\"cpu_pct\":", out);
    s->host.have_cpu ? gs_jsonl_number(out, s->host.cpu_pct) : (void)fputs("null", out);
    fputs(",\"mem_used_bytes\":", out);
    s->host.have_mem ? gs_jsonl_number(out, (double)s->host.mem_used_bytes)
                     : (void)fputs("null", out);
    fputs(",\"mem_total_bytes\":", out);
    s->host.have_mem ? gs_jsonl_number(out, (double)s->host.mem_total_bytes)
                     : (void)fputs("null", out);
    fputs("},\"gpus\":[", out);
    for (size_t i = 0; i < s->ngpus; i++) {
        if (i)
            fputc(',', out);
        put_json_gpu(out, &s->gpus[i]);
    }
    fputs("]}\n", out);
}
