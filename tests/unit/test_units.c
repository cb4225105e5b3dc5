/* Numbers for people: the unit that fits, rounding at unit boundaries, thousands separators. */
#include "check.h"
#include "render/units.h"

static char buf[GS_UNIT_BUF];

static const char *duration(int64_t ns)
{
    gs_fmt_duration(buf, sizeof buf, ns);
    return buf;
}

static const char *bytes(int64_t n)
{
    gs_fmt_bytes(buf, sizeof buf, n);
    return buf;
}

static const char *bandwidth(double gbps)
{
    gs_fmt_bandwidth(buf, sizeof buf, gbps);
    return buf;
}

static const char *count(int64_t n)
{
    gs_fmt_count(buf, sizeof buf, n);
    return buf;
}

static void test_durations(void)
{
    CHECK_STR(duration(0), "0 ns");
    CHECK_STR(duration(812), "812 ns");
    CHECK_STR(duration(999), "999 ns");
    CHECK_STR(duration(1000), "1.00 µs");
    CHECK_STR(duration(12340), "12.34 µs");
    CHECK_STR(duration(999999), "1.000 ms"); /* 999.999 µs would print as 1000.00 µs */
    CHECK_STR(duration(1234000), "1.234 ms");
    CHECK_STR(duration(2500000000), "2.500 s");
    CHECK_STR(duration(7200000000000), "7200.000 s"); /* the largest unit takes any value */
    CHECK_STR(duration(-1500), "-1.50 µs");
}

static void test_bytes(void)
{
    CHECK_STR(bytes(0), "0 B");
    CHECK_STR(bytes(512), "512 B");
    CHECK_STR(bytes(1000), "1.0 kB");
    CHECK_STR(bytes(1500000), "1.5 MB");
    CHECK_STR(bytes(999960), "1.0 MB");
    CHECK_STR(bytes(42297524224), "42.3 GB");
}

static void test_bandwidth(void)
{
    CHECK_STR(bandwidth(12.5), "12.50 GB/s");
    CHECK_STR(bandwidth(0.14277), "142.8 MB/s");
    CHECK_STR(bandwidth(0), "0.0 MB/s");
    CHECK_STR(bandwidth(1500), "1.50 TB/s");
}

static void test_counts(void)
{
    CHECK_STR(count(0), "0");
    CHECK_STR(count(999), "999");
    CHECK_STR(count(1000), "1,000");
    CHECK_STR(count(1234567), "1,234,567");
    CHECK_STR(count(-1234), "-1,234");
}

int main(void)
{
    test_durations();
    test_bytes();
    test_bandwidth();
    test_counts();
    return check_done("test_units");
}
