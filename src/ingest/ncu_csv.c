/* Nsight Compute CSV reader: a streaming RFC 4180 record splitter (quoted fields may hold
 * commas, doubled quotes and newlines) under the bounds of ncu_csv.h, and the two page layouts
 * ncu's --csv writes (NVIDIA's Nsight Compute CLI documentation, "--page"). Lines ncu writes
 * around the CSV ("==PROF== Connected to process ...", "==WARNING== ...") are skipped. */
#include "ingest/ncu_csv.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "common/vec.h"
#include "ingest/ncu_csv_metrics.h"
#include "ingest/source.h"

/* ---- the columns ---------------------------------------------------------------------- */

/* The columns both pages start with, and the details page's own. */
enum col {
    COL_ID, COL_KERNEL, COL_BLOCK, COL_GRID, COL_CC,
    COL_SECTION, COL_METRIC, COL_UNIT, COL_VALUE,
    COL_RULE, COL_RULE_TYPE, COL_RULE_TEXT, COL_SPEEDUP_TYPE, COL_SPEEDUP,
    NCOLS
};
static const char *const col_names[NCOLS] = {
    "ID", "Kernel Name", "Block Size", "Grid Size", "CC",
    "Section Name", "Metric Name", "Metric Unit", "Metric Value",
    "Rule Name", "Rule Type", "Rule Description", "Estimated Speedup Type", "Estimated Speedup",
};

/* ---- the reader's state ------------------------------------------------------------------ */

typedef struct reader {
    gs_ncu_report *out;
    const char *name;
    gs_error *err;
    /* the record being split */
    char *rec;
    size_t len, cap;
    uint32_t *field; /* start offsets into rec; each field is NUL-terminated there */
    uint32_t nfields;
    bool quoted, after_quote, first_quoted, at_start;
    int64_t line, rec_line;
    /* the current header */
    bool have_header, raw, want_units;
    int32_t col[NCOLS];      /* -1 when absent */
    int16_t *raw_slot;       /* raw page: slot of each column, -1 for none */
    double *raw_scale;       /* raw page: multiplier from the unit row (gs_ncu_unit_scale) */
    uint32_t raw_ncols;
} reader;

static int fail_at(reader *r, int64_t line, const char *what, const char *detail)
{
    return gs_fail(r->err, GS_EXIT_INPUT, "%s: line %lld: %s%s%s", r->name, (long long)line, what,
                   detail ? ": " : "", detail ? detail : "");
}

static const char *field(const reader *r, int32_t col)
{
    return col >= 0 && (uint32_t)col < r->nfields ? r->rec + r->field[col] : "";
}

/* A number as ncu writes it: digits grouped by commas ("2,617,073,170.73"). NaN for anything
 * else ("n/a", text, empty). */
static double parse_number(const char *s)
{
    char buf[64];
    size_t n = 0;
    for (; *s && n + 1 < sizeof buf; s++)
        if (*s != ',')
            buf[n++] = *s;
    if (*s || n == 0)
        return NAN;
    buf[n] = 0;
    char *end;
    double v = strtod(buf, &end);
    return *end == 0 && isfinite(v) ? v : NAN;
}

/* "(384, 1, 1)" */
static bool parse_dim3(const char *s, int32_t v[3])
{
    long a, b, c;
    char tail;
    if (sscanf(s, " (%ld , %ld , %ld )%c", &a, &b, &c, &tail) != 3)
        return false;
    if (a < 0 || b < 0 || c < 0 || a > INT32_MAX || b > INT32_MAX || c > INT32_MAX)
        return false;
    v[0] = (int32_t)a, v[1] = (int32_t)b, v[2] = (int32_t)c;
    return true;
}

static gs_str intern(reader *r, const char *s)
{
    if (gs_strtab_bytes(&r->out->strings) > GS_NCU_MAX_STRINGS)
        return GS_STR_ERROR;
    return gs_strtab_intern(&r->out->strings, s, strlen(s));
}

/* ---- records ----------------------------------------------------------------------------- */

static int take_header(reader *r)
{
    for (int c = 0; c < NCOLS; c++) {
        r->col[c] = -1;
        for (uint32_t f = 0; f < r->nfields; f++)
            if (!strcmp(field(r, (int32_t)f), col_names[c])) {
                r->col[c] = (int32_t)f;
                break;
            }
    }
    if (r->col[COL_KERNEL] < 0 || r->col[COL_GRID] < 0 || r->col[COL_BLOCK] < 0)
        return fail_at(r, r->rec_line, "the header has no Kernel Name, Grid Size or Block Size",
                       NULL);
    r->raw = r->col[COL_METRIC] < 0 || r->col[COL_VALUE] < 0;
    r->want_units = r->raw;
    r->have_header = true;
    r->out->runs++;
    if (r->raw)
        r->out->raw_runs++;
    else
        r->out->details_runs++;
    free(r->raw_slot);
    free(r->raw_scale);
    r->raw_slot = NULL, r->raw_scale = NULL, r->raw_ncols = 0;
    if (!r->raw)
        return 0;
    r->raw_slot = gs_array_new(r->nfields, sizeof *r->raw_slot);
    r->raw_scale = gs_array_new(r->nfields, sizeof *r->raw_scale);
    if (!r->raw_slot || !r->raw_scale)
        return gs_fail_oom(r->err);
    r->raw_ncols = r->nfields;
    for (uint32_t f = 0; f < r->nfields; f++) {
        r->raw_slot[f] = -1;
        r->raw_scale[f] = 1;
        enum gs_ncu_metric slot;
        if (gs_ncu_raw_slot(field(r, (int32_t)f), &slot))
            r->raw_slot[f] = (int16_t)slot;
    }
    return 0;
}

/* The kernel a data row belongs to: the last one when it has the same ID in the same run (the
 * details page gives each kernel many consecutive rows), else a new one. */
static gs_ncu_kernel *row_kernel(reader *r, int64_t id)
{
    gs_ncu_report *o = r->out;
    if (o->kernels.n > 0) {
        gs_ncu_kernel *last = &o->kernels.v[o->kernels.n - 1];
        if (last->id == id && last->run == o->runs - 1)
            return last;
    }
    if (o->kernels.n >= GS_NCU_MAX_KERNELS) {
        fail_at(r, r->rec_line, "more kernels than the reader keeps", NULL);
        return NULL;
    }
    int32_t grid[3], block[3];
    if (!parse_dim3(field(r, r->col[COL_GRID]), grid)) {
        fail_at(r, r->rec_line, "Grid Size is not (x, y, z)", field(r, r->col[COL_GRID]));
        return NULL;
    }
    if (!parse_dim3(field(r, r->col[COL_BLOCK]), block)) {
        fail_at(r, r->rec_line, "Block Size is not (x, y, z)", field(r, r->col[COL_BLOCK]));
        return NULL;
    }
    gs_str name = intern(r, field(r, r->col[COL_KERNEL]));
    gs_ncu_kernel *k = name == GS_STR_ERROR ? NULL : GS_VEC_PUSH(&o->kernels);
    if (!k) {
        gs_fail_oom(r->err);
        return NULL;
    }
    *k = (gs_ncu_kernel){.id = id, .run = o->runs - 1, .line = r->rec_line, .name = name,
                         .cc = parse_number(field(r, r->col[COL_CC]))};
    memcpy(k->grid, grid, sizeof grid);
    memcpy(k->block, block, sizeof block);
    for (int m = 0; m < GS_NCU__COUNT; m++)
        k->metric[m] = NAN;
    return k;
}

static int take_rule(reader *r, uint32_t kernel)
{
    if (r->out->rules.n >= GS_NCU_MAX_RULES)
        return fail_at(r, r->rec_line, "more rule findings than the reader keeps", NULL);
    gs_ncu_rule x = {
        .kernel = kernel,
        .line = r->rec_line,
        .section = intern(r, field(r, r->col[COL_SECTION])),
        .name = intern(r, field(r, r->col[COL_RULE])),
        .type = intern(r, field(r, r->col[COL_RULE_TYPE])),
        .description = intern(r, field(r, r->col[COL_RULE_TEXT])),
        .speedup_type = intern(r, field(r, r->col[COL_SPEEDUP_TYPE])),
        .speedup_pct = parse_number(field(r, r->col[COL_SPEEDUP])),
    };
    if (x.section == GS_STR_ERROR || x.name == GS_STR_ERROR || x.type == GS_STR_ERROR ||
        x.description == GS_STR_ERROR || x.speedup_type == GS_STR_ERROR)
        return gs_fail_oom(r->err);
    gs_ncu_rule *slot = GS_VEC_PUSH(&r->out->rules);
    if (!slot)
        return gs_fail_oom(r->err);
    *slot = x;
    return 0;
}

static void take_details_metric(reader *r, gs_ncu_kernel *k)
{
    enum gs_ncu_metric slot;
    if (gs_ncu_details_slot(field(r, r->col[COL_SECTION]), field(r, r->col[COL_METRIC]), &slot))
        k->metric[slot] = parse_number(field(r, r->col[COL_VALUE])) *
                          gs_ncu_unit_scale(field(r, r->col[COL_UNIT]));
}

static int take_data(reader *r)
{
    if (r->nfields <= (uint32_t)r->col[COL_KERNEL] || r->nfields <= (uint32_t)r->col[COL_GRID] ||
        r->nfields <= (uint32_t)r->col[COL_BLOCK])
        return fail_at(r, r->rec_line, "a row shorter than the header", NULL);
    if (r->raw && r->nfields > r->raw_ncols)
        return fail_at(r, r->rec_line, "a row longer than the header", NULL);
    double idv = parse_number(field(r, r->col[COL_ID]));
    if (r->col[COL_ID] >= 0 && (isnan(idv) || idv < 0 || idv > 1e15 || idv != floor(idv)))
        return fail_at(r, r->rec_line, "ID is not a whole number", field(r, r->col[COL_ID]));
    gs_ncu_kernel *k = row_kernel(r, r->col[COL_ID] >= 0 ? (int64_t)idv : (int64_t)r->out->kernels.n);
    if (!k)
        return -1;
    if (r->raw) {
        for (uint32_t f = 0; f < r->nfields; f++)
            if (r->raw_slot[f] >= 0)
                k->metric[r->raw_slot[f]] = parse_number(field(r, (int32_t)f)) * r->raw_scale[f];
        return 0;
    }
    take_details_metric(r, k);
    if (*field(r, r->col[COL_RULE]))
        return take_rule(r, (uint32_t)(k - r->out->kernels.v));
    return 0;
}

/* The raw page's second row: the unit of each metric (empty ID). */
static void take_units(reader *r)
{
    for (uint32_t f = 0; f < r->nfields && f < r->raw_ncols; f++)
        r->raw_scale[f] = gs_ncu_unit_scale(field(r, (int32_t)f));
}

static int take_record(reader *r)
{
    const char *first = field(r, 0);
    if (r->nfields == 1 && !*first)
        return 0; /* a blank line */
    if (!r->first_quoted && !strncmp(first, "==", 2))
        return 0; /* ncu's own messages */
    if (!strcmp(first, "ID") && r->nfields > 1)
        return take_header(r);
    if (!r->have_header)
        return fail_at(r, r->rec_line, "not an Nsight Compute CSV export: no header row "
                                       "(\"ID\",\"Process ID\",...,\"Kernel Name\",...)", NULL);
    if (r->want_units) {
        r->want_units = false;
        if (!*field(r, r->col[COL_ID])) {
            take_units(r);
            return 0;
        }
    }
    return take_data(r);
}

/* ---- splitting records ------------------------------------------------------------------- */

static int put_byte(reader *r, char c)
{
    if (r->len + 1 >= GS_NCU_MAX_RECORD)
        return fail_at(r, r->rec_line, "a record longer than 1 MiB", NULL);
    if (r->len + 1 >= r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 4096;
        char *p = realloc(r->rec, cap);
        if (!p)
            return gs_fail_oom(r->err);
        r->rec = p, r->cap = cap;
    }
    r->rec[r->len++] = c;
    return 0;
}

static int start_field(reader *r)
{
    if (r->nfields >= GS_NCU_MAX_FIELDS)
        return fail_at(r, r->rec_line, "a record with more than 8192 fields", NULL);
    r->field[r->nfields++] = (uint32_t)r->len;
    r->quoted = r->after_quote = false;
    r->at_start = true;
    return 0;
}

static int end_field(reader *r)
{
    return put_byte(r, 0);
}

static int end_record(reader *r)
{
    if (end_field(r) != 0 || take_record(r) != 0)
        return -1;
    r->len = 0, r->nfields = 0;
    r->first_quoted = false;
    r->rec_line = r->line;
    return start_field(r);
}

static int feed(reader *r, const char *buf, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char c = buf[i];
        if (c == '\n')
            r->line++;
        if (r->quoted) {
            if (c == '"') {
                r->quoted = false, r->after_quote = true;
                continue;
            }
            if (put_byte(r, c) != 0)
                return -1;
            continue;
        }
        if (c == '"' && r->at_start) { /* an opening quote */
            r->quoted = true, r->at_start = false;
            if (r->nfields == 1)
                r->first_quoted = true;
            continue;
        }
        if (c == '"' && r->after_quote) { /* "" inside a quoted field */
            r->quoted = true, r->after_quote = false;
            if (put_byte(r, '"') != 0)
                return -1;
            continue;
        }
        if (c == ',') {
            if (end_field(r) != 0 || start_field(r) != 0)
                return -1;
            continue;
        }
        if (c == '\n') {
            if (end_record(r) != 0)
                return -1;
            continue;
        }
        if (c == '\r')
            continue;
        r->at_start = r->after_quote = false;
        if (put_byte(r, c) != 0)
            return -1;
    }
    return 0;
}

static int read_all(reader *r, gs_source *src)
{
    char buf[65536];
    r->line = r->rec_line = 1;
    r->field = gs_array_new(GS_NCU_MAX_FIELDS, sizeof *r->field);
    if (!r->field)
        return gs_fail_oom(r->err);
    if (start_field(r) != 0)
        return -1;
    for (;;) {
        ssize_t got = gs_source_read(src, buf, sizeof buf, r->err);
        if (got < 0)
            return -1;
        if (got == 0)
            break;
        if (feed(r, buf, (size_t)got) != 0)
            return -1;
    }
    if (r->quoted)
        return fail_at(r, r->rec_line, "a quoted field is not closed at the end of the file", NULL);
    if (r->len > 0 || r->nfields > 1) {
        if (end_field(r) != 0 || take_record(r) != 0)
            return -1;
    }
    if (!r->have_header)
        return gs_fail(r->err, GS_EXIT_INPUT,
                       "%s: not an Nsight Compute CSV export: no header row", r->name);
    return 0;
}

static int read_source(gs_source *src, const char *name, gs_ncu_report *out, gs_error *err)
{
    *out = (gs_ncu_report){0};
    reader r = {.out = out, .name = name, .err = err};
    int rc = -1;
    out->path = strdup(name);
    if (out->path && gs_strtab_init(&out->strings) == 0)
        rc = read_all(&r, src);
    else
        gs_fail_oom(err);
    free(r.rec);
    free(r.field);
    free(r.raw_slot);
    free(r.raw_scale);
    if (rc != 0)
        gs_ncu_report_free(out);
    return rc;
}

int gs_ncu_read(const char *path, gs_ncu_report *out, gs_error *err)
{
    gs_source *src = gs_source_open(path, err);
    if (!src) {
        *out = (gs_ncu_report){0};
        return -1;
    }
    int rc = read_source(src, path, out, err);
    gs_source_close(src);
    return rc;
}

int gs_ncu_read_buffer(const char *data, size_t size, const char *name, gs_ncu_report *out,
                       gs_error *err)
{
    gs_source *src = gs_source_memory(data, size, name, err);
    if (!src) {
        *out = (gs_ncu_report){0};
        return -1;
    }
    int rc = read_source(src, name, out, err);
    gs_source_close(src);
    return rc;
}
