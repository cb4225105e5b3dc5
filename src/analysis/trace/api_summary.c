#include "analysis/trace/api_summary.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/base/dur_groups.h"
#include "analysis/base/names.h"
#include "common/log.h"
#include "common/vec.h"

/* CUPTI names API entry points with the version they appeared in ("cudaMemcpy_v3020"); nsys and
 * users know them without it, and two versions of one call are one call. */
size_t gs_api_name_len(const char *name, size_t len)
{
    size_t digits = 0;
    while (digits < len && name[len - 1 - digits] >= '0' && name[len - 1 - digits] <= '9')
        digits++;
    size_t stem = len - digits;
    if (digits == 0 || stem < 3 || name[stem - 1] != 'v' || name[stem - 2] != '_')
        return len;
    return stem - 2;
}

static int cmp_row(const void *pa, const void *pb)
{
    const gs_api_row *a = pa, *b = pb;
    if (a->time.total != b->time.total)
        return a->time.total > b->time.total ? -1 : 1;
    if (a->time.count != b->time.count)
        return a->time.count < b->time.count ? -1 : 1;
    return strcmp(a->name, b->name);
}

static int make_rows(gs_api_summary *s, gs_dur_item *items, size_t n)
{
    gs_dur_group *groups;
    size_t ngroups;
    if (gs_dur_groups(items, n, &groups, &ngroups) != 0)
        return -1;
    s->rows = gs_array_zeroed(ngroups, sizeof *s->rows);
    if (!s->rows) {
        free(groups);
        return -1;
    }
    for (size_t g = 0; g < ngroups; g++)
        s->rows[s->nrows++] = (gs_api_row){gs_str_get(&s->names, groups[g].key.name),
                                           groups[g].time, groups[g].time_pct};
    free(groups);
    qsort(s->rows, s->nrows, sizeof *s->rows, cmp_row);
    return 0;
}

int gs_api_summary_init(gs_api_summary *s, gs_error *err)
{
    memset(s, 0, sizeof *s);
    return gs_strtab_init(&s->names) == 0 ? 0 : gs_fail_oom(err);
}

int gs_api_summary_add(gs_api_summary *s, const gs_trace_ctx *c, gs_error *err)
{
    const gs_trace *t = c->trace;
    gs_name_map map;
    if (gs_dur_items_reserve(&s->calls, t->apis.n) != 0 ||
        gs_name_map_init(&map, &s->names, t, gs_api_name_len) != 0) {
        gs_api_summary_free(s);
        return gs_fail_oom(err);
    }
    int rc = 0;
    for (size_t i = 0; i < t->apis.n && rc == 0; i++) {
        const gs_api *a = &t->apis.v[i];
        if (!gs_window_holds(&c->window, a->start))
            continue;
        gs_dur_item *it = GS_VEC_PUSH(&s->calls);
        it->key.name = gs_name_map_get(&map, a->name);
        it->dur = a->end - a->start;
        rc = it->key.name == GS_STR_ERROR ? -1 : 0;
    }
    gs_name_map_free(&map);
    if (rc != 0) {
        gs_api_summary_free(s);
        return gs_fail_oom(err);
    }
    return 0;
}

int gs_api_summary_finish(gs_api_summary *s, gs_error *err)
{
    double logged_at = gs_log_clock(GS_LOG_DETAIL);
    int rc = make_rows(s, s->calls.v, s->calls.n);
    GS_VEC_FREE(&s->calls);
    if (rc != 0) {
        gs_api_summary_free(s);
        return gs_fail_oom(err);
    }
    GS_LOG_TOOK(logged_at, "API summary");
    return 0;
}

int gs_api_summary_build(const gs_trace_ctx *c, gs_api_summary *out, gs_error *err)
{
    return gs_api_summary_init(out, err) != 0 || gs_api_summary_add(out, c, err) != 0
               ? -1
               : gs_api_summary_finish(out, err);
}

void gs_api_summary_free(gs_api_summary *s)
{
    free(s->rows);
    gs_strtab_free(&s->names);
    GS_VEC_FREE(&s->calls);
    memset(s, 0, sizeof *s);
}
