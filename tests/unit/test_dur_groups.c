/* gs_dur_groups (analysis/base/dur_groups.h): items put in (key, duration) order, checked against
 * qsort with that order; ties keep the order they came in (their aux, which is not grouped on,
 * tells them apart); one group per distinct key, in key order, with its count, total, median
 * and amount, and time shares that add up to 100 %. Keys differ by name, by one tag only, or by
 * a negative tag; durations repeat; 0, 1 and 2 items. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/base/dur_groups.h"
#include "check.h"

/* A deterministic generator, so a failure repeats. */
static uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return *state >> 33;
}

static int cmp_reference(const void *pa, const void *pb)
{
    const gs_dur_item *a = pa, *b = pb;
    if (a->key.name != b->key.name)
        return a->key.name < b->key.name ? -1 : 1;
    for (size_t k = 0; k < 6; k++)
        if (a->key.tag[k] != b->key.tag[k])
            return a->key.tag[k] < b->key.tag[k] ? -1 : 1;
    if (a->dur != b->dur)
        return a->dur < b->dur ? -1 : 1;
    return (a->aux > b->aux) - (a->aux < b->aux); /* aux: the item's place before sorting */
}

static gs_dur_key key_of(uint64_t r)
{
    gs_dur_key k = {.name = (gs_str)(1 + r % 7)};
    k.tag[r % 6] = (int32_t)(r / 7 % 3) - 1; /* -1, 0 or 1 in one tag */
    return k;
}

static void check_random(size_t n, uint64_t seed)
{
    gs_dur_item *items = malloc((n ? n : 1) * sizeof *items);
    gs_dur_item *want = malloc((n ? n : 1) * sizeof *want);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = next_random(&seed);
        items[i] = (gs_dur_item){key_of(r), (gs_ns)(next_random(&seed) % 50), (int64_t)(r % 5),
                                 (gs_str)i};
    }
    memcpy(want, items, n * sizeof *items);
    qsort(want, n, sizeof *want, cmp_reference);
    gs_dur_group *groups = NULL;
    size_t ngroups = 0;
    CHECK_INT(gs_dur_groups(n ? items : NULL, n, &groups, &ngroups), 0);
    bool same = true;
    for (size_t i = 0; i < n; i++)
        same = same && memcmp(&items[i], &want[i], sizeof *items) == 0;
    CHECK(same);
    /* The groups, from the reference order. */
    size_t g = 0, first = 0;
    double pct = 0;
    gs_ns all = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && i > first && memcmp(&want[i].key, &want[first].key, sizeof want[i].key) == 0)
            continue;
        if (i == first)
            continue;
        gs_ns total = 0;
        int64_t amount = 0;
        for (size_t k = first; k < i; k++)
            total += want[k].dur, amount += want[k].amount;
        all += total;
        size_t count = i - first, mid = first + count / 2;
        gs_ns med = count % 2 ? want[mid].dur : (want[mid - 1].dur + want[mid].dur) / 2;
        CHECK(g < ngroups);
        if (g < ngroups) {
            CHECK(memcmp(&groups[g].key, &want[first].key, sizeof want[first].key) == 0);
            CHECK_INT(groups[g].time.count, count);
            CHECK_INT(groups[g].time.total, total);
            CHECK_INT(groups[g].time.med, med);
            CHECK_INT(groups[g].time.min, want[first].dur);
            CHECK_INT(groups[g].time.max, want[i - 1].dur);
            CHECK_INT(groups[g].amount, amount);
            pct += groups[g].time_pct;
        }
        g++;
        first = i;
    }
    CHECK_INT(ngroups, g);
    if (all > 0)
        CHECK(pct > 99.999 && pct < 100.001);
    free(groups);
    free(items);
    free(want);
}

int main(void)
{
    check_random(0, 1);
    check_random(1, 2);
    check_random(2, 3);
    check_random(1000, 4);
    check_random(50000, 5);
    return check_done("dur_groups");
}
