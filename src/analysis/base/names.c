#include "analysis/base/names.h"

#include <stdlib.h>

#include "common/vec.h"

int gs_name_map_init(gs_name_map *m, gs_strtab *into, const gs_trace *from, gs_name_key_len key_len)
{
    m->into = into;
    m->from = &from->strings;
    m->key_len = key_len;
    m->ids = gs_array_new(from->strings.n, sizeof *m->ids);
    if (!m->ids)
        return -1;
    for (size_t i = 0; i < from->strings.n; i++)
        m->ids[i] = GS_STR_ERROR;
    return 0;
}

void gs_name_map_free(gs_name_map *m)
{
    free(m->ids);
    m->ids = NULL;
}

gs_str gs_name_map_get(gs_name_map *m, gs_str id)
{
    if (m->ids[id] == GS_STR_ERROR) {
        const char *s = gs_str_get(m->from, id);
        size_t len = gs_str_len(m->from, id);
        m->ids[id] = gs_strtab_intern(m->into, s, m->key_len ? m->key_len(s, len) : len);
    }
    return m->ids[id];
}
