/* What the monitor prints for a sample: its cells are formatted here and written by the common
 * renderers (render/render.h: the table and CSV) and the JSON writer. */
#include "monitor/live_table.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/json_write.h"
#include "common/util.h"
#include "monitor/jsonl.h"
#include "render/render.h"
#include "render/units.h"

#define CELL 112 /* the widest cell: a GPU name or a process name */

#define FIGURES(name, heading)                                                                     \
    {.key = name, .sort = name, .title = heading, .csv = heading, .type = GS_COL_TEXT,             \
     .flags = GS_COL_FIGURES}
#define TEXT(name, heading)                                                                        \
    {.key = name, .sort = name, .title = heading, .csv = heading, .type = GS_COL_TEXT}

/* Cells are bounded (CELL), so the table is never cut to a line width: it is as wide as it is. */
static const gs_text_style table_style = {.width = SIZE_MAX};

/* A row of the table pointing at cells the caller keeps until the table is written. */
static int add_row(gs_table *t, const char *const *cells)
{
    gs_cell *c = gs_table_add_row(t);
    if (!c)
        return -1;
    for (size_t k = 0; k < t->ncols; k++)
        c[k].text = cells[k];
    return 0;
}

/* ---- the table ------------------------------------------------------------------------------- */

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
        gs_fmt_bytes(cell, CELL, gs_mon_int(g->value[m]));
}

static void fmt_rate(const gs_mon_gpu *g, enum gs_nvml_metric m, char *cell)
{
    if (have(g, m, cell))
        gs_fmt_bandwidth(cell, CELL, g->value[m] / 1e9);
}

enum gpu_col { C_GPU, C_NAME, C_UTIL, C_MEMUTIL, C_USED, C_TOTAL, C_POWER, C_TEMP, C_SM, C_MEMCLK,
               C_RX, C_TX, GPU_NCOLS };

static const gs_column gpu_columns[] = {
    [C_GPU] = FIGURES("gpu", "GPU"),
    [C_NAME] = TEXT("name", "Name"),
    [C_UTIL] = FIGURES("util", "Util"),
    [C_MEMUTIL] = FIGURES("mem_util", "Mem util"),
    [C_USED] = FIGURES("used", "Used"),
    [C_TOTAL] = FIGURES("total", "Total"),
    [C_POWER] = FIGURES("power", "Power"),
    [C_TEMP] = FIGURES("temp", "Temp"),
    [C_SM] = FIGURES("sm_clock", "SM clock"),
    [C_MEMCLK] = FIGURES("mem_clock", "Mem clock"),
    [C_RX] = FIGURES("pcie_rx", "PCIe RX"),
    [C_TX] = FIGURES("pcie_tx", "PCIe TX"),
};
_Static_assert(COUNT_OF(gpu_columns) == GPU_NCOLS, "one column per enum gpu_col");

typedef struct gpu_row {
    char cell[GPU_NCOLS][CELL];
} gpu_row;

static void fill_gpu_row(const gs_mon_gpu *g, gpu_row *row)
{
    char (*c)[CELL] = row->cell;
    snprintf(c[C_GPU], CELL, "%u", g->index);
    clean(c[C_NAME], g->name);
    fmt_unit(g, GS_NVML_UTIL_GPU, "%.0f %%", c[C_UTIL]);
    fmt_unit(g, GS_NVML_UTIL_MEM, "%.0f %%", c[C_MEMUTIL]);
    fmt_bytes(g, GS_NVML_MEM_USED, c[C_USED]);
    fmt_bytes(g, GS_NVML_MEM_TOTAL, c[C_TOTAL]);
    fmt_unit(g, GS_NVML_POWER_W, "%.1f W", c[C_POWER]);
    fmt_unit(g, GS_NVML_TEMP_C, "%.0f C", c[C_TEMP]);
    fmt_unit(g, GS_NVML_SM_CLOCK_MHZ, "%.0f MHz", c[C_SM]);
    fmt_unit(g, GS_NVML_MEM_CLOCK_MHZ, "%.0f MHz", c[C_MEMCLK]);
    fmt_rate(g, GS_NVML_PCIE_RX, c[C_RX]);
    fmt_rate(g, GS_NVML_PCIE_TX, c[C_TX]);
}

static void print_gpu_table(FILE *out, const gs_snapshot *s)
{
    gpu_row *rows = calloc(s->ngpus, sizeof *rows);
    gs_table t;
    gs_table_init(&t, gpu_columns, GPU_NCOLS, NULL);
    int rc = rows ? 0 : -1;
    for (size_t i = 0; i < s->ngpus && rc == 0; i++) {
        const char *cells[GPU_NCOLS];
        fill_gpu_row(&s->gpus[i], &rows[i]);
        for (size_t k = 0; k < GPU_NCOLS; k++)
            cells[k] = rows[i].cell[k];
        rc = add_row(&t, cells);
    }
    if (rc == 0)
        rc = gs_render_text(out, &t, &table_style);
    gs_table_free(&t);
    free(rows);
    if (rc != 0)
        return;
    /* Throttle reasons are a list of names: one line per GPU that has any, after the table. */
    for (size_t i = 0; i < s->ngpus; i++) {
        const gs_mon_gpu *gpu = &s->gpus[i];
        char names[CELL * 2];
        if (have(gpu, GS_NVML_THROTTLE, names))
            gs_throttle_names(gs_mon_mask(gpu->value[GS_NVML_THROTTLE]), ", ", names,
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

enum proc_col { P_GPU, P_PID, P_NAME, P_MEMORY, PROC_NCOLS };

static const gs_column proc_columns[] = {
    [P_GPU] = FIGURES("gpu", "GPU"),
    [P_PID] = FIGURES("pid", "PID"),
    [P_NAME] = TEXT("process", "Process"),
    [P_MEMORY] = FIGURES("gpu_memory", "GPU memory"),
};
_Static_assert(COUNT_OF(proc_columns) == PROC_NCOLS, "one column per enum proc_col");

typedef struct proc_row {
    char cell[PROC_NCOLS][CELL];
} proc_row;

static void fill_proc_row(const top_proc *tp, proc_row *row)
{
    char (*c)[CELL] = row->cell;
    snprintf(c[P_GPU], CELL, "%u", tp->gpu->index);
    snprintf(c[P_PID], CELL, "%" PRIu32, tp->p->pid);
    clean(c[P_NAME], tp->p->name[0] ? tp->p->name : "?");
    if (tp->p->known)
        gs_fmt_bytes(c[P_MEMORY], CELL, gs_mon_int((double)tp->p->used_bytes));
    else
        snprintf(c[P_MEMORY], CELL, "n/a");
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
    size_t shown = n < GS_LIVE_TABLE_TOP_PROCS ? n : GS_LIVE_TABLE_TOP_PROCS;
    proc_row *rows = calloc(shown, sizeof *rows);
    gs_table t;
    gs_table_init(&t, proc_columns, PROC_NCOLS, NULL);
    int rc = rows ? 0 : -1;
    for (size_t r = 0; r < shown && rc == 0; r++) {
        const char *cells[PROC_NCOLS];
        fill_proc_row(&all[r], &rows[r]);
        for (size_t k = 0; k < PROC_NCOLS; k++)
            cells[k] = rows[r].cell[k];
        rc = add_row(&t, cells);
    }
    if (rc == 0) {
        fprintf(out, "\nGPU processes by GPU memory (%zu of %zu)\n", shown, n);
        gs_render_text(out, &t, &table_style);
    }
    gs_table_free(&t);
    free(rows);
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

/* With --agents: how many, and the slowest latest step with the process that took it. */
static void print_steps(FILE *out, const gs_mon_steps *st)
{
    if (!st->watched)
        return;
    fprintf(out, "steps of %u agent%s: ", (unsigned)st->agents, st->agents == 1 ? "" : "s");
    if (st->step_ns <= 0) {
        fputs("no complete step yet\n", out);
        return;
    }
    fprintf(out, "the slowest %.1f ms", (double)st->step_ns / 1e6);
    if (st->slowest_pid) {
        char host[CELL], rank[32] = "";
        clean(host, st->slowest_host);
        if (st->has_rank)
            snprintf(rank, sizeof rank, "rank %u, ", (unsigned)st->slowest_rank);
        fprintf(out, " (%sprocess %u on %s)", rank, (unsigned)st->slowest_pid, host);
    }
    fputc('\n', out);
}

void gs_live_table_text(FILE *out, const gs_snapshot *s, const char *note)
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
        gs_fmt_bytes(used, sizeof used, gs_mon_int((double)s->host.mem_used_bytes));
        gs_fmt_bytes(total, sizeof total, gs_mon_int((double)s->host.mem_total_bytes));
    }
    fprintf(out, "host CPU %s, memory %s / %s\n", cpu, used, total);
    print_steps(out, &s->steps);
    if (s->ngpus == 0)
        return;
    fputc('\n', out);
    print_gpu_table(out, s);
    print_proc_table(out, s);
}

/* ---- CSV: the JSONL log's fields, one row per GPU -------------------------------------------- */

enum csv_col { K_TS, K_HOST, K_GPU, K_NAME, K_UUID, K_BUS, K_METRIC,
               K_THROTTLE = K_METRIC + GS_NVML_NMETRICS, K_PROCS, CSV_NCOLS };

static void csv_columns(gs_column cols[CSV_NCOLS])
{
    static const char *const named[CSV_NCOLS] = {
        [K_TS] = "ts", [K_HOST] = "hostname", [K_GPU] = "gpu", [K_NAME] = "name",
        [K_UUID] = "uuid", [K_BUS] = "pci_bus_id", [K_THROTTLE] = "throttle_reason_names",
        [K_PROCS] = "processes"};
    for (size_t k = 0; k < CSV_NCOLS; k++) {
        const char *name = k >= K_METRIC && k < K_THROTTLE
                               ? gs_nvml_metric_name((enum gs_nvml_metric)(k - K_METRIC))
                               : named[k];
        cols[k] = (gs_column){.key = name, .sort = name, .title = name, .csv = name,
                              .type = GS_COL_TEXT};
    }
}

typedef struct csv_row {
    char ts[GS_JSONL_NUMBER_BUF], gpu[16], procs[24];
    char metric[GS_NVML_NMETRICS][GS_JSONL_NUMBER_BUF];
    char throttle[CELL * 2];
} csv_row;

/* The cells of GPU g; an empty field where a value was not read. */
static void fill_csv_row(const gs_snapshot *s, const gs_mon_gpu *g, csv_row *row,
                         const char *cells[CSV_NCOLS])
{
    cells[K_TS] = gs_jsonl_ts(row->ts, s->ts_ms);
    cells[K_HOST] = s->hostname;
    snprintf(row->gpu, sizeof row->gpu, "%u", g->index);
    cells[K_GPU] = row->gpu;
    cells[K_NAME] = g->name;
    cells[K_UUID] = g->uuid;
    cells[K_BUS] = g->pci_bus_id;
    for (int m = 0; m < GS_NVML_NMETRICS; m++)
        cells[K_METRIC + m] =
            g->avail[m] == GS_NVML_OK ? gs_jsonl_number(row->metric[m], g->value[m]) : NULL;
    cells[K_THROTTLE] = NULL;
    if (g->avail[GS_NVML_THROTTLE] == GS_NVML_OK) {
        gs_throttle_names(gs_mon_mask(g->value[GS_NVML_THROTTLE]), "|", row->throttle,
                          sizeof row->throttle);
        cells[K_THROTTLE] = row->throttle;
    }
    cells[K_PROCS] = NULL;
    if (g->procs_avail == GS_NVML_OK) {
        snprintf(row->procs, sizeof row->procs, "%zu", g->nprocs);
        cells[K_PROCS] = row->procs;
    }
}

void gs_live_table_csv(FILE *out, const gs_snapshot *s, bool header)
{
    gs_column cols[CSV_NCOLS];
    csv_columns(cols);
    csv_row *rows = calloc(s->ngpus + 1, sizeof *rows);
    gs_table t;
    gs_table_init(&t, cols, CSV_NCOLS, NULL);
    int rc = rows ? 0 : -1;
    for (size_t i = 0; i < s->ngpus && rc == 0; i++) {
        const char *cells[CSV_NCOLS];
        fill_csv_row(s, &s->gpus[i], &rows[i], cells);
        rc = add_row(&t, cells);
    }
    if (rc == 0 && header)
        gs_render_csv(out, &t);
    else if (rc == 0)
        gs_render_csv_rows(out, &t);
    gs_table_free(&t);
    free(rows);
}

/* ---- JSON: one line per sample --------------------------------------------------------------- */

static void put_json_gpu(gs_json_writer *w, const gs_mon_gpu *g)
{
    gs_json_begin_object(w, NULL, GS_JSON_COMPACT);
    gs_json_put_uint(w, "gpu", g->index);
    gs_json_put_str(w, "name", g->name);
    gs_json_put_str(w, "uuid", g->uuid);
    gs_json_put_str(w, "pci_bus_id", g->pci_bus_id);
    for (int m = 0; m < GS_NVML_NMETRICS; m++)
        gs_jsonl_put_metric(w, gs_nvml_metric_name(m), g->avail[m] == GS_NVML_OK, g->value[m]);
    if (g->avail[GS_NVML_THROTTLE] == GS_NVML_OK) {
        unsigned long long mask = gs_mon_mask(g->value[GS_NVML_THROTTLE]);
        gs_json_begin_array(w, "throttle_reason_names", GS_JSON_COMPACT);
        for (size_t r = 0; r < gs_throttle_nreasons; r++)
            if (mask & gs_throttle_reasons[r].bit)
                gs_json_put_str(w, NULL, gs_throttle_reasons[r].name);
        gs_json_end(w);
    } else {
        gs_json_put_null(w, "throttle_reason_names");
    }
    gs_jsonl_put_processes(w, g);
    gs_json_end(w);
}

void gs_live_table_json(FILE *out, const gs_snapshot *s)
{
    char ts[GS_JSONL_NUMBER_BUF];
    gs_json_writer w;
    gs_json_writer_init(&w, out);
    gs_json_begin_object(&w, NULL, GS_JSON_COMPACT);
    gs_json_put_str(&w, "command", "monitor");
    gs_json_put_raw(&w, "ts", gs_jsonl_ts(ts, s->ts_ms));
    gs_json_put_str(&w, "hostname", s->hostname);
    gs_json_begin_object(&w, "host", GS_JSON_COMPACT);
    gs_jsonl_put_metric(&w, "cpu_pct", s->host.have_cpu, s->host.cpu_pct);
    gs_jsonl_put_metric(&w, "mem_used_bytes", s->host.have_mem, (double)s->host.mem_used_bytes);
    gs_jsonl_put_metric(&w, "mem_total_bytes", s->host.have_mem,
                        (double)s->host.mem_total_bytes);
    gs_json_end(&w);
    const gs_mon_steps *st = &s->steps;
    if (st->watched) {
        gs_json_begin_object(&w, "steps", GS_JSON_COMPACT);
        gs_json_put_uint(&w, "agents", st->agents);
        gs_jsonl_put_metric(&w, "step_ns", st->step_ns > 0, (double)st->step_ns);
        if (st->step_ns > 0 && st->slowest_pid) {
            if (st->has_rank)
                gs_json_put_uint(&w, "rank", st->slowest_rank);
            gs_json_put_str(&w, "host", st->slowest_host);
            gs_json_put_uint(&w, "pid", st->slowest_pid);
        }
        gs_json_end(&w);
    }
    gs_json_begin_array(&w, "gpus", GS_JSON_COMPACT);
    for (size_t i = 0; i < s->ngpus; i++)
        put_json_gpu(&w, &s->gpus[i]);
    gs_json_end(&w);
    gs_json_end(&w);
}
