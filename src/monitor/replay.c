/* Reading a monitor log back: one line at a time through the trace JSON scanner. */
#include "monitor/replay.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "ingest/json.h"
#include "ingest/source.h"
#include "monitor/jsonl.h"

/* The longest string the writer makes: a hostname of GS_MON_HOST_MAX - 1 bytes, each escaped to
 * at most 6 (\u00XX, or \ufffd for a byte that is not UTF-8). Decoded, it is no longer. */
#define MAX_STRING (6 * (GS_MON_HOST_MAX - 1))
#define FIRST_LINE_CAP ((size_t)64 << 10) /* grown for longer lines */

/* What one line said, before it is checked as a whole. */
typedef struct line_state {
    gs_json *j;
    gs_snapshot *out;
    gs_mon_gpu gpu; /* its procs belong to out->gpus[0] once added */
    bool has_ts, has_gpu, has_gpu_fields;
    bool has_value[GS_NVML_NMETRICS];
    int why[GS_NVML_NMETRICS]; /* enum gs_nvml_avail from "unavailable", 0 when absent */
    int procs_why;
    bool procs_null, procs_seen;
} line_state;

enum field_kind { F_TS, F_HOSTNAME, F_GPU, F_TEXT, F_UNAVAILABLE, F_PROCESSES, F_HOST, F_AGENTS,
                  F_STEP, F_STEP_RANK, F_STEP_HOST, F_STEP_PID };

enum { HOST_CPU, HOST_USED, HOST_TOTAL };

/* The keys a line may hold besides the metrics (gs_nvml_metric_name); others are skipped, so a
 * newer writer's additions do not break an older reader. */
static const struct field {
    const char *key;
    enum field_kind kind;
    size_t offset, cap; /* F_TEXT: where in gs_mon_gpu; F_HOST: which value */
} fields[] = {
    {"ts", F_TS, 0, 0},
    {"hostname", F_HOSTNAME, 0, 0},
    {"gpu", F_GPU, 0, 0},
    {"name", F_TEXT, offsetof(gs_mon_gpu, name), GS_MON_NAME_MAX},
    {"uuid", F_TEXT, offsetof(gs_mon_gpu, uuid), GS_MON_NAME_MAX},
    {"pci_bus_id", F_TEXT, offsetof(gs_mon_gpu, pci_bus_id), GS_MON_BUS_ID_MAX},
    {"unavailable", F_UNAVAILABLE, 0, 0},
    {"processes", F_PROCESSES, 0, 0},
    {"host_cpu_pct", F_HOST, HOST_CPU, 0},
    {"host_mem_used_bytes", F_HOST, HOST_USED, 0},
    {"host_mem_total_bytes", F_HOST, HOST_TOTAL, 0},
    {"agents", F_AGENTS, 0, 0},
    {"step_ns", F_STEP, 0, 0},
    {"step_rank", F_STEP_RANK, 0, 0},
    {"step_host", F_STEP_HOST, 0, 0},
    {"step_pid", F_STEP_PID, 0, 0},
};

/* The message for a value of the wrong kind: a line cut short says so. */
static int bad_value(gs_json *j, enum gs_json_tok t, const char *key, const char *want)
{
    if (t == GS_JSON_ERROR)
        return -1;
    if (t == GS_JSON_END)
        return gs_json_fail(j, "the line ends inside the object (cut short?)");
    return gs_json_fail(j, "\"%s\" wants %s", key, want);
}

static int read_string(line_state *st, const char *key, char *dst, size_t cap)
{
    gs_json *j = st->j;
    enum gs_json_tok t = gs_json_next(j);
    if (t != GS_JSON_STRING)
        return bad_value(j, t, key, "a string");
    if (j->tok_len > MAX_STRING)
        return gs_json_fail(j, "\"%s\" is longer than %d bytes", key, MAX_STRING);
    char tmp[MAX_STRING + 1];
    size_t n = gs_json_decode(j, tmp);
    gs_mon_strlcpy(dst, cap, tmp, n);
    return 0;
}

/* Values beyond GS_NVML_MAX_VALUE are no metric any GPU or host reports (bytes, W, MHz, %), and
 * the monitor never writes them: refused, so that every value converts to a 64-bit integer
 * (bytes shown as TB) without overflowing. */
#define MAX_VALUE GS_NVML_MAX_VALUE

/* The longest line the monitor writes (jsonl_write.c), where the JSON writer escapes a byte into
 * at most 6 (\u00XX): per process at most 460 bytes (a 10-digit pid, a name of
 * GS_MON_PROC_NAME_MAX - 1 bytes, the memory up to 9e18 with 3 decimals, keys and punctuation);
 * the rest of the line (hostname, names, metrics) under 16 KiB. */
#define MAX_PROC_BYTES (45 + 10 + 6 * (GS_MON_PROC_NAME_MAX - 1) + 27)
_Static_assert(MAX_PROC_BYTES <= 460, "the per-process bound below");
_Static_assert(GS_REPLAY_MAX_LINE >= (size_t)GS_NVML_MAX_PROCS * 460 + (16u << 10),
               "--replay reads every line the monitor writes");

/* A number, or null (*present = false) when nullable. */
static int read_number(line_state *st, const char *key, bool nullable, double *v, bool *present)
{
    gs_json *j = st->j;
    enum gs_json_tok t = gs_json_next(j);
    *present = t == GS_JSON_NUMBER;
    if (t == GS_JSON_NULL && nullable)
        return 0;
    if (t != GS_JSON_NUMBER || !gs_json_double(j, v))
        return bad_value(j, t, key, nullable ? "a number or null" : "a number");
    if (!(*v >= -MAX_VALUE && *v <= MAX_VALUE)) /* NaN too */
        return gs_json_fail(j, "\"%s\" is out of range (more than 9e18)", key);
    return 0;
}

static int read_whole(line_state *st, const char *key, int64_t max, int64_t *v)
{
    gs_json *j = st->j;
    double d;
    /* The range first: converting a double beyond int64 is undefined behaviour. */
    if (gs_json_next(j) != GS_JSON_NUMBER || !gs_json_double(j, &d) || !(d >= 0) ||
        d > (double)max || d != (double)(int64_t)d)
        return gs_json_fail(j, "\"%s\" wants a whole number up to %lld", key, (long long)max);
    *v = (int64_t)d;
    return 0;
}

static int read_unavailable(line_state *st)
{
    gs_json *j = st->j;
    if (gs_json_next(j) != GS_JSON_OBJECT)
        return gs_json_fail(j, "\"unavailable\" wants an object");
    for (enum gs_json_tok t; (t = gs_json_next(j)) != GS_JSON_OBJECT_END;) {
        if (t != GS_JSON_KEY)
            return gs_json_fail(j, "\"unavailable\" is not a valid object");
        int m = 0;
        while (m < GS_NVML_NMETRICS && !gs_json_tok_is(j, gs_nvml_metric_name(m)))
            m++;
        bool procs = gs_json_tok_is(j, "processes");
        if (gs_json_next(j) != GS_JSON_STRING)
            return gs_json_fail(j, "\"unavailable\" values are \"unsupported\" or \"failed\"");
        int why = gs_jsonl_avail_parse(j->tok, j->tok_len);
        if (why < 0)
            return gs_json_fail(j, "\"unavailable\" values are \"unsupported\" or \"failed\"");
        if (procs)
            st->procs_why = why;
        else if (m < GS_NVML_NMETRICS)
            st->why[m] = why;
    }
    return 0;
}

static int read_process(line_state *st)
{
    gs_json *j = st->j;
    gs_mon_proc *p = gs_mon_gpu_add_proc(&st->gpu);
    if (!p)
        return gs_fail_oom(j->err);
    bool has_pid = false;
    for (enum gs_json_tok t; (t = gs_json_next(j)) != GS_JSON_OBJECT_END;) {
        if (t != GS_JSON_KEY)
            return gs_json_fail(j, "a process is not a valid object");
        int64_t v = 0; /* set by read_whole on success; gcc -O3 cannot see it */
        double mem;
        if (gs_json_tok_is(j, "pid")) {
            if (read_whole(st, "pid", UINT32_MAX, &v))
                return -1;
            p->pid = (uint32_t)v;
            has_pid = true;
        } else if (gs_json_tok_is(j, "name")) {
            if (read_string(st, "name", p->name, sizeof p->name))
                return -1;
        } else if (gs_json_tok_is(j, "gpu_memory_bytes")) {
            if (read_number(st, "gpu_memory_bytes", true, &mem, &p->known))
                return -1;
            p->used_bytes = p->known && mem > 0 ? (uint64_t)mem : 0;
        } else if (gs_json_next(j) == GS_JSON_ERROR || gs_json_skip(j)) {
            return -1;
        }
    }
    return has_pid ? 0 : gs_json_fail(j, "a process without \"pid\"");
}

static int read_processes(line_state *st)
{
    gs_json *j = st->j;
    enum gs_json_tok t = gs_json_next(j);
    st->procs_seen = true;
    st->procs_null = t == GS_JSON_NULL;
    if (st->procs_null)
        return 0;
    if (t != GS_JSON_ARRAY)
        return gs_json_fail(j, "\"processes\" wants an array or null");
    while ((t = gs_json_next(j)) != GS_JSON_ARRAY_END) {
        if (t != GS_JSON_OBJECT)
            return gs_json_fail(j, "\"processes\" wants objects");
        if (read_process(st))
            return -1;
    }
    return 0;
}

static int read_known_field(line_state *st, const struct field *f)
{
    gs_snapshot *out = st->out;
    int64_t v = 0; /* set by read_whole on success; gcc -O3 cannot see it */
    double d;
    bool present;
    switch (f->kind) {
    case F_TS:
        if (gs_json_next(st->j) != GS_JSON_NUMBER || !gs_json_scaled(st->j, 3, &out->ts_ms) ||
            out->ts_ms < 0)
            return gs_json_fail(st->j, "\"ts\" wants seconds since the epoch");
        st->has_ts = true;
        return 0;
    case F_HOSTNAME:
        return read_string(st, f->key, out->hostname, sizeof out->hostname);
    case F_GPU:
        if (read_whole(st, f->key, GS_REPLAY_MAX_GPUS * 1024, &v))
            return -1;
        st->gpu.index = (unsigned)v;
        st->has_gpu = true;
        return 0;
    case F_TEXT:
        st->has_gpu_fields = true;
        return read_string(st, f->key, (char *)&st->gpu + f->offset, f->cap);
    case F_UNAVAILABLE:
        st->has_gpu_fields = true;
        return read_unavailable(st);
    case F_PROCESSES:
        st->has_gpu_fields = true;
        return read_processes(st);
    case F_HOST:
        if (read_number(st, f->key, true, &d, &present))
            return -1;
        if (f->offset == HOST_CPU) {
            out->host.have_cpu = present;
            out->host.cpu_pct = d;
        } else {
            out->host.have_mem = present;
            *(f->offset == HOST_USED ? &out->host.mem_used_bytes : &out->host.mem_total_bytes) =
                present && d > 0 ? (uint64_t)d : 0;
        }
        return 0;
    case F_AGENTS:
        if (read_whole(st, f->key, UINT32_MAX, &v))
            return -1;
        out->steps.watched = true;
        out->steps.agents = (uint32_t)v;
        return 0;
    case F_STEP:
        if (read_number(st, f->key, true, &d, &present))
            return -1;
        out->steps.watched = true;
        out->steps.step_ns = present && d > 0 && d < 9e18 ? (int64_t)d : 0;
        return 0;
    case F_STEP_RANK:
        if (read_whole(st, f->key, INT32_MAX, &v))
            return -1;
        out->steps.has_rank = true;
        out->steps.slowest_rank = (uint32_t)v;
        return 0;
    case F_STEP_HOST:
        return read_string(st, f->key, out->steps.slowest_host, sizeof out->steps.slowest_host);
    case F_STEP_PID:
        if (read_whole(st, f->key, UINT32_MAX, &v))
            return -1;
        out->steps.slowest_pid = (uint32_t)v;
        return 0;
    }
    return 0;
}

static int read_field(line_state *st)
{
    for (size_t i = 0; i < COUNT_OF(fields); i++)
        if (gs_json_tok_is(st->j, fields[i].key))
            return read_known_field(st, &fields[i]);
    for (int m = 0; m < GS_NVML_NMETRICS; m++) {
        if (!gs_json_tok_is(st->j, gs_nvml_metric_name(m)))
            continue;
        st->has_gpu_fields = true;
        double *v = &st->gpu.value[m];
        if (read_number(st, gs_nvml_metric_name(m), true, v, &st->has_value[m]))
            return -1;
        /* A bit mask: shown by name, through an unsigned integer. */
        if (m == GS_NVML_THROTTLE && st->has_value[m] && !(*v >= 0 && *v == (double)(int64_t)*v))
            return gs_json_fail(st->j, "\"%s\" wants a whole number (a bit mask)",
                                gs_nvml_metric_name(m));
        return 0;
    }
    return gs_json_next(st->j) == GS_JSON_ERROR || gs_json_skip(st->j) ? -1 : 0;
}

/* Availability from what the line said: a value is OK, null is the "unavailable" reason or, with
 * none given, not read. */
static void finish_gpu(line_state *st)
{
    for (int m = 0; m < GS_NVML_NMETRICS; m++)
        st->gpu.avail[m] = st->has_value[m] ? GS_NVML_OK : (uint8_t)st->why[m];
    st->gpu.procs_avail = !st->procs_seen ? GS_NVML_NOT_READ
                          : st->procs_null ? (uint8_t)(st->procs_why ? st->procs_why
                                                                     : GS_NVML_NOT_READ)
                                           : GS_NVML_OK;
}

static int parse_object(line_state *st)
{
    gs_json *j = st->j;
    if (gs_json_next(j) != GS_JSON_OBJECT)
        return gs_json_fail(j, "a line must be one JSON object");
    for (enum gs_json_tok t; (t = gs_json_next(j)) != GS_JSON_OBJECT_END;) {
        if (t != GS_JSON_KEY)
            return t == GS_JSON_ERROR ? -1 : gs_json_fail(j, "the object is cut or malformed");
        if (read_field(st))
            return -1;
    }
    if (gs_json_next(j) != GS_JSON_END)
        return gs_json_fail(j, "more after the object");
    if (!st->has_ts)
        return gs_json_fail(j, "no \"ts\"");
    if (st->has_gpu_fields && !st->has_gpu)
        return gs_json_fail(j, "GPU fields without \"gpu\"");
    return 0;
}

int gs_replay_parse_line(const char *line, size_t len, const char *where, gs_snapshot *out,
                         gs_error *err)
{
    gs_snapshot_clear(out);
    /* The staging GPU lends the snapshot's first slot its process array, so that memory is
     * reused from line to line. */
    gs_mon_gpu *slot = gs_snapshot_add_gpu(out);
    gs_source *src = slot ? gs_source_memory(line, len, where, err) : NULL;
    if (!src) {
        if (slot)
            return -1;
        return gs_fail_oom(err);
    }
    line_state st = {.out = out};
    st.gpu.procs = slot->procs;
    st.gpu.procs_cap = slot->procs_cap;
    gs_json j;
    int rc = gs_json_init(&j, src, err);
    if (rc == 0) {
        st.j = &j;
        rc = parse_object(&st);
        gs_json_free(&j);
    }
    gs_source_close(src);
    finish_gpu(&st);
    *slot = st.gpu; /* hands the process array back even on failure */
    if (rc == 0 && !st.has_gpu)
        out->ngpus = 0;
    return rc;
}

struct gs_replay {
    FILE *f;
    char *path;
    char *line; /* grown as lines need, up to GS_REPLAY_MAX_LINE + 1 bytes */
    size_t line_cap;
    unsigned long lineno;
    gs_snapshot pending; /* the first line of the next sample */
    bool have_pending;
    /* An error met while looking ahead for the end of a sample: the sample is whole and is
     * returned first; the error comes with the next call. */
    bool failed;
    gs_error deferred;
};

int gs_replay_open(const char *path, gs_replay **out, gs_error *err)
{
    *out = NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return gs_fail(err, GS_EXIT_INPUT, "%s: %s", path, strerror(errno));
    gs_replay *r = calloc(1, sizeof *r);
    char *line = malloc(FIRST_LINE_CAP);
    char *p = strdup(path);
    if (!r || !line || !p) {
        fclose(f);
        free(r);
        free(line);
        free(p);
        return gs_fail_oom(err);
    }
    *r = (gs_replay){.f = f, .path = p, .line = line, .line_cap = FIRST_LINE_CAP};
    *out = r;
    return 0;
}

void gs_replay_close(gs_replay *r)
{
    if (!r)
        return;
    fclose(r->f);
    gs_snapshot_free(&r->pending);
    free(r->line);
    free(r->path);
    free(r);
}

/* Reads one line without its newline into r->line, growing it up to the bound: 1 with *len
 * and whether it holds a NUL byte, 0 at the end of the file, -1 with err. */
static int read_raw_line(gs_replay *r, size_t *len, bool *nul, gs_error *err)
{
    size_t n = 0;
    int c = EOF;
    *nul = false;
    while ((c = getc_unlocked(r->f)) != EOF && c != '\n') {
        if (n == GS_REPLAY_MAX_LINE)
            return gs_fail(err, GS_EXIT_INPUT, "%s: line %lu: longer than %zu bytes", r->path,
                           r->lineno + 1, GS_REPLAY_MAX_LINE);
        if (n + 1 >= r->line_cap) {
            size_t cap = r->line_cap * 2 > GS_REPLAY_MAX_LINE + 1 ? GS_REPLAY_MAX_LINE + 1
                                                                 : r->line_cap * 2;
            char *grown = realloc(r->line, cap);
            if (!grown)
                return gs_fail_oom(err);
            r->line = grown;
            r->line_cap = cap;
        }
        *nul |= c == '\0';
        r->line[n++] = (char)c;
    }
    if (ferror(r->f))
        return gs_fail(err, GS_EXIT_INPUT, "%s: read error", r->path);
    r->line[n] = '\0';
    *len = n;
    return c == EOF && n == 0 ? 0 : 1;
}

/* Reads the next non-empty line into r->pending: 1, 0 at the end, -1 on error. */
static int read_line(gs_replay *r, gs_error *err)
{
    for (;;) {
        size_t len = 0;
        bool nul = false;
        int got = read_raw_line(r, &len, &nul, err);
        if (got <= 0)
            return got;
        r->lineno++;
        if (len == 0)
            continue;
        char where[64 + 4096];
        snprintf(where, sizeof where, "%s: line %lu", r->path, r->lineno);
        if (nul)
            return gs_fail(err, GS_EXIT_INPUT, "%s: a NUL byte", where);
        return gs_replay_parse_line(r->line, len, where, &r->pending, err) == 0 ? 1 : -1;
    }
}

/* Adds the pending line's GPU to out, refusing a GPU the sample already has. */
static int merge(gs_replay *r, gs_snapshot *out, gs_error *err)
{
    out->host = r->pending.host;
    out->steps = r->pending.steps;
    if (r->pending.ngpus == 0)
        return 0;
    const gs_mon_gpu *g = &r->pending.gpus[0];
    for (size_t i = 0; i < out->ngpus; i++)
        if (out->gpus[i].index == g->index)
            return gs_fail(err, GS_EXIT_INPUT, "%s: line %lu: GPU %u twice in one sample",
                           r->path, r->lineno, g->index);
    if (out->ngpus >= GS_REPLAY_MAX_GPUS)
        return gs_fail(err, GS_EXIT_INPUT, "%s: line %lu: more than %d GPUs in one sample",
                       r->path, r->lineno, GS_REPLAY_MAX_GPUS);
    gs_mon_gpu *d = gs_snapshot_add_gpu(out);
    if (!d)
        return gs_fail_oom(err);
    gs_mon_proc *procs = d->procs;
    size_t cap = d->procs_cap;
    *d = *g;
    d->procs = procs;
    d->procs_cap = cap;
    d->nprocs = 0;
    for (size_t p = 0; p < g->nprocs; p++) {
        gs_mon_proc *q = gs_mon_gpu_add_proc(d);
        if (!q)
            return gs_fail_oom(err);
        *q = g->procs[p];
    }
    gs_mon_gpu_sort_procs(d);
    return 0;
}

int gs_replay_next(gs_replay *r, gs_snapshot *out, gs_error *err)
{
    int rc;
    if (r->failed) {
        if (err)
            *err = r->deferred;
        return -1;
    }
    if (!r->have_pending && (rc = read_line(r, err)) <= 0)
        return rc;
    gs_snapshot_clear(out);
    out->ts_ms = r->pending.ts_ms;
    memcpy(out->hostname, r->pending.hostname, sizeof out->hostname);
    if (merge(r, out, err))
        return -1;
    for (;;) {
        r->have_pending = false;
        if ((rc = read_line(r, &r->deferred)) < 0) {
            r->failed = true;
            return 1;
        }
        if (rc == 0)
            return 1;
        r->have_pending = true;
        if (r->pending.ts_ms != out->ts_ms || strcmp(r->pending.hostname, out->hostname) != 0)
            return 1;
        if (merge(r, out, &r->deferred)) {
            r->failed = true;
            return 1;
        }
    }
}
