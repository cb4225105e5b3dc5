/* The shared hash table (src/common/hashtab.h): lookups of absent keys, growth past many
 * doublings, entries sharing a key, keys sharing a home slot (with the probe wrapping past the
 * last slot), removal from inside a cluster, a random mix checked against a plain array, and
 * the byte hash. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "common/hashtab.h"

typedef struct entry {
    uint32_t key;
    uint64_t value;
} entry;

/* How many entries with `key` the table holds, and the sum of their values. */
static size_t count_key(const gs_hashtab *t, uint32_t key, uint64_t *sum)
{
    size_t n = 0;
    *sum = 0;
    gs_hashpos pos;
    for (const entry *e = gs_hashtab_find(t, key, &pos); e; e = gs_hashtab_next(t, &pos)) {
        CHECK(e->key == key);
        n++;
        *sum += e->value;
    }
    return n;
}

/* The home slot the table gives a key, as hashtab.c computes it. */
static size_t home_of(const gs_hashtab *t, uint32_t key)
{
    return (size_t)((key * UINT64_C(0x9e3779b97f4a7c15)) >> t->shift);
}

static void test_empty(void)
{
    gs_hashtab t;
    gs_hashtab_init(&t, sizeof(entry));
    CHECK(gs_hashtab_find(&t, 1, NULL) == NULL);
    CHECK(gs_hashtab_find(&t, 0, NULL) == NULL);
    CHECK(gs_hashtab_add(&t, 0) == NULL); /* 0 marks empty slots: never a key */
    CHECK_INT(t.n, 0);
    gs_hashtab_free(&t);
    CHECK_INT(t.entry_size, sizeof(entry));

    gs_hashtab never_initialised = {0}; /* stores nothing rather than crashing */
    CHECK(gs_hashtab_add(&never_initialised, 7) == NULL);
    CHECK(gs_hashtab_find(&never_initialised, 7, NULL) == NULL);

    static gs_hashtab from_macro = GS_HASHTAB_EMPTY(entry);
    entry *e = gs_hashtab_add(&from_macro, 9);
    CHECK(e && e->key == 9 && e->value == 0);
    gs_hashtab_free(&from_macro);
}

static void test_growth(void)
{
    enum { N = 100000 };
    gs_hashtab t;
    gs_hashtab_init(&t, sizeof(entry));
    for (uint32_t k = 1; k <= N; k++) {
        entry *e = gs_hashtab_add(&t, k);
        CHECK(e && e->value == 0);
        if (e)
            e->value = k * 3;
    }
    CHECK_INT(t.n, N);
    CHECK(t.nslots >= 2 * N && (t.nslots & (t.nslots - 1)) == 0);
    size_t wrong = 0;
    for (uint32_t k = 1; k <= N; k++) {
        gs_hashpos pos;
        const entry *e = gs_hashtab_find(&t, k, &pos);
        wrong += !e || e->value != k * 3 || pos.key != k || gs_hashtab_next(&t, &pos) != NULL;
    }
    CHECK_INT(wrong, 0);
    size_t found = 0;
    for (uint32_t k = N + 1; k <= 2 * N; k++) /* absent keys, in the same range of hashes */
        found += gs_hashtab_find(&t, k, NULL) != NULL;
    found += gs_hashtab_find(&t, UINT32_MAX, NULL) != NULL;
    CHECK_INT(found, 0);
    gs_hashtab_free(&t);
    CHECK_INT(t.n, 0);
    CHECK(gs_hashtab_find(&t, 1, NULL) == NULL);
}

static void test_shared_key(void)
{
    gs_hashtab t;
    gs_hashtab_init(&t, sizeof(entry));
    for (uint64_t v = 1; v <= 3; v++)
        ((entry *)gs_hashtab_add(&t, 42))->value = v;
    ((entry *)gs_hashtab_add(&t, 43))->value = 100;
    uint64_t sum;
    CHECK_INT(count_key(&t, 42, &sum), 3);
    CHECK_INT(sum, 6);
    CHECK_INT(count_key(&t, 43, &sum), 1);
    CHECK_INT(count_key(&t, 44, &sum), 0);
    /* Removing one of them leaves the other two reachable. */
    gs_hashpos pos;
    const entry *e = gs_hashtab_find(&t, 42, &pos);
    while (e && e->value != 2)
        e = gs_hashtab_next(&t, &pos);
    CHECK(e != NULL);
    if (e)
        gs_hashtab_remove(&t, &pos);
    CHECK_INT(count_key(&t, 42, &sum), 2);
    CHECK_INT(sum, 4);
    CHECK_INT(t.n, 3);
    gs_hashtab_free(&t);
}

/* Keys whose home is the table's last slot: their cluster wraps to slot 0, and removing the
 * first of them must shift the others back across the wrap. */
static void test_collisions(void)
{
    gs_hashtab t;
    gs_hashtab_init(&t, sizeof(entry));
    ((entry *)gs_hashtab_add(&t, 1))->value = 1; /* allocates the first slots */
    size_t last = t.nslots - 1, nslots = t.nslots;
    uint32_t keys[4];
    size_t nkeys = 0;
    for (uint32_t k = 2; nkeys < 4; k++)
        if (home_of(&t, k) == last)
            keys[nkeys++] = k;
    for (size_t i = 0; i < nkeys; i++)
        ((entry *)gs_hashtab_add(&t, keys[i]))->value = 10 + i;
    CHECK_INT(t.nslots, nslots); /* no growth: the cluster is the one just built */
    gs_hashpos pos;
    CHECK(gs_hashtab_find(&t, keys[3], &pos) != NULL);
    CHECK(pos.slot < 3);
    /* A key absent but homed in the cluster walks it to its end. */
    uint32_t absent = keys[3] + 1;
    while (home_of(&t, absent) != last)
        absent++;
    CHECK(gs_hashtab_find(&t, absent, NULL) == NULL);

    CHECK(gs_hashtab_find(&t, keys[0], &pos) != NULL);
    CHECK_INT(pos.slot, last);
    gs_hashtab_remove(&t, &pos);
    CHECK(gs_hashtab_find(&t, keys[0], NULL) == NULL);
    for (size_t i = 1; i < nkeys; i++) {
        const entry *e = gs_hashtab_find(&t, keys[i], NULL);
        CHECK(e && e->value == 10 + i);
    }
    /* The shift moved keys[1] into the home slot, and the wrapped tail back by one. */
    CHECK(gs_hashtab_find(&t, keys[1], &pos) != NULL);
    CHECK_INT(pos.slot, last);
    CHECK(gs_hashtab_find(&t, keys[3], &pos) != NULL);
    CHECK_INT(pos.slot, 1);
    const entry *one = gs_hashtab_find(&t, 1, NULL);
    CHECK(one && one->value == 1);
    CHECK_INT(t.n, 4);
    gs_hashtab_free(&t);
}

/* Adds and removals in a random order on few keys (long clusters, many shifts), checked against
 * a plain array after every step. */
static void test_random_mix(void)
{
    enum { KEYS = 300, STEPS = 20000 };
    static uint64_t want[KEYS + 1]; /* key -> value + 1, 0 when absent */
    gs_hashtab t;
    gs_hashtab_init(&t, sizeof(entry));
    uint64_t state = 12345;
    size_t present = 0, wrong = 0;
    for (int step = 0; step < STEPS; step++) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        uint32_t key = (uint32_t)(1 + (state >> 33) % KEYS);
        gs_hashpos pos;
        entry *e = gs_hashtab_find(&t, key, &pos);
        wrong += (e != NULL) != (want[key] != 0);
        if (e) {
            wrong += e->value + 1 != want[key];
            gs_hashtab_remove(&t, &pos);
            want[key] = 0;
            present--;
        } else if ((e = gs_hashtab_add(&t, key)) != NULL) {
            e->value = (uint64_t)step;
            want[key] = (uint64_t)step + 1;
            present++;
        }
        wrong += t.n != present;
        if (step % 1000 == 0)
            for (uint32_t k = 1; k <= KEYS; k++) {
                const entry *f = gs_hashtab_find(&t, k, NULL);
                wrong += want[k] ? !f || f->value + 1 != want[k] : f != NULL;
            }
    }
    CHECK_INT(wrong, 0);
    CHECK(present > 0);
    gs_hashtab_free(&t);
}

static void test_copy(void)
{
    gs_hashtab from = GS_HASHTAB_EMPTY(entry), to = GS_HASHTAB_EMPTY(entry);
    entry *e = gs_hashtab_add(&to, 99);
    CHECK(e != NULL);
    CHECK_INT(gs_hashtab_copy(&to, &from), 0); /* an empty table empties the copy */
    CHECK_INT(to.n, 0);
    CHECK(gs_hashtab_find(&to, 99, NULL) == NULL);
    for (uint32_t k = 1; k <= 1000; k++) {
        e = gs_hashtab_add(&from, k);
        CHECK(e != NULL);
        e->value = 3 * (uint64_t)k;
    }
    CHECK_INT(gs_hashtab_copy(&to, &from), 0);
    CHECK_INT(to.n, 1000);
    int wrong = 0;
    for (uint32_t k = 1; k <= 1000; k++) {
        const entry *f = gs_hashtab_find(&to, k, NULL);
        wrong += !f || f->value != 3 * (uint64_t)k;
    }
    CHECK_INT(wrong, 0);
    e = gs_hashtab_find(&to, 7, NULL);
    e->value = 1; /* the copy is its own */
    CHECK(((const entry *)gs_hashtab_find(&from, 7, NULL))->value == 21);
    CHECK(gs_hashtab_add(&to, 1001) != NULL);
    CHECK(gs_hashtab_find(&from, 1001, NULL) == NULL);
    gs_hashtab_free(&from);
    gs_hashtab_free(&to);
}

static int cmp_u32(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return (a > b) - (a < b);
}

/* Every byte counts, zeros and the length included, wherever it falls in the 8-byte words; and
 * keys that differ little (the names of a trace: "aten::add_", kernels' template arguments)
 * spread over the 32 bits: 200,000 of them collide a handful of times at most (about 5 are
 * expected of a random function). */
static void test_hash_bytes(void)
{
    CHECK(gs_hash_bytes("", 0) != 0);
    CHECK(gs_hash_bytes("ab", 2) != gs_hash_bytes("ba", 2));
    CHECK(gs_hash_bytes("a\0b", 3) != gs_hash_bytes("a", 1));
    static const char zeros[17] = {0};
    bool lengths_differ = true;
    for (size_t n = 0; n < 16; n++)
        lengths_differ &= gs_hash_bytes(zeros, n) != gs_hash_bytes(zeros, n + 1);
    CHECK(lengths_differ);
    char word[24] = "0123456789abcdefghijklm";
    bool bytes_count = true;
    for (size_t n = 1; n <= sizeof word - 1; n++)
        for (size_t i = 0; i < n; i++) {
            uint32_t before = gs_hash_bytes(word, n);
            word[i] ^= 1;
            bytes_count &= gs_hash_bytes(word, n) != before;
            word[i] ^= 1;
        }
    CHECK(bytes_count);

    enum { KEYS = 200000 };
    uint32_t *h = malloc(KEYS * sizeof *h);
    for (int i = 0; i < KEYS; i++) {
        char name[64];
        int n = snprintf(name, sizeof name, "void gemm_kernel<%d, %d>(float*)", i % 512, i / 512);
        h[i] = gs_hash_bytes(name, (size_t)n);
    }
    qsort(h, KEYS, sizeof *h, cmp_u32);
    int collisions = 0;
    for (int i = 1; i < KEYS; i++)
        collisions += h[i] == h[i - 1];
    CHECK(collisions <= 20);
    free(h);
}

int main(void)
{
    test_empty();
    test_growth();
    test_shared_key();
    test_collisions();
    test_random_mix();
    test_copy();
    test_hash_bytes();
    return check_done("test_hashtab");
}
