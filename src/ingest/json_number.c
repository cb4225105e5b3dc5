/* The numbers of a JSON token (json.h): exact integers at any decimal scale, for times in ns from
 * µs with their digits as written, and doubles. */
#include "ingest/json.h"
#include "ingest/json_digits.h"

#include <stdlib.h>
#include <string.h>

static const int64_t pow10_table[19] = {
    1LL, 10LL, 100LL, 1000LL, 10000LL, 100000LL, 1000000LL, 10000000LL, 100000000LL,
    1000000000LL, 10000000000LL, 100000000000LL, 1000000000000LL, 10000000000000LL,
    100000000000000LL, 1000000000000000LL, 10000000000000000LL, 100000000000000000LL,
    1000000000000000000LL,
};

/* value * 10^scale, rounded half away from zero, in exact integer arithmetic. At most 19
 * significant digits are kept (more cannot matter at ns resolution for times that fit int64). */
bool gs_parse_scaled(const char *s, size_t n, int scale, int64_t *out)
{
    size_t i = 0;
    bool neg = false;
    if (i < n && (s[i] == '-' || s[i] == '+'))
        neg = s[i++] == '-';
    uint64_t mant = 0;
    int digits = 0, exp10 = scale;
    bool any = false, round_up = false;
    /* The first 18 digits cannot overflow nor make the 19 kept: read without counting them, and
     * an integer of 18 digits at most (most numbers of a trace) needs nothing more */
    size_t first = i;
    i += gs_json_leading_digits(s + i, n - i, &mant);
    any = i > first;
    if (any && i == n)
        goto scaled;
    for (uint64_t m = mant; m; m /= 10)
        digits++; /* the digits read but the leading zeros */
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, any = true) {
        if (digits < 19) {
            mant = mant * 10 + (uint64_t)(s[i] - '0');
            digits += mant > 0;
        } else {
            exp10++;
        }
    }
    if (i < n && s[i] == '.') {
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, any = true) {
            if (digits < 19) {
                mant = mant * 10 + (uint64_t)(s[i] - '0');
                digits += mant > 0;
                exp10--;
            }
        }
    }
    if (!any)
        return false;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        bool eneg = false;
        if (i < n && (s[i] == '-' || s[i] == '+'))
            eneg = s[i++] == '-';
        int e = 0;
        bool edig = false;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, edig = true)
            if (e < 10000)
                e = e * 10 + (s[i] - '0');
        if (!edig)
            return false;
        exp10 += eneg ? -e : e;
    }
    if (i != n)
        return false;
scaled:
    if (mant == 0) {
        *out = 0;
        return true;
    }
    while (exp10 < 0) {
        if (exp10 < -19) {
            *out = 0;
            return true;
        }
        int k = -exp10 > 18 ? 18 : -exp10;
        uint64_t d = (uint64_t)pow10_table[k];
        uint64_t q = mant / d, r = mant % d;
        round_up = r * 2 >= d; /* r < d <= 1e18, so r*2 does not overflow */
        mant = q + round_up;
        exp10 += k;
    }
    while (exp10 > 0) {
        if (mant > UINT64_MAX / 10)
            return false;
        mant *= 10;
        exp10--;
    }
    if (mant > (uint64_t)INT64_MAX)
        return false;
    *out = neg ? -(int64_t)mant : (int64_t)mant;
    return true;
}

bool gs_json_scaled(const gs_json *j, int scale, int64_t *out)
{
    if (j->tok_type != GS_JSON_NUMBER && j->tok_type != GS_JSON_STRING)
        return false;
    return gs_parse_scaled(j->tok, j->tok_len, scale, out);
}

bool gs_json_int(const gs_json *j, int64_t *out)
{
    return gs_json_scaled(j, 0, out);
}

/* A decimal of 15 digits at most, without exponent, as the double nearest it: the digits as an
 * integer are exact in a double, and so is a power of ten to 10^22, so one division rounds once,
 * to what strtod gives (Clinger, "How to read floating point numbers accurately", 1990). False
 * for any other number. */
static bool exact_decimal(const char *s, size_t n, double *out)
{
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    size_t i = s[0] == '-';
    uint64_t mant = 0;
    int digits = 0, fraction = -1; /* digits after the point, once there is one */
    for (; i < n; i++) {
        if (s[i] == '.' && fraction < 0) {
            fraction = 0;
            continue;
        }
        unsigned d = (unsigned)(unsigned char)s[i] - '0';
        if (d > 9 || ++digits > 15)
            return false;
        mant = mant * 10 + d;
        fraction += fraction >= 0;
    }
    if (digits == 0)
        return false;
    double v = (double)mant / pow10[fraction > 0 ? fraction : 0];
    *out = s[0] == '-' ? -v : v;
    return true;
}

bool gs_json_double(const gs_json *j, double *out)
{
    if (j->tok_type != GS_JSON_NUMBER || j->tok_len >= 64)
        return false;
    if (exact_decimal(j->tok, j->tok_len, out))
        return true;
    char tmp[64];
    memcpy(tmp, j->tok, j->tok_len);
    tmp[j->tok_len] = '\0';
    char *end;
    *out = strtod(tmp, &end);
    return end == tmp + j->tok_len;
}
