#include "model/strtab.h"

#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

enum { BLOCK_SIZE = 1 << 20 };

struct gs_strblock {
    struct gs_strblock *next;
    size_t used, size;
    char data[];
};

/* An entry of the index: a string's hash and its id. */
typedef struct id_entry {
    uint32_t hash;
    gs_str id;
} id_entry;

static char *block_alloc(gs_strtab *t, size_t size)
{
    struct gs_strblock *b = t->blocks;
    if (!b || b->size - b->used < size) {
        size_t bsize = size > BLOCK_SIZE ? size : BLOCK_SIZE;
        b = malloc(sizeof *b + bsize);
        if (!b)
            return NULL;
        b->used = 0;
        b->size = bsize;
        b->next = t->blocks;
        t->blocks = b;
        t->block_bytes += sizeof *b + bsize;
    }
    char *p = b->data + b->used;
    b->used += size;
    return p;
}

int gs_strtab_init(gs_strtab *t)
{
    memset(t, 0, sizeof *t);
    gs_hashtab_init(&t->ids, sizeof(id_entry));
    return gs_strtab_intern(t, "", 0) == GS_STR_ERROR ? -1 : 0;
}

void gs_strtab_free(gs_strtab *t)
{
    for (struct gs_strblock *b = t->blocks, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(t->ptr);
    free(t->len);
    gs_hashtab_free(&t->ids);
    memset(t, 0, sizeof *t);
}

int gs_strtab_keep(gs_strtab *t, const char **s)
{
    if (!*s)
        return 0;
    gs_str id = gs_strtab_intern(t, *s, strlen(*s));
    if (id == GS_STR_ERROR)
        return -1;
    *s = gs_str_get(t, id);
    return 0;
}

size_t gs_strtab_bytes(const gs_strtab *t)
{
    return t->block_bytes + t->cap * (sizeof *t->ptr + sizeof *t->len) +
           t->ids.nslots * t->ids.entry_size;
}

gs_str gs_strtab_intern(gs_strtab *t, const char *s, size_t len)
{
    if (len >= UINT32_MAX)
        return GS_STR_ERROR;
    uint32_t h = gs_hash_bytes(s, len);
    gs_hashpos pos;
    for (const id_entry *e = gs_hashtab_find(&t->ids, h, &pos); e;
         e = gs_hashtab_next(&t->ids, &pos))
        if (t->len[e->id] == len && memcmp(t->ptr[e->id], s, len) == 0)
            return e->id;
    if (t->n + 1 >= UINT32_MAX - 1)
        return GS_STR_ERROR;
    if (t->n == t->cap) {
        size_t cap = t->cap;
        if (gs_grow((void **)&t->ptr, &cap, t->n + 1, sizeof *t->ptr) != 0)
            return GS_STR_ERROR;
        cap = t->cap;
        if (gs_grow((void **)&t->len, &cap, t->n + 1, sizeof *t->len) != 0)
            return GS_STR_ERROR;
        t->cap = cap;
    }
    char *copy = block_alloc(t, len + 1);
    id_entry *e = copy ? gs_hashtab_add(&t->ids, h) : NULL;
    if (!e)
        return GS_STR_ERROR; /* a copy made is only lost space in its block */
    memcpy(copy, s, len);
    copy[len] = '\0';
    gs_str id = (gs_str)t->n++;
    t->ptr[id] = copy;
    t->len[id] = (uint32_t)len;
    e->id = id;
    return id;
}
