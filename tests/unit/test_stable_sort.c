/* gs_stable_sort and gs_stable_sort_by_i32 (common/util.h): sorted by the key, equal keys in the order they came, for
 * 0, 1, 2, odd and large counts, elements of several sizes; checked against a counting sort,
 * which is stable by construction. (Its own fallback, the in-place insertion sort taken when
 * memory for the merge is short, is not reached here.) */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/util.h"

/* An element whose key repeats: `order` is its place before sorting. */
typedef struct item {
    int32_t key;
    uint32_t order;
} item;

static int cmp_key(const void *pa, const void *pb)
{
    const item *a = pa, *b = pb;
    return (a->key > b->key) - (a->key < b->key);
}

/* A deterministic generator, so a failure repeats. */
static uint32_t next_random(uint32_t *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 16;
}

/* The stable answer: a counting sort by key, which places equal keys in the order it meets
 * them. keys bounds the keys. */
static void counting_sort(const item *in, size_t n, int32_t keys, item *out)
{
    size_t *first = calloc((size_t)keys + 1, sizeof *first);
    if (!first)
        abort();
    for (size_t i = 0; i < n; i++)
        first[in[i].key + 1]++;
    for (int32_t k = 0; k < keys; k++)
        first[k + 1] += first[k];
    for (size_t i = 0; i < n; i++)
        out[first[in[i].key]++] = in[i];
    free(first);
}

/* n items of keys in [0, keys) (how the keys come: random, ascending or descending), sorted. */
enum shape { RANDOM, ASCENDING, DESCENDING };

static void check_sorted(size_t n, int32_t keys, enum shape shape, uint32_t seed)
{
    item *v = malloc((n ? n : 1) * sizeof *v), *want = malloc((n ? n : 1) * sizeof *want);
    item *by_field = malloc((n ? n : 1) * sizeof *by_field);
    if (!v || !want || !by_field)
        abort();
    for (size_t i = 0; i < n; i++) {
        int32_t k = shape == RANDOM      ? (int32_t)(next_random(&seed) % (uint32_t)keys)
                    : shape == ASCENDING ? (int32_t)(i * (size_t)keys / (n ? n : 1))
                                         : (int32_t)((n - 1 - i) * (size_t)keys / (n ? n : 1));
        v[i] = (item){.key = k, .order = (uint32_t)i};
    }
    counting_sort(v, n, keys, want);
    if (n)
        memcpy(by_field, v, n * sizeof *v);
    gs_stable_sort(v, n, sizeof *v, cmp_key);
    gs_stable_sort_by_i32(by_field, n, sizeof *by_field, offsetof(item, key));
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++)
        wrong += v[i].key != want[i].key || v[i].order != want[i].order ||
                 by_field[i].key != want[i].key || by_field[i].order != want[i].order;
    if (wrong)
        fprintf(stderr, "n %zu, keys %d, shape %d: %zu elements out of place\n", n, (int)keys,
                (int)shape, wrong);
    CHECK_INT(wrong, 0);
    /* and directly: keys ascending, equal keys by their first place */
    size_t unstable = 0;
    for (size_t i = 1; i < n; i++)
        unstable += v[i - 1].key > v[i].key ||
                    (v[i - 1].key == v[i].key && v[i - 1].order > v[i].order);
    CHECK_INT(unstable, 0);
    free(v);
    free(want);
    free(by_field);
}

static void test_counts(void)
{
    static const size_t counts[] = {0, 1, 2, 3, 7, 8, 9, 31, 100, 1023, 1025, 10007, 65536};
    for (size_t i = 0; i < COUNT_OF(counts); i++) {
        check_sorted(counts[i], 3, RANDOM, 1u + (uint32_t)i);      /* many ties */
        check_sorted(counts[i], 1000000, RANDOM, 7u + (uint32_t)i); /* few ties */
        check_sorted(counts[i], 1, RANDOM, 9u);                     /* every key equal */
        check_sorted(counts[i], 5, ASCENDING, 0);
        check_sorted(counts[i], 5, DESCENDING, 0);
    }
}

/* The smallest cases by hand: nothing to do, one element untouched, two swapped or kept. */
static void test_small_by_hand(void)
{
    gs_stable_sort(NULL, 0, sizeof(item), cmp_key); /* no element: base is not read */
    item one = {.key = 5, .order = 0};
    gs_stable_sort(&one, 1, sizeof one, cmp_key);
    CHECK_INT(one.key, 5);
    item two[2] = {{.key = 2, .order = 0}, {.key = 1, .order = 1}};
    gs_stable_sort(two, 2, sizeof *two, cmp_key);
    CHECK_INT(two[0].key, 1);
    CHECK_INT(two[1].key, 2);
    item tie[2] = {{.key = 1, .order = 0}, {.key = 1, .order = 1}};
    gs_stable_sort(tie, 2, sizeof *tie, cmp_key);
    CHECK_INT(tie[0].order, 0);
    CHECK_INT(tie[1].order, 1);
    item three[3] = {{.key = 2, .order = 0}, {.key = 1, .order = 1}, {.key = 2, .order = 2}};
    gs_stable_sort(three, 3, sizeof *three, cmp_key);
    CHECK(three[0].order == 1 && three[1].order == 0 && three[2].order == 2);
}

/* Elements of an odd size (3 bytes: the key in the first, the place in the others) are moved
 * whole. */
static int cmp_first_byte(const void *pa, const void *pb)
{
    const unsigned char *a = pa, *b = pb;
    return (a[0] > b[0]) - (a[0] < b[0]);
}

static void test_odd_element_size(void)
{
    enum { N = 301 };
    unsigned char v[N][3];
    uint32_t seed = 42;
    for (int i = 0; i < N; i++) {
        v[i][0] = (unsigned char)(next_random(&seed) % 4);
        v[i][1] = (unsigned char)(i >> 8);
        v[i][2] = (unsigned char)(i & 0xff);
    }
    gs_stable_sort(v, N, sizeof v[0], cmp_first_byte);
    size_t bad = 0;
    for (int i = 1; i < N; i++) {
        int prev = v[i - 1][1] << 8 | v[i - 1][2], cur = v[i][1] << 8 | v[i][2];
        bad += v[i - 1][0] > v[i][0] || (v[i - 1][0] == v[i][0] && prev > cur);
    }
    CHECK_INT(bad, 0);
    /* every element once */
    unsigned char seen[N] = {0};
    for (int i = 0; i < N; i++)
        seen[v[i][1] << 8 | v[i][2]]++;
    size_t once = 0;
    for (int i = 0; i < N; i++)
        once += seen[i] == 1;
    CHECK_INT(once, N);
}

int main(void)
{
    test_small_by_hand();
    test_counts();
    test_odd_element_size();
    return check_done("test_stable_sort");
}
