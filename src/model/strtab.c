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

static uint32_t hash_bytes(const char *s, size_t len)
{
    /* FNV-1a: names are short and this is not on an adversarial path that needs more. */
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

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
    }
    char *p = b->data + b->used;
    b->used += size;
    return p;
}

static int rehash(gs_strtab *t, size_t nslots)
{
    uint32_t *slots = calloc(nslots, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t id = 0; id < t->n; id++) {
        size_t i = t->hash[id] & (nslots - 1);
        while (slots[i])
            i = (i + 1) & (nslots - 1);
        slots[i] = (uint32_t)id + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->nslots = nslots;
    return 0;
}

int gs_strtab_init(gs_strtab *t)
{
    memset(t, 0, sizeof *t);
    if (rehash(t, 1024) != 0)
        return -1;
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
    free(t->hash);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

gs_str gs_strtab_intern(gs_strtab *t, const char *s, size_t len)
{
    if (len >= UINT32_MAX)
        return GS_STR_ERROR;
    uint32_t h = hash_bytes(s, len);
    size_t i = h & (t->nslots - 1);
    for (; t->slots[i]; i = (i + 1) & (t->nslots - 1)) {
        uint32_t id = t->slots[i] - 1;
        if (t->hash[id] == h && t->len[id] == len && memcmp(t->ptr[id], s, len) == 0)
            return id;
    }
    if (t->n + 1 >= UINT32_MAX - 1)
        return GS_STR_ERROR;
    if (t->n == t->cap) {
        size_t cap = t->cap;
        if (gs_grow((void **)&t->ptr, &cap, t->n + 1, sizeof *t->ptr) != 0)
            return GS_STR_ERROR;
        cap = t->cap;
        if (gs_grow((void **)&t->len, &cap, t->n + 1, sizeof *t->len) != 0)
            return GS_STR_ERROR;
        cap = t->cap;
        if (gs_grow((void **)&t->hash, &cap, t->n + 1, sizeof *t->hash) != 0)
            return GS_STR_ERROR;
        t->cap = cap;
    }
    char *copy = block_alloc(t, len + 1);
    if (!copy)
        return GS_STR_ERROR;
    memcpy(copy, s, len);
    copy[len] = '\0';
    uint32_t id = (uint32_t)t->n++;
    t->ptr[id] = copy;
    t->len[id] = (uint32_t)len;
    t->hash[id] = h;
    t->slots[i] = id + 1;
    if (t->n * 2 > t->nslots && rehash(t, t->nslots * 2) != 0) {
        t->n--; /* keep the table consistent: the slot still points at it, so undo fully */
        t->slots[i] = 0;
        return GS_STR_ERROR;
    }
    return id;
}
