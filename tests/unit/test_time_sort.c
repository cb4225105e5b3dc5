/* gs_sort_by_time and gs_radix_order (model/time_sort.h), checked against qsort with the order
 * they promise: events by start, the longer first, then file order; indices by key, ties in the
 * order they came. Times with many ties (runs of equal starts short and long: put in order by
 * insertion and by qsort), times spread over the whole int64 range (the radix passes work on
 * offsets that wrap), keys with constant middle bits (a pass skipped between two), already
 * sorted input, input made of runs in order (merged up to 64 runs, sorted beyond), and 0, 1 and
 * 2 elements. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/util.h"
#include "model/time_sort.h"

/* An event of an awkward size, its times at unaligned-looking offsets: moved whole. */
typedef struct event {
    int32_t pad;
    int64_t start;
    char tag;
    int64_t end;
    uint32_t order; /* its place before sorting */
} event;

static int cmp_event(const void *pa, const void *pb)
{
    const event *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->end != b->end)
        return a->end > b->end ? -1 : 1;
    return (a->order > b->order) - (a->order < b->order);
}

/* A deterministic generator, so a failure repeats. */
static uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return *state;
}

/* GAPPED: keys whose middle bits are all the same (two random bytes, 40 bits apart), so that a
 * radix pass between two that move has nothing to move. */
enum spread { FEW_TIMES, WHOLE_RANGE, SORTED, GAPPED };

static int64_t random_time(uint64_t *state, enum spread spread)
{
    uint64_t r = next_random(state);
    if (spread == GAPPED)
        return (int64_t)((r >> 56) | ((r >> 48) & 0xff) << 40);
    return spread == WHOLE_RANGE ? (int64_t)r : (int64_t)(r >> 60) - 8; /* 16 values around 0 */
}

/* Sorts v[0..n) and checks it against qsort. */
static void check_sorted(event *v, size_t n, const char *what, int variant)
{
    event *want = malloc((n ? n : 1) * sizeof *want);
    if (!want)
        abort();
    if (n)
        memcpy(want, v, n * sizeof *v);
    qsort(want, n, sizeof *want, cmp_event);
    CHECK_INT(gs_sort_by_time(v, n, sizeof *v, offsetof(event, start), offsetof(event, end)), 0);
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++)
        wrong += memcmp(&v[i], &want[i], sizeof *v) != 0;
    if (wrong)
        fprintf(stderr, "%s: n %zu, %d: %zu out of place\n", what, n, variant, wrong);
    CHECK_INT(wrong, 0);
    free(want);
}

static void check_events(size_t n, enum spread spread, uint64_t seed)
{
    event *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        abort();
    for (size_t i = 0; i < n; i++) {
        int64_t s = spread == SORTED ? (int64_t)(i / 3) : random_time(&seed, spread);
        int64_t e = spread == SORTED ? s + 10 - (int64_t)(i % 3) : random_time(&seed, spread);
        v[i] = (event){.pad = -1, .start = s, .tag = (char)i, .end = e, .order = (uint32_t)i};
    }
    check_sorted(v, n, "events", (int)spread);
    free(v);
}

/* `runs` runs one after another, each in order and over the same times (the merge's heads
 * compare by start, then end, then file order): starts that tie within a run and across runs,
 * ends that tie too. */
static void check_runs(size_t n, size_t runs, uint64_t seed)
{
    event *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        abort();
    int64_t s = 0, e = 0;
    for (size_t i = 0, r = 0; i < n; i++) {
        bool first = i == 0 || i == (r + 1) * n / runs; /* run r + 1 begins */
        r += i > 0 && first;
        bool same = !first && next_random(&seed) >> 63; /* the start of the element before */
        s = first ? 0 : s + !same;
        int64_t jitter = (int64_t)(next_random(&seed) >> 62); /* 0 .. 3 */
        e = same ? e - jitter / 2 : s + 20 + jitter;
        v[i] = (event){.pad = -1, .start = s, .tag = (char)r, .end = e, .order = (uint32_t)i};
    }
    check_sorted(v, n, "runs", (int)runs);
    free(v);
}

typedef struct keyed {
    uint64_t key;
    uint32_t index;
} keyed;

static int cmp_keyed(const void *pa, const void *pb)
{
    const keyed *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

/* order starts reversed: ties must stay reversed, not come back to index order. */
static void check_order(size_t n, enum spread spread, uint64_t seed)
{
    uint64_t *key = malloc((n ? n : 1) * sizeof *key);
    uint32_t *order = malloc((n ? n : 1) * sizeof *order);
    keyed *want = malloc((n ? n : 1) * sizeof *want);
    if (!key || !order || !want)
        abort();
    for (size_t i = 0; i < n; i++)
        key[i] = (uint64_t)random_time(&seed, spread);
    for (size_t i = 0; i < n; i++) {
        order[i] = (uint32_t)(n - 1 - i);
        want[i] = (keyed){key[n - 1 - i], (uint32_t)i}; /* index: its place in order[] */
    }
    qsort(want, n, sizeof *want, cmp_keyed);
    CHECK_INT(gs_radix_order(key, n, order), 0);
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++)
        wrong += order[i] != n - 1 - want[i].index;
    if (wrong)
        fprintf(stderr, "order: n %zu, spread %d: %zu out of place\n", n, (int)spread, wrong);
    CHECK_INT(wrong, 0);
    free(key);
    free(order);
    free(want);
}

/* gs_radix_key_pair orders pairs by the first value, then the second, signed, over their range. */
static void check_key_pair(void)
{
    static const int32_t v[] = {INT32_MIN, -2, -1, 0, 1, 7, INT32_MAX};
    enum { N = sizeof v / sizeof v[0] };
    int wrong = 0;
    for (int a = 0; a < N; a++)
        for (int b = 0; b < N; b++)
            for (int c = 0; c < N; c++)
                for (int d = 0; d < N; d++) {
                    bool less = v[a] != v[c] ? v[a] < v[c] : v[b] < v[d];
                    uint64_t x = gs_radix_key_pair(v[a], v[b]), y = gs_radix_key_pair(v[c], v[d]);
                    wrong += (x < y) != less;
                }
    CHECK_INT(wrong, 0);
}

int main(void)
{
    check_key_pair();
    static const size_t counts[] = {0, 1, 2, 3, 17, 256, 1000, 65537};
    for (size_t i = 0; i < COUNT_OF(counts); i++) {
        for (int spread = FEW_TIMES; spread <= SORTED; spread++)
            check_events(counts[i], (enum spread)spread, 11u + i);
        check_order(counts[i], FEW_TIMES, 5u + i);
        check_order(counts[i], WHOLE_RANGE, 7u + i);
        check_order(counts[i], GAPPED, 13u + i);
        static const size_t runs[] = {2, 5, 64, 65, 300};
        for (size_t r = 0; r < COUNT_OF(runs); r++)
            if (runs[r] <= counts[i])
                check_runs(counts[i], runs[r], 17u + i + r);
    }
    return check_done("test_time_sort");
}
