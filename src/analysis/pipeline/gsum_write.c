#include "analysis/pipeline/gsum_write.h"

#include <inttypes.h>
#include <stdbool.h>

#include "analysis/pipeline/gsum_schema.h"
#include "common/json_write.h"

static void put_value(FILE *out, const gs_gsum_field *f, const char *rec)
{
    const void *p = rec + f->off;
    switch ((enum gs_gsum_type)f->type) {
    case GS_F_I64: fprintf(out, "%" PRId64, *(const int64_t *)p); break;
    case GS_F_I32: fprintf(out, "%" PRId32, *(const int32_t *)p); break;
    case GS_F_U64: fprintf(out, "%" PRIu64, *(const uint64_t *)p); break;
    case GS_F_SIZE: fprintf(out, "%zu", *(const size_t *)p); break;
    case GS_F_U32: fprintf(out, "%" PRIu32, *(const uint32_t *)p); break;
    case GS_F_DBL: fprintf(out, "%.17g", *(const double *)p); break; /* reads back exactly */
    case GS_F_BOOL: fputs(*(const bool *)p ? "true" : "false", out); break;
    case GS_F_ENUM: fprintf(out, "%d", *(const int *)p); break;
    case GS_F_U8: fprintf(out, "%u", (unsigned)*(const uint8_t *)p); break;
    case GS_F_I8: fprintf(out, "%d", (int)*(const int8_t *)p); break;
    case GS_F_LONG: fprintf(out, "%ld", *(const long *)p); break;
    case GS_F_CHARS: gs_json_string(out, (const char *)p); break;
    case GS_F_STR:
        if (*(char *const *)p)
            gs_json_string(out, *(char *const *)p);
        else
            fputs("null", out);
        break;
    }
}

static void put_record(FILE *out, const gs_gsum_section *s, const char *rec)
{
    putc('{', out);
    for (size_t i = 0; i < s->nfields; i++) {
        fprintf(out, "%s\"%s\": ", i ? ", " : "", s->fields[i].key);
        put_value(out, &s->fields[i], rec);
    }
    putc('}', out);
}

void gs_gsum_write(FILE *out, const gs_rank_summary *sum)
{
    size_t n;
    const gs_gsum_section *sec = gs_gsum_sections(&n);
    fprintf(out, "{\"format\": \"%s\", \"version\": %d, \"minor\": %d", GS_GSUM_MAGIC,
            GS_GSUM_VERSION, GS_GSUM_MINOR);
    for (size_t i = 0; i < n; i++) {
        const gs_gsum_section *s = &sec[i];
        if (s->flag_off && !*(const bool *)((const char *)sum + s->flag_off))
            continue; /* read from a file without it: not claimed */
        fprintf(out, ",\n\"%s\": ", s->key);
        if (!s->count_off) {
            put_record(out, s, (const char *)sum);
            continue;
        }
        const char *v = *(char *const *)((const char *)sum + s->off);
        size_t count = *(const size_t *)((const char *)sum + s->count_off);
        putc('[', out);
        for (size_t k = 0; k < count; k++) {
            fputs(k ? ",\n " : "\n ", out);
            put_record(out, s, v + k * s->size);
        }
        fputs(count ? "\n]" : "]", out);
    }
    fputs("\n}\n", out);
}
