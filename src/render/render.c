#include "render/render.h"

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
