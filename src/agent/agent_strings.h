/* The writer's string table: bytes -> string id, so each distinct name is defined once per
 * file. Writer thread only. */
#ifndef GS_AGENT_AGENT_STRINGS_H
#define GS_AGENT_AGENT_STRINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "common/gst_format.h"
#include "common/hashtab.h"

typedef struct gsa_string_block gsa_string_block;

typedef struct gsa_strings {
    gs_hashtab ids;           /* gs_hash_bytes of the bytes -> where they are and their id */
    gsa_string_block *blocks; /* the bytes, in blocks that never move */
    gst_strid (*new_id)(void);
} gsa_strings;

/* Empties the table (freeing its memory) and sets where new ids come from. */
void gsa_strings_reset(gsa_strings *t, gst_strid (*new_id)(void));

/* The id of s[len]; *is_new tells the caller to define it. 0 when out of memory. */
gst_strid gsa_strings_find_or_add(gsa_strings *t, const char *s, size_t len, bool *is_new);

#endif
