/* Grouping by name across traces: each trace has its own string table, so a summary interns the
 * names it meets into a table of its own, where equal names get equal ids. A name map caches,
 * for one trace, its string ids to the summary's ids, so each distinct name is hashed once. */
#ifndef GS_ANALYSIS_NAMES_H
#define GS_ANALYSIS_NAMES_H

#include <stddef.h>

#include "model/strtab.h"
#include "model/trace.h"

/* How much of a name is the grouping key (e.g. without an API version suffix); NULL = all. */
typedef size_t (*gs_name_key_len)(const char *name, size_t len);

typedef struct gs_name_map {
    gs_strtab *into;
    const gs_strtab *from;
    gs_name_key_len key_len;
    gs_str *ids; /* from-id -> into-id, GS_STR_ERROR while unknown */
} gs_name_map;

int gs_name_map_init(gs_name_map *m, gs_strtab *into, const gs_trace *from, gs_name_key_len key_len);
void gs_name_map_free(gs_name_map *m);

/* The summary's id for a trace's string; GS_STR_ERROR when memory is exhausted. */
gs_str gs_name_map_get(gs_name_map *m, gs_str id);

#endif
