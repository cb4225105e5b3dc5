#include "render/render.h"

#include "render/json.h"

int gs_render(FILE *out, const gs_table *t, enum gs_format format, const gs_text_style *style,
              const char *command)
{
    switch (format) {
    case GS_FORMAT_TABLE:
        return gs_render_text(out, t, style);
    case GS_FORMAT_CSV:
        gs_render_csv(out, t);
        return 0;
    case GS_FORMAT_JSON:
        gs_render_json(out, t, command);
        return 0;
    }
    return 0;
}

void gs_put_title(FILE *out, const gs_text_style *style, const char *title, size_t shown,
                  size_t total)
{
    bool bold = style && style->tty;
    fprintf(out, "%s%s", bold ? "\033[1m" : "", title);
    if (shown < total)
        fprintf(out, " (first %zu of %zu)", shown, total);
    fputs(bold ? "\033[0m\n" : "\n", out);
}

int gs_render_sections(FILE *out, gs_json_writer *json, gs_section *s, size_t n,
                       enum gs_format format, const gs_text_style *style, size_t limit,
                       bool blank_first)
{
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        gs_table *tb = s[i].table;
        size_t total = s[i].total ? s[i].total : tb->nrows;
        if (!s[i].unlimited)
            gs_table_limit(tb, limit);
        switch (format) {
        case GS_FORMAT_JSON:
            gs_json_rows(json, s[i].key, tb);
            break;
        case GS_FORMAT_CSV:
            fprintf(out, "%s# %s\n", i ? "\n" : "", s[i].key);
            gs_render_csv(out, tb);
            break;
        case GS_FORMAT_TABLE:
            if (i || blank_first)
                putc('\n', out);
            gs_put_title(out, style, s[i].title, tb->nrows, total);
            rc |= gs_render_text(out, tb, style);
            break;
        }
    }
    return rc ? -1 : 0;
}
