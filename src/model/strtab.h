/* Interned strings: every name in a trace is stored once and referred to by a 32-bit id.
 * Id 0 is the empty string. Pointers returned by gs_str_get stay valid until gs_strtab_free. */
#ifndef GS_MODEL_STRTAB_H
#define GS_MODEL_STRTAB_H

#include <stddef.h>
#include <stdint.h>

#include "common/hashtab.h"

typedef uint32_t gs_str;
#define GS_STR_EMPTY ((gs_str)0)
#define GS_STR_ERROR ((gs_str)UINT32_MAX) /* returned by intern when memory is exhausted */

typedef struct gs_strtab {
    const char **ptr; /* id -> NUL-terminated bytes */
    uint32_t *len;    /* id -> length */
    size_t n, cap;
    gs_hashtab ids; /* gs_hash_bytes of the bytes -> id */
    struct gs_strblock *blocks;
    size_t block_bytes; /* allocated for the bytes of the strings */
} gs_strtab;

int gs_strtab_init(gs_strtab *t);
void gs_strtab_free(gs_strtab *t);
gs_str gs_strtab_intern(gs_strtab *t, const char *s, size_t len);

/* Points *s at the table's copy of the string (interned), so it lives as long as the table and
 * no longer than that of whatever it was read from; NULL stays NULL. 0, or -1 out of memory. */
int gs_strtab_keep(gs_strtab *t, const char **s);

/* The memory the table holds, in bytes. */
size_t gs_strtab_bytes(const gs_strtab *t);

static inline const char *gs_str_get(const gs_strtab *t, gs_str id)
{
    return t->ptr[id];
}
static inline size_t gs_str_len(const gs_strtab *t, gs_str id)
{
    return t->len[id];
}

#endif
