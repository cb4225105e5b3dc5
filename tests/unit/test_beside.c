/* gs_beside (common/beside.h): the function runs beside the caller's part, each writing its own
 * data, and the join hands back what the function returned, every time it is used. */
#include <stddef.h>
#include <stdint.h>

#include "check.h"
#include "common/beside.h"

typedef struct half {
    uint64_t from, to, sum;
} half;

static uint64_t sum(uint64_t from, uint64_t to)
{
    uint64_t s = 0;
    for (uint64_t i = from; i < to; i++)
        s += i;
    return s;
}

static void *sum_half(void *arg)
{
    half *h = arg;
    h->sum = sum(h->from, h->to);
    return h->sum == 0 ? NULL : arg; /* non-NULL: what the join must hand back */
}

int main(void)
{
    for (int round = 0; round < 3; round++) {
        half other = {0, 5000000, 0};
        gs_beside b;
        gs_beside_start(&b, sum_half, &other);
        uint64_t mine = sum(5000000, 10000000);
        CHECK(gs_beside_join(&b) == &other);
        CHECK(other.sum + mine == sum(0, 10000000));
    }
    half none = {7, 7, 0}; /* an empty half: the function returns NULL */
    gs_beside b;
    gs_beside_start(&b, sum_half, &none);
    CHECK(gs_beside_join(&b) == NULL);
    CHECK_INT(none.sum, 0);
    return check_done("test_beside");
}
