#include "common/step_schedule.h"

#include <stdbool.h>

/* One number of digits only: strtoul would take a sign ("-1" as ULONG_MAX) and spaces. */
static bool parse_number(const char **s, unsigned *out)
{
    const char *p = *s;
    unsigned long v = 0;
    if (*p < '0' || *p > '9')
        return false;
    for (; *p >= '0' && *p <= '9'; p++) {
        v = v * 10 + (unsigned long)(*p - '0');
        if (v > GS_STEP_SCHEDULE_MAX)
            return false;
    }
    *out = (unsigned)v;
    *s = p;
    return true;
}

int gs_step_schedule_parse(const char *text, gs_step_schedule *out)
{
    unsigned v[4] = {0, 0, 0, 1};
    int n = 0;
    const char *s = text ? text : "";
    for (;;) {
        if (n == 4 || !parse_number(&s, &v[n++]))
            return -1;
        if (*s != ',')
            break;
        s++;
    }
    if (*s || n < 3 || v[2] == 0)
        return -1;
    *out = (gs_step_schedule){v[0], v[1], v[2], v[3]};
    return 0;
}
