#include "agent/agent_strings.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct gsa_string_slot {
    uint64_t hash; /* 0 = empty */
    const char *bytes;
    size_t len;
    gst_strid id;
};

#define BLOCK_BYTES (64u << 10)

struct gsa_string_block {
    gsa_string_block *next;
    size_t used, cap;
    char data[];
};

static uint64_t hash_bytes(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h ? h : 1;
}

void gsa_strings_reset(gsa_strings *t, gst_strid (*new_id)(void))
{
    free(t->slots);
    for (gsa_string_block *b = t->blocks, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    memset(t, 0, sizeof *t);
    t->new_id = new_id;
}

static const char *copy_bytes(gsa_strings *t, const char *s, size_t len)
{
    gsa_string_block *b = t->blocks;
    if (!b || b->cap - b->used < len) {
        size_t cap = len > BLOCK_BYTES ? len : BLOCK_BYTES;
        b = malloc(sizeof *b + cap);
        if (!b)
            return NULL;
        b->next = t->blocks;
        b->used = 0;
        b->cap = cap;
        t->blocks = b;
    }
    char *p = b->data + b->used;
    memcpy(p, s, len);
    b->used += len;
    return p;
}

static bool grow(gsa_strings *t)
{
    size_t nslots = t->nslots ? t->nslots * 2 : 1024;
    gsa_string_slot *slots = calloc(nslots, sizeof *slots);
    if (!slots)
        return false;
    for (size_t i = 0; i < t->nslots; i++) {
        if (!t->slots[i].hash)
            continue;
        size_t j = t->slots[i].hash & (nslots - 1);
        while (slots[j].hash)
            j = (j + 1) & (nslots - 1);
        slots[j] = t->slots[i];
    }
    free(t->slots);
    t->slots = slots;
    t->nslots = nslots;
    return true;
}

gst_strid gsa_strings_find_or_add(gsa_strings *t, const char *s, size_t len, bool *is_new)
{
    *is_new = false;
    if ((t->n + 1) * 2 > t->nslots && !grow(t))
        return 0;
    uint64_t h = hash_bytes(s, len);
    size_t j = h & (t->nslots - 1);
    for (; t->slots[j].hash; j = (j + 1) & (t->nslots - 1)) {
        gsa_string_slot *e = &t->slots[j];
        if (e->hash == h && e->len == len && memcmp(e->bytes, s, len) == 0)
            return e->id;
    }
    const char *copy = copy_bytes(t, s, len);
    if (!copy)
        return 0;
    t->slots[j] = (gsa_string_slot){h, copy, len, t->new_id()};
    t->n++;
    *is_new = true;
    return t->slots[j].id;
}
