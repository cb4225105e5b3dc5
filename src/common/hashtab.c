#include "common/hashtab.h"

#include <stdlib.h>
#include <string.h>

enum { FIRST_SLOTS = 64 };

static unsigned char *slot_at(const gs_hashtab *t, size_t i)
{
    return t->slots + i * t->entry_size;
}

/* Keys are read with memcpy: the slot is the caller's struct, not a uint32_t object. */
static uint32_t key_at(const gs_hashtab *t, size_t i)
{
    uint32_t key;
    memcpy(&key, slot_at(t, i), sizeof key);
    return key;
}

static size_t home_of(const gs_hashtab *t, uint32_t key)
{
    return (size_t)((key * UINT64_C(0x9e3779b97f4a7c15)) >> t->shift);
}

void gs_hashtab_init(gs_hashtab *t, size_t entry_size)
{
    *t = (gs_hashtab){.entry_size = entry_size < sizeof(uint32_t) ? sizeof(uint32_t) : entry_size};
}

void gs_hashtab_free(gs_hashtab *t)
{
    free(t->slots);
    gs_hashtab_init(t, t->entry_size);
}

/* From pos->slot on, the first entry with pos->key (pos->slot then points at it), or NULL at the
 * first empty slot. */
static void *probe(const gs_hashtab *t, gs_hashpos *pos)
{
    for (size_t i = pos->slot;; i = (i + 1) & (t->nslots - 1)) {
        uint32_t k = key_at(t, i);
        if (!k)
            return NULL;
        if (k == pos->key) {
            pos->slot = i;
            return slot_at(t, i);
        }
    }
}

void *gs_hashtab_find(const gs_hashtab *t, uint32_t key, gs_hashpos *pos)
{
    gs_hashpos here;
    if (!pos)
        pos = &here;
    if (!t->n || !key)
        return NULL;
    *pos = (gs_hashpos){home_of(t, key), key};
    return probe(t, pos);
}

void *gs_hashtab_next(const gs_hashtab *t, gs_hashpos *pos)
{
    pos->slot = (pos->slot + 1) & (t->nslots - 1);
    return probe(t, pos);
}

/* The first empty slot from the key's home on. */
static unsigned char *free_slot(const gs_hashtab *t, uint32_t key)
{
    size_t i = home_of(t, key);
    while (key_at(t, i))
        i = (i + 1) & (t->nslots - 1);
    return slot_at(t, i);
}

static int grow(gs_hashtab *t)
{
    size_t nslots = t->nslots ? t->nslots * 2 : FIRST_SLOTS;
    /* A table never initialised (entry_size 0) stores nothing rather than dividing by zero. */
    if (t->entry_size < sizeof(uint32_t) || nslots > SIZE_MAX / t->entry_size)
        return -1;
    gs_hashtab bigger = *t;
    bigger.slots = calloc(nslots, t->entry_size);
    if (!bigger.slots)
        return -1;
    bigger.nslots = nslots;
    bigger.shift = 64;
    for (size_t s = nslots; s > 1; s >>= 1)
        bigger.shift--;
    for (size_t i = 0; i < t->nslots; i++) {
        uint32_t key = key_at(t, i);
        if (key)
            memcpy(free_slot(&bigger, key), slot_at(t, i), t->entry_size);
    }
    free(t->slots);
    *t = bigger;
    return 0;
}

void *gs_hashtab_add(gs_hashtab *t, uint32_t key)
{
    if (!key || ((t->n + 1) * 2 > t->nslots && grow(t) != 0))
        return NULL;
    unsigned char *e = free_slot(t, key);
    memcpy(e, &key, sizeof key);
    t->n++;
    return e;
}

void gs_hashtab_remove(gs_hashtab *t, const gs_hashpos *pos)
{
    size_t mask = t->nslots - 1, hole = pos->slot;
    /* Backward shift: an entry after the hole moves into it unless its home lies after the
     * hole (in probe order), where a lookup would never pass the hole to reach it. */
    for (size_t i = (hole + 1) & mask; key_at(t, i); i = (i + 1) & mask) {
        if (((i - home_of(t, key_at(t, i))) & mask) >= ((i - hole) & mask)) {
            memcpy(slot_at(t, hole), slot_at(t, i), t->entry_size);
            hole = i;
        }
    }
    memset(slot_at(t, hole), 0, t->entry_size);
    t->n--;
}

int gs_hashtab_copy(gs_hashtab *to, const gs_hashtab *from)
{
    gs_hashtab_free(to);
    if (!from->n)
        return 0;
    to->slots = malloc(from->nslots * from->entry_size);
    if (!to->slots)
        return -1;
    memcpy(to->slots, from->slots, from->nslots * from->entry_size);
    to->nslots = from->nslots;
    to->n = from->n;
    to->shift = from->shift;
    return 0;
}

/* A multiply and a shift: each bit of x reaches the high half, which the fold below keeps. */
static uint64_t mix(uint64_t x)
{
    x *= UINT64_C(0xbf58476d1ce4e5b9);
    return x ^ (x >> 31);
}

uint32_t gs_hash_bytes(const void *bytes, size_t len)
{
    const unsigned char *b = bytes;
    uint64_t h = UINT64_C(0x9e3779b97f4a7c15) ^ len;
    for (; len >= 8; b += 8, len -= 8) {
        uint64_t word;
        memcpy(&word, b, sizeof word);
        h = mix(h ^ word);
    }
    if (len) {
        uint64_t tail = 0;
        for (size_t i = 0; i < len; i++)
            tail |= (uint64_t)b[i] << (8 * i);
        h = mix(h ^ tail);
    }
    uint32_t folded = (uint32_t)(h ^ (h >> 32));
    return folded ? folded : 1;
}
