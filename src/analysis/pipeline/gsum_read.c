#include "analysis/pipeline/gsum_read.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/diagnosis/diag_inputs.h"
#include "analysis/pipeline/gsum_schema.h"
#include "analysis/pipeline/summarise.h"
#include "common/log.h"
#include "ingest/json.h"

bool gs_is_gsum_path(const char *path)
{
    size_t n = strlen(path);
    return n > 5 && strcmp(path + n - 5, ".gsum") == 0;
}

static int read_value(gs_json *j, const gs_gsum_field *f, char *rec)
{
    void *p = rec + f->off;
    enum gs_json_tok t = gs_json_next(j);
    int64_t i = 0;
    bool is_int = t == GS_JSON_NUMBER && gs_json_int(j, &i);
    switch ((enum gs_gsum_type)f->type) {
    case GS_F_I64: if (is_int) { *(int64_t *)p = i; return 0; } break;
    case GS_F_I32:
        if (is_int && i >= INT32_MIN && i <= INT32_MAX) { *(int32_t *)p = (int32_t)i; return 0; }
        break;
    case GS_F_U64: if (is_int && i >= 0) { *(uint64_t *)p = (uint64_t)i; return 0; } break;
    case GS_F_SIZE: if (is_int && i >= 0) { *(size_t *)p = (size_t)i; return 0; } break;
    case GS_F_U32:
        if (is_int && i >= 0 && i <= UINT32_MAX) { *(uint32_t *)p = (uint32_t)i; return 0; }
        break;
    case GS_F_ENUM: if (is_int && i >= 0 && i < f->max) { *(int *)p = (int)i; return 0; } break;
    case GS_F_U8:
        if (is_int && i >= 0 && i < f->max) { *(uint8_t *)p = (uint8_t)i; return 0; }
        break;
    case GS_F_I8:
        if (is_int && i >= INT8_MIN && i <= INT8_MAX) { *(int8_t *)p = (int8_t)i; return 0; }
        break;
    case GS_F_LONG:
        if (is_int && i >= LONG_MIN && i <= LONG_MAX) { *(long *)p = (long)i; return 0; }
        break;
    case GS_F_CHARS:
        if (t == GS_JSON_STRING && j->tok_len < (size_t)f->max && f->max <= 256) {
            char v[256];
            size_t n = gs_json_decode(j, v);
            if (n < (size_t)f->max && !memchr(v, '\0', n)) {
                memcpy(p, v, n);
                ((char *)p)[n] = '\0';
                return 0;
            }
        }
        break;
    case GS_F_DBL: if (t == GS_JSON_NUMBER && gs_json_double(j, (double *)p)) return 0; break;
    case GS_F_BOOL:
        if (t == GS_JSON_TRUE || t == GS_JSON_FALSE) { *(bool *)p = t == GS_JSON_TRUE; return 0; }
        break;
    case GS_F_STR: {
        char **s = p;
        if (t == GS_JSON_NULL) {
            free(*s);
            *s = NULL;
            return 0;
        }
        if (t != GS_JSON_STRING)
            break;
        char *v = malloc(j->tok_len + 1);
        if (!v)
            return gs_fail_oom(j->err);
        v[gs_json_decode(j, v)] = '\0';
        free(*s);
        *s = v;
        return 0;
    }
    }
    if (t == GS_JSON_ERROR)
        return -1;
    return gs_json_fail(j, "\"%s\" has a value of the wrong type or out of range", f->key);
}

/* One record whose '{' was just read: every key the table knows, others skipped. */
static int read_fields(gs_json *j, const gs_gsum_section *s, char *rec)
{
    for (;;) {
        enum gs_json_tok t = gs_json_next(j);
        if (t == GS_JSON_OBJECT_END)
            return 0;
        if (t != GS_JSON_KEY)
            return t == GS_JSON_ERROR ? -1 : gs_json_fail(j, "\"%s\": expected a key", s->key);
        const gs_gsum_field *f = NULL;
        for (size_t i = 0; i < s->nfields && !f; i++)
            if (gs_json_tok_is(j, s->fields[i].key))
                f = &s->fields[i];
        if (f && read_value(j, f, rec) != 0)
            return -1;
        if (!f && (gs_json_next(j) == GS_JSON_ERROR || gs_json_skip(j) != 0))
            return -1;
    }
}

static int expect(gs_json *j, enum gs_json_tok want, const char *key, const char *what)
{
    enum gs_json_tok t = gs_json_next(j);
    if (t == want)
        return 0;
    return t == GS_JSON_ERROR ? -1 : gs_json_fail(j, "\"%s\": expected %s", key, what);
}

static int read_array(gs_json *j, const gs_gsum_section *s, gs_rank_summary *sum)
{
    char **v = (char **)((char *)sum + s->off);
    size_t *n = (size_t *)((char *)sum + s->count_off), cap = *n;
    if (*n)
        return gs_json_fail(j, "\"%s\" appears twice", s->key);
    if (expect(j, GS_JSON_ARRAY, s->key, "an array") != 0)
        return -1;
    for (;;) {
        enum gs_json_tok t = gs_json_next(j);
        if (t == GS_JSON_ARRAY_END)
            return 0;
        if (t != GS_JSON_OBJECT)
            return t == GS_JSON_ERROR ? -1 : gs_json_fail(j, "\"%s\": expected an object", s->key);
        if (*n == cap) {
            cap = cap ? cap * 2 : 16;
            char *grown = realloc(*v, cap * s->size);
            if (!grown)
                return gs_fail_oom(j->err);
            *v = grown;
        }
        memset(*v + *n * s->size, 0, s->size);
        (*n)++; /* counted before reading, so a failure still frees its strings */
        if (read_fields(j, s, *v + (*n - 1) * s->size) != 0)
            return -1;
    }
}

/* Names a summary must have: "" for null. 0, or -1 out of memory. */
static int name_or_empty(char **name)
{
    return *name || (*name = strdup("")) ? 0 : -1;
}

/* The copies' labels, bandwidths and averages, derived from what the file holds. */
static void derive_copies(gs_rank_summary *s)
{
    for (size_t i = 0; i < s->ncopies; i++) {
        gs_memcpy_row *r = &s->copies[i];
        gs_dur_stats st = {.count = r->time.count, .total = r->time.total, .min = r->time.min,
                           .max = r->time.max};
        st.avg = st.count ? st.total / (gs_ns)st.count : 0;
        *r = gs_memcpy_row_make(r->kind, r->src, r->dst, st, r->bytes, 0);
    }
}

/* The indexes between sections that the charts follow: NULL, or what is wrong. */
static const char *check_series(const gs_rank_series *v)
{
    for (size_t i = 0; i < v->util.nnvml; i++)
        if (v->util.nvml[i].bucket >= v->util.nbusy)
            return "an NVML sample outside the utilization buckets";
    for (size_t i = 0; i < v->nbars; i++)
        if (v->bars[i].first > v->bars[i].last)
            return "a step bar that ends before it begins";
    for (size_t i = 0; i < v->nmemory; i++) {
        const gs_mem_chart *c = &v->memory[i];
        if (c->npoints == 0 || c->first > v->nmem_points || c->npoints > v->nmem_points - c->first)
            return "a memory chart without its points";
    }
    return NULL;
}

/* The fields every view derives rather than stores, once everything is read. */
static int finish(gs_json *j, gs_rank_summary *s)
{
    s->from_gsum = true;
    s->inputs.rank = s->comm.rank = s->temporal.rank = s->id.rank;
    s->inputs.sync_top_op = s->sync_top_op;
    if (!s->has_compute)
        gs_compute_init(&s->compute);
    gs_diag_compute_inputs(s->has_compute ? &s->compute : NULL, &s->inputs);
    gs_rank_roof_inputs(s->has_roofline ? &s->roof : NULL, s->nkept, &s->inputs);
    if (!s->has_replay)
        gs_diag_replay_unknown(&s->inputs);
    s->comm.path = s->temporal.path = s->id.path;
    for (size_t i = 0; i < s->nkinds; i++)
        s->kinds[i].rank = s->id.rank;
    for (size_t i = 0; i < s->ncomm_steps; i++)
        s->comm_steps[i].rank = s->id.rank;
    for (size_t i = 0; i < s->steps.n; i++)
        s->steps.v[i].range = GS_NONE;
    for (size_t i = 0; i < s->ngaps; i++)
        s->gaps[i].rank = s->id.rank;
    derive_copies(s);
    const char *bad = check_series(&s->series);
    if (bad)
        return gs_json_fail(j, "%s", bad);
    int rc = name_or_empty(&s->format) | name_or_empty(&s->id.path);
    for (size_t i = 0; i < s->nkernels; i++)
        rc |= name_or_empty(&s->kernels[i].name);
    for (size_t i = 0; i < s->nops; i++)
        rc |= name_or_empty(&s->ops[i].name);
    for (size_t i = 0; i < s->ndevices; i++)
        if (!s->devices[i].name && !(s->devices[i].name = strdup("")))
            rc = -1;
    return rc ? gs_fail_oom(j->err) : 0;
}

static int read_summary(gs_json *j, gs_rank_summary *sum)
{
    size_t nsec;
    const gs_gsum_section *sec = gs_gsum_sections(&nsec);
    bool magic = false, version = false;
    if (gs_json_next(j) != GS_JSON_OBJECT)
        return j->tok_type == GS_JSON_ERROR ? -1 : gs_json_fail(j, "not a gpuscope rank summary");
    for (;;) {
        enum gs_json_tok t = gs_json_next(j);
        if (t == GS_JSON_OBJECT_END)
            break;
        if (t != GS_JSON_KEY)
            return t == GS_JSON_ERROR ? -1 : gs_json_fail(j, "expected a key");
        if (gs_json_tok_is(j, "format")) {
            magic = gs_json_next(j) == GS_JSON_STRING && gs_json_tok_is(j, GS_GSUM_MAGIC);
            if (!magic)
                return gs_json_fail(j, "not a gpuscope rank summary");
            continue;
        }
        if (gs_json_tok_is(j, "version")) {
            int64_t v = 0;
            version = gs_json_next(j) == GS_JSON_NUMBER && gs_json_int(j, &v) &&
                      v == GS_GSUM_VERSION;
            if (!version)
                return gs_json_fail(j, "summary version not supported (this gpuscope reads %d)",
                                    GS_GSUM_VERSION);
            continue;
        }
        const gs_gsum_section *s = NULL;
        for (size_t i = 0; i < nsec && !s; i++)
            if (gs_json_tok_is(j, sec[i].key))
                s = &sec[i];
        if (s && s->flag_off)
            *(bool *)((char *)sum + s->flag_off) = true;
        int rc;
        if (!s)
            rc = gs_json_next(j) == GS_JSON_ERROR ? -1 : gs_json_skip(j);
        else if (s->count_off)
            rc = read_array(j, s, sum);
        else
            rc = expect(j, GS_JSON_OBJECT, s->key, "an object") != 0
                     ? -1
                     : read_fields(j, s, (char *)sum);
        if (rc != 0)
            return -1;
    }
    if (!magic || !version)
        return gs_json_fail(j, "not a gpuscope rank summary (no format or version)");
    return finish(j, sum);
}

static int read_source(gs_source *src, const char *name, gs_rank_summary *out, gs_error *err)
{
    if (gs_rank_summary_init(out, &(gs_rank_id){.path = (char *)name}, err) != 0) {
        gs_source_close(src);
        return -1;
    }
    out->stages = GS_STAGE_ALL; /* every section of its minor version (the has_* flags) */
    gs_json j;
    int rc = gs_json_init(&j, src, err);
    if (rc == 0) {
        rc = read_summary(&j, out);
        gs_json_free(&j);
    }
    gs_source_close(src);
    if (rc != 0)
        gs_rank_summary_free(out);
    else
        GS_LOG(GS_LOG_INFO, "%s: gsum reader: summary of rank %d (%s trace), %zu step(s), %zu "
               "collective(s)", name, (int)out->id.rank, out->format, out->steps.n, out->coll.n);
    return rc;
}

int gs_gsum_read(const char *path, gs_rank_summary *out, gs_error *err)
{
    gs_source *src = gs_source_open(path, err);
    if (!src) {
        memset(out, 0, sizeof *out);
        return -1;
    }
    return read_source(src, path, out, err);
}

int gs_gsum_read_buffer(const char *data, size_t size, const char *name, gs_rank_summary *out,
                        gs_error *err)
{
    gs_source *src = gs_source_memory(data, size, name, err);
    if (!src) {
        memset(out, 0, sizeof *out);
        return -1;
    }
    return read_source(src, name, out, err);
}
