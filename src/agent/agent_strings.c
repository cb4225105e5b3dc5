#include "agent/agent_strings.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct string_entry {
    uint32_t hash;
    const char *bytes;
    size_t len;
    gst_strid id;
} string_entry;

#define BLOCK_BYTES (64u << 10)

struct gsa_string_block {
    gsa_string_block *next;
    size_t used, cap;
    char data[];
};

void gsa_strings_reset(gsa_strings *t, gst_strid (*new_id)(void))
{
    gs_hashtab_free(&t->ids);
    for (gsa_string_block *b = t->blocks, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    memset(t, 0, sizeof *t);
    gs_hashtab_init(&t->ids, sizeof(string_entry));
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

gst_strid gsa_strings_find_or_add(gsa_strings *t, const char *s, size_t len, bool *is_new)
{
    *is_new = false;
    uint32_t h = gs_hash_bytes(s, len);
    gs_hashpos pos;
    for (const string_entry *e = gs_hashtab_find(&t->ids, h, &pos); e;
         e = gs_hashtab_next(&t->ids, &pos))
        if (e->len == len && memcmp(e->bytes, s, len) == 0)
            return e->id;
    const char *copy = copy_bytes(t, s, len);
    string_entry *e = copy ? gs_hashtab_add(&t->ids, h) : NULL;
    if (!e)
        return 0;
    e->bytes = copy;
    e->len = len;
    e->id = t->new_id();
    *is_new = true;
    return e->id;
}
