/* A hash table of the caller's entries, for everything that maps a key to something: interned
 * strings (bytes -> id, in the model and in the agent), the .gst reader's string ids, and the
 * agent's NVTX ranges waiting for their end.
 *
 * An entry is the caller's struct, whose first member is its uint32_t key; key 0 marks an empty
 * slot, so callers never store it (string tables key strings by gs_hash_bytes, which is never 0;
 * ids start at 1). Several entries may share a key: a string table keeps each string under its
 * hash and tells strings of equal hash apart itself, walking them with gs_hashtab_find and
 * gs_hashtab_next; wider ids are folded into a key the same way. Keys are 32 bits so that a
 * string table's entry (hash, id) takes 8 bytes.
 *
 * Open addressing with linear probing over a power-of-two number of slots, at most half full;
 * keys are spread by a multiplicative (Fibonacci) hash, so consecutive ids do not cluster;
 * removal shifts the entries after it back, so no tombstones pile up. Entries move when the table
 * grows or loses an entry: a pointer or position in it is good until the next add or remove.
 *
 * Memory comes from calloc and free alone. The agent uses these tables on its writer thread only,
 * never in a signal handler or an application thread. */
#ifndef GS_COMMON_HASHTAB_H
#define GS_COMMON_HASHTAB_H

#include <stddef.h>
#include <stdint.h>

typedef struct gs_hashtab {
    unsigned char *slots; /* nslots entries of entry_size bytes */
    size_t entry_size;
    size_t nslots, n;
    unsigned shift; /* 64 - log2(nslots): the hash's top bits pick the home slot */
} gs_hashtab;

/* Where a walk over the entries of one key stands: gs_hashtab_find starts it, gs_hashtab_next
 * goes on, gs_hashtab_remove removes the entry it stands at. */
typedef struct gs_hashpos {
    size_t slot;
    uint32_t key;
} gs_hashpos;

/* An empty table of entries of entry_size bytes (at least a uint32_t key); allocates nothing.
 * GS_HASHTAB_EMPTY(type) is the same as a static initializer. */
void gs_hashtab_init(gs_hashtab *t, size_t entry_size);
#define GS_HASHTAB_EMPTY(type) {.entry_size = sizeof(type)}

/* Frees the slots; the table is empty again, ready for use with the same entry size. */
void gs_hashtab_free(gs_hashtab *t);

/* The first entry with `key`, or NULL; `pos` (NULL when not needed) records where it was found. */
void *gs_hashtab_find(const gs_hashtab *t, uint32_t key, gs_hashpos *pos);

/* The next entry with the key of the walk at `pos`, or NULL. */
void *gs_hashtab_next(const gs_hashtab *t, gs_hashpos *pos);

/* Adds an entry with `key` (0 is not a key), even when the key is already there, and returns it:
 * zeroed but for its key, for the caller to fill. NULL when out of memory; the table is then
 * unchanged. */
void *gs_hashtab_add(gs_hashtab *t, uint32_t key);

/* Removes the entry a walk stands at. */
void gs_hashtab_remove(gs_hashtab *t, const gs_hashpos *pos);

/* Makes `to` (of the same entry size) hold what `from` holds, in one copy of its slots; `to`'s
 * entries go. 0, or -1 out of memory: `to` is then empty. */
int gs_hashtab_copy(gs_hashtab *to, const gs_hashtab *from);

/* A hash of the bytes, 8 at a time, never 0: the key under which string tables store a string.
 * Only looked up with, never kept: names run to hundreds of bytes, and a byte at a time (FNV-1a)
 * was 3 % of report's instructions. */
uint32_t gs_hash_bytes(const void *bytes, size_t len);

#endif
