/* The replay's 32-bit lags (analysis/replay/replay_lags.h): every value comes back exactly, those
 * at and beyond the 32-bit edges through the table of long lags, off as off, whether set or
 * pushed; a copy is its own. */
#include <stdint.h>

#include "analysis/replay/replay_lags.h"
#include "check.h"

static void test_values(void)
{
    static const gs_ns values[] = {
        0, 1, -1, 4000, INT32_MAX - 1, INT32_MIN + 1, /* stored as they are */
        INT32_MAX, INT32_MIN, (gs_ns)INT32_MAX + 1, (gs_ns)3 * 1000000000, -(gs_ns)5000000000,
        INT64_MAX, INT64_MIN + 1, /* the table's */
        RP_OFF,
    };
    enum { N = sizeof values / sizeof values[0] };
    rp_lags l;
    CHECK_INT(rp_lags_init(&l, N), 0);
    for (uint32_t e = 0; e < N; e++)
        CHECK_INT(rp_lag(&l, e), 0);
    for (uint32_t e = 0; e < N; e++)
        CHECK_INT(rp_lag_set(&l, e, values[e]), 0);
    for (uint32_t e = 0; e < N; e++)
        CHECK_INT(rp_lag(&l, e), values[e]);
    CHECK_INT(l.longs.n, 7);
    /* long, then short, then long again: the last value stands each time */
    CHECK_INT(rp_lag_set(&l, 8, 12), 0);
    CHECK_INT(rp_lag(&l, 8), 12);
    CHECK_INT(rp_lag_set(&l, 8, (gs_ns)7 * 1000000000), 0);
    CHECK_INT(rp_lag(&l, 8), (gs_ns)7 * 1000000000);
    CHECK_INT(rp_lag_set(&l, 8, RP_OFF), 0);
    CHECK_INT(rp_lag(&l, 8), RP_OFF);
    rp_lags_free(&l);
}

/* Pushed one by one past the first growth, every fifth one long. */
static void test_push(void)
{
    rp_lags l;
    CHECK_INT(rp_lags_init(&l, 0), 0);
    int wrong = 0;
    for (uint32_t e = 0; e < 5000; e++)
        wrong += rp_lags_push(&l, e % 5 ? (gs_ns)e : (gs_ns)e * 1000000000) != 0;
    CHECK_INT(wrong, 0);
    CHECK_INT(l.n, 5000);
    CHECK_INT(l.longs.n, 999); /* e = 5, 10, ... (0 is short) */
    for (uint32_t e = 0; e < 5000; e++)
        wrong += rp_lag(&l, e) != (e % 5 ? (gs_ns)e : (gs_ns)e * 1000000000);
    CHECK_INT(wrong, 0);
    rp_lags_free(&l);
}

static void test_copy(void)
{
    rp_lags a, b;
    CHECK_INT(rp_lags_init(&a, 3), 0);
    CHECK_INT(rp_lags_init(&b, 3), 0);
    CHECK_INT(rp_lag_set(&b, 2, (gs_ns)9 * 1000000000), 0); /* gone with the copy */
    CHECK_INT(rp_lag_set(&a, 0, 5), 0);
    CHECK_INT(rp_lag_set(&a, 1, (gs_ns)4 * 1000000000), 0);
    CHECK_INT(rp_lags_copy(&b, &a), 0);
    CHECK_INT(rp_lag(&b, 0), 5);
    CHECK_INT(rp_lag(&b, 1), (gs_ns)4 * 1000000000);
    CHECK_INT(rp_lag(&b, 2), 0);
    CHECK_INT(rp_lag_set(&b, 1, (gs_ns)6 * 1000000000), 0);
    CHECK_INT(rp_lag(&a, 1), (gs_ns)4 * 1000000000);
    rp_lags_free(&a);
    rp_lags_free(&b);
}

int main(void)
{
    test_values();
    test_push();
    test_copy();
    return check_done("test_replay_lags");
}
