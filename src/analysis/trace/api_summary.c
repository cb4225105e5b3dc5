#include "analysis/trace/api_summary.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/base/dur_groups.h"
#include "analysis/base/window.h"
#include "analysis/base/names.h"
#include "common/log.h"

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

static size_t count_calls(const gs_profile *p, const gs_select *sel)
{
    size_t n = 0;
    for (size_t t = 0; t < p->traces.n; t++)
        if (gs_selected(sel, p->traces.v[t]))
            n += p->traces.v[t]->apis.n;
    return n;
}

/* One item per call of the selected traces inside their windows; *nitems counts them. */
static int collect(const gs_profile *p, const gs_select *sel, gs_strtab *names, gs_dur_item *items,
                   size_t *nitems)
{
    size_t n = 0;
    for (size_t t = 0; t < p->traces.n; t++) {
        const gs_trace *tr = p->traces.v[t];
        if (!gs_selected(sel, tr))
            continue;
        gs_name_map map;
        gs_window w;
        if (gs_window_build(tr, sel, &w, NULL) != 0)
            return -1;
        if (gs_name_map_init(&map, names, tr, gs_api_name_len) != 0) {
            gs_window_free(&w);
            return -1;
        }
        for (size_t i = 0; i < tr->apis.n; i++) {
            const gs_api *a = &tr->apis.v[i];
            if (!gs_window_holds(&w, a->start))
                continue;
            gs_dur_item *it = &items[n++];
            memset(it, 0, sizeof *it);
            it->key.name = gs_name_map_get(&map, a->name);
            it->dur = a->end - a->start;
            if (it->key.name == GS_STR_ERROR) {
                gs_name_map_free(&map);
                gs_window_free(&w);
                return -1;
            }
        }
        gs_name_map_free(&map);
        gs_window_free(&w);
    }
    *nitems = n;
    return 0;
}

static int make_rows(gs_api_summary *s, gs_dur_item *items, size_t n)
{
    gs_dur_group *groups;
    size_t ngroups;
    if (gs_dur_groups(items, n, &groups, &ngroups) != 0)
        return -1;
    s->rows = calloc(ngroups ? ngroups : 1, sizeof *s->rows);
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

int gs_api_summary_build(const gs_profile *p, const gs_select *sel, gs_api_summary *out,
                         gs_error *err)
{
    double logged_at = gs_log_clock(GS_LOG_DETAIL);
    memset(out, 0, sizeof *out);
    if (gs_strtab_init(&out->names) != 0)
        return gs_fail_oom(err);
    size_t n = count_calls(p, sel);
    gs_dur_item *items = malloc((n ? n : 1) * sizeof *items);
    int rc = items ? collect(p, sel, &out->names, items, &n) : -1;
    if (rc == 0)
        rc = make_rows(out, items, n);
    free(items);
    if (rc != 0) {
        gs_api_summary_free(out);
        return gs_fail_oom(err);
    }
    GS_LOG_TOOK(logged_at, "API summary");
    return 0;
}

void gs_api_summary_free(gs_api_summary *s)
{
    free(s->rows);
    gs_strtab_free(&s->names);
    memset(s, 0, sizeof *s);
}
