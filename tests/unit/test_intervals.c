/* Interval-set arithmetic on small hand-made sets, and gs_spans_unite against gs_spans_add:
 * the same union, from intervals mostly in start order, in fewer intervals. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "analysis/base/intervals.h"
#include "check.h"

static gs_spans make(const gs_ns *pairs, size_t n)
{
    gs_spans s = {0};
    for (size_t i = 0; i < n; i++)
        gs_spans_add(&s, pairs[2 * i], pairs[2 * i + 1]);
    return s;
}

static void check_spans(const gs_spans *s, const gs_ns *want, size_t n)
{
    CHECK_INT(s->n, n);
    for (size_t i = 0; i < n && i < s->n; i++) {
        CHECK_INT(s->v[i].start, want[2 * i]);
        CHECK_INT(s->v[i].end, want[2 * i + 1]);
    }
}

/* A deterministic generator, so a failure repeats. */
static uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return *state >> 33;
}

/* Intervals as the model's arrays give them (by start), with one in eight out of order, some
 * empty, some touching: united as they come, then merged, they are the plain union. */
static void check_unite(uint64_t seed)
{
    gs_spans added = {0}, united = {0};
    gs_ns at = 0;
    for (int i = 0; i < 2000; i++) {
        uint64_t r = next_random(&seed);
        at += (gs_ns)(r % 4);
        gs_ns start = r % 8 == 0 ? at - (gs_ns)(r % 50) : at, end = start + (gs_ns)(r / 8 % 6);
        CHECK_INT(gs_spans_add(&added, start, end), 0);
        CHECK_INT(gs_spans_unite(&united, start, end), 0);
    }
    CHECK(united.n < added.n);
    gs_spans_merge(&added);
    gs_spans_merge(&united);
    CHECK_INT(united.n, added.n);
    bool same = united.n == added.n;
    for (size_t i = 0; same && i < added.n; i++)
        same = united.v[i].start == added.v[i].start && united.v[i].end == added.v[i].end;
    CHECK(same);
    gs_spans_free(&added);
    gs_spans_free(&united);
}

int main(void)
{
    check_unite(1);
    check_unite(2);
    /* Unsorted, overlapping, touching, contained, and one empty interval that is dropped. */
    const gs_ns raw[] = {50, 60, 0, 10, 5, 12, 12, 20, 30, 40, 32, 35, 70, 70};
    gs_spans a = make(raw, 7);
    CHECK_INT(a.n, 6);
    gs_spans_merge(&a);
    const gs_ns merged[] = {0, 20, 30, 40, 50, 60};
    check_spans(&a, merged, 3);
    CHECK_INT(gs_spans_length(&a), 40);

    CHECK_INT(gs_spans_overlap(&a, 15, 55), 5 + 10 + 5);
    CHECK_INT(gs_spans_overlap(&a, 20, 30), 0);
    CHECK_INT(gs_spans_overlap(&a, -100, 100), 40);
    CHECK_INT(gs_spans_overlap(&a, 60, 100), 0);

    const gs_ns braw[] = {10, 35, 55, 100};
    gs_spans b = make(braw, 2);
    gs_spans_merge(&b);
    gs_spans out = {0};
    CHECK_INT(gs_spans_intersect(&a, &b, &out), 0);
    const gs_ns inter[] = {10, 20, 30, 35, 55, 60};
    check_spans(&out, inter, 3);
    CHECK_INT(gs_spans_subtract(&a, &b, &out), 0);
    const gs_ns diff[] = {0, 10, 35, 40, 50, 55};
    check_spans(&out, diff, 3);
    CHECK_INT(gs_spans_subtract(&b, &a, &out), 0);
    const gs_ns diff2[] = {20, 30, 60, 100};
    check_spans(&out, diff2, 2);

    gs_spans empty = {0};
    CHECK_INT(gs_spans_intersect(&a, &empty, &out), 0);
    CHECK_INT(out.n, 0);
    CHECK_INT(gs_spans_subtract(&a, &empty, &out), 0);
    check_spans(&out, merged, 3);
    CHECK_INT(gs_spans_length(&empty), 0);
    CHECK_INT(gs_spans_overlap(&empty, 0, 10), 0);

    gs_spans_free(&a);
    gs_spans_free(&b);
    gs_spans_free(&out);
    return check_done("test_intervals");
}
