#include "render/units.h"
#include "common/util.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

/* One scale of a unit ladder: values are divided by `scale` and shown with `decimals`. */
typedef struct unit_step {
    const char *unit;
    double scale;
    int decimals;
} unit_step;

static const unit_step duration_units[] = {
    {"ns", 1, 0}, {"µs", 1e3, 2}, {"ms", 1e6, 3}, {"s", 1e9, 3},
};
static const unit_step byte_units[] = {
    {"B", 1, 0}, {"kB", 1e3, 1}, {"MB", 1e6, 1}, {"GB", 1e9, 1}, {"TB", 1e12, 1},
};
static const unit_step bandwidth_units[] = { /* from GB/s */
    {"MB/s", 1e-3, 1}, {"GB/s", 1, 2}, {"TB/s", 1e3, 2},
};

/* Picks the first step whose value, once rounded to its decimals, stays below 1000, so that
 * 999.999 µs is shown as "1.000 ms" and not "1000.00 µs". */
static void fmt_scaled(char *buf, size_t size, double value, const unit_step *steps, size_t n)
{
    size_t k = 0;
    for (; k + 1 < n; k++) {
        double p = pow(10, steps[k].decimals);
        if (round(fabs(value) / steps[k].scale * p) / p < 1000)
            break;
    }
    snprintf(buf, size, "%.*f %s", steps[k].decimals, value / steps[k].scale, steps[k].unit);
}

#define FMT_SCALED(buf, size, value, steps)                                                        \
    fmt_scaled(buf, size, value, steps, COUNT_OF(steps))

void gs_fmt_duration(char *buf, size_t size, int64_t ns)
{
    FMT_SCALED(buf, size, (double)ns, duration_units);
}

void gs_fmt_bytes(char *buf, size_t size, int64_t bytes)
{
    FMT_SCALED(buf, size, (double)bytes, byte_units);
}

void gs_fmt_bandwidth(char *buf, size_t size, double gbps)
{
    FMT_SCALED(buf, size, gbps, bandwidth_units);
}

void gs_fmt_count(char *buf, size_t size, int64_t n)
{
    char digits[24];
    int len = snprintf(digits, sizeof digits, "%" PRId64, n);
    int sign = n < 0;
    size_t o = 0;
    for (int i = 0; i < len && o + 1 < size; i++) {
        int left = len - i; /* digits from here to the end, sign included */
        if (i > sign && (left % 3) == 0 && o + 2 < size)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
}
