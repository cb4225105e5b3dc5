#include "analysis/pipeline/gsum_write.h"

#include <stdbool.h>

#include "analysis/pipeline/gsum_schema.h"
#include "common/json_write.h"

/* The layout .gsum files have always had (doc/FORMAT.md, "Rank summaries", has the keys):
 * format, version and minor on the first line, then a section per line, a list's records one per
 * line one space in. */
static const gs_json_layout file_layout = {.lines = true, .head = 3, .indent = 0};
static const gs_json_layout list_layout = {.lines = true, .indent = 1};

static void put_value(gs_json_writer *w, const gs_gsum_field *f, const char *rec)
{
    const void *p = rec + f->off;
    const char *k = f->key;
    switch ((enum gs_gsum_type)f->type) {
    case GS_F_I64: gs_json_put_int(w, k, *(const int64_t *)p); break;
    case GS_F_I32: gs_json_put_int(w, k, *(const int32_t *)p); break;
    case GS_F_U64: gs_json_put_uint(w, k, *(const uint64_t *)p); break;
    case GS_F_SIZE: gs_json_put_uint(w, k, *(const size_t *)p); break;
    case GS_F_U32: gs_json_put_uint(w, k, *(const uint32_t *)p); break;
    case GS_F_DBL: gs_json_put_real(w, k, *(const double *)p, 17); break; /* reads back exactly */
    case GS_F_BOOL: gs_json_put_bool(w, k, *(const bool *)p); break;
    case GS_F_ENUM: gs_json_put_int(w, k, *(const int *)p); break;
    case GS_F_U8: gs_json_put_uint(w, k, *(const uint8_t *)p); break;
    case GS_F_I8: gs_json_put_int(w, k, *(const int8_t *)p); break;
    case GS_F_LONG: gs_json_put_int(w, k, *(const long *)p); break;
    case GS_F_CHARS: gs_json_put_str(w, k, (const char *)p); break;
    case GS_F_STR: gs_json_put_str(w, k, *(char *const *)p); break; /* NULL: null */
    }
}

static void put_record(gs_json_writer *w, const char *key, const gs_gsum_section *s,
                       const char *rec)
{
    gs_json_begin_object(w, key, GS_JSON_INLINE);
    for (size_t i = 0; i < s->nfields; i++)
        put_value(w, &s->fields[i], rec);
    gs_json_end(w);
}

void gs_gsum_write(FILE *out, const gs_rank_summary *sum)
{
    size_t n;
    const gs_gsum_section *sec = gs_gsum_sections(&n);
    gs_json_writer w;
    gs_json_writer_init(&w, out);
    gs_json_begin_object(&w, NULL, file_layout);
    gs_json_put_str(&w, "format", GS_GSUM_MAGIC);
    gs_json_put_int(&w, "version", GS_GSUM_VERSION);
    gs_json_put_int(&w, "minor", GS_GSUM_MINOR);
    for (size_t i = 0; i < n; i++) {
        const gs_gsum_section *s = &sec[i];
        if (s->flag_off && !*(const bool *)((const char *)sum + s->flag_off))
            continue; /* read from a file without it: not claimed */
        if (!s->count_off) {
            put_record(&w, s->key, s, (const char *)sum);
            continue;
        }
        const char *v = *(char *const *)((const char *)sum + s->off);
        size_t count = *(const size_t *)((const char *)sum + s->count_off);
        gs_json_begin_array(&w, s->key, list_layout);
        for (size_t k = 0; k < count; k++)
            put_record(&w, NULL, s, v + k * s->size);
        gs_json_end(&w);
    }
    gs_json_end(&w);
}
