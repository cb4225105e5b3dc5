/* Durations grouped by a key, with the nsys statistics of each group: the engine under the
 * kernel, API and memcpy summaries. Callers collect one item per event; gs_dur_groups sorts
 * them so that each group's durations are contiguous and ascending, and makes one group per run. */
#ifndef GS_ANALYSIS_DUR_GROUPS_H
#define GS_ANALYSIS_DUR_GROUPS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/base/stats.h"
#include "common/vec.h"
#include "model/trace.h"

typedef struct gs_dur_key {
    gs_str name;     /* in the caller's string table, or 0 */
    int32_t tag[6];  /* anything else that tells groups apart (grid and block, memcpy kind) */
} gs_dur_key;

typedef struct gs_dur_item {
    gs_dur_key key;
    gs_ns dur;
    int64_t amount; /* summed per group (bytes of a copy), 0 when unused */
    gs_str aux;     /* carried along, not grouped on: a kernel's launching operator, or 0 */
} gs_dur_item;

typedef struct gs_dur_group {
    gs_dur_key key;
    gs_dur_stats time;
    int64_t amount; /* sum of the items' amounts */
    double time_pct; /* time.total / sum of every group's total × 100 */
} gs_dur_group;

/* Items collected from one trace after another (a summary's _add), grouped at the end. */
typedef GS_VEC(gs_dur_item) gs_dur_items;

/* Room for `more` items beyond those held, exactly (a summary knows each trace's count, and a
 * doubling would leave up to half of a large trace's items unused at the peak). 0, or -1 out of
 * memory. */
int gs_dur_items_reserve(gs_dur_items *v, size_t more);

/* Sorts items (reordering them) and fills *groups (malloc'ed, in key order). -1 when memory is
 * exhausted. */
int gs_dur_groups(gs_dur_item *items, size_t n, gs_dur_group **groups, size_t *ngroups);

#endif
