/* The recorded lists are compact JSON written by the trace reader; an element is found by
 * scanning to its comma at depth 0, outside strings. */
#include "analysis/base/op_args.h"
#include "common/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The text of the idx-th element of a top-level JSON list: *at and *len; false when absent. */
static bool list_item(const char *s, int idx, const char **at, size_t *len)
{
    if (!s)
        return false;
    while (*s && *s != '[')
        s++;
    if (!*s)
        return false;
    s++;
    for (int i = 0;; i++) {
        while (*s == ' ' || *s == ',')
            s++;
        if (!*s || *s == ']' || *s == '}') /* the end, or a stray brace: no more items */
            return false;
        const char *start = s;
        int depth = 0;
        bool quoted = false;
        for (; *s; s++) {
            if (quoted) {
                if (*s == '\\' && s[1])
                    s++;
                else if (*s == '"')
                    quoted = false;
            } else if (*s == '"') {
                quoted = true;
            } else if (*s == '[' || *s == '{') {
                depth++;
            } else if (*s == ']' || *s == '}') {
                if (depth == 0)
                    break;
                depth--;
            } else if (*s == ',' && depth == 0) {
                break;
            }
        }
        if (i == idx) {
            *at = start;
            *len = (size_t)(s - start);
            while (*len && start[*len - 1] == ' ')
                (*len)--;
            return true;
        }
    }
}

/* A list of numbers ("[4096, 768]", or the string "[1, 1]" of a Concrete Inputs entry) into
 * v; the count, or -1 when it is not one. */
static int read_numbers(const char *at, size_t len, double *v, int cap)
{
    const char *end = at + len;
    if (at < end && *at == '"')
        at++;
    if (at >= end || *at != '[')
        return -1;
    at++;
    int n = 0;
    for (;;) {
        while (at < end && (*at == ' ' || *at == ','))
            at++;
        if (at < end && *at == ']')
            return n;
        if (at >= end || n == cap || !(isdigit((unsigned char)*at) || *at == '-'))
            return -1;
        char *stop;
        v[n++] = strtod(at, &stop);
        if (stop == at || stop > end)
            return -1;
        at = stop;
        if (at < end && *at != ',' && *at != ' ' && *at != ']' && *at != '"')
            return -1; /* "894-4" is not two numbers */
    }
}

gs_op_shape gs_op_arg_shape(const char *dims, int idx)
{
    gs_op_shape sh = {.n = -1};
    const char *at;
    size_t len;
    if (list_item(dims, idx, &at, &len))
        sh.n = read_numbers(at, len, sh.d, GS_OP_MAX_DIMS);
    for (int i = 0; i < sh.n; i++)
        if (!(sh.d[i] >= 0 && sh.d[i] <= 1e15)) { /* a size, not a wrap-around or a NaN */
            sh.n = -1;
            break;
        }
    return sh;
}

double gs_op_shape_numel(gs_op_shape s)
{
    if (s.n < 0)
        return 0;
    double p = 1;
    for (int i = 0; i < s.n; i++)
        p *= s.d[i];
    return p;
}

int gs_op_arg_ints(const char *concrete, int idx, double *v, int cap)
{
    const char *at;
    size_t len;
    if (!list_item(concrete, idx, &at, &len))
        return -1;
    int n = read_numbers(at, len, v, cap);
    if (n >= 0)
        return n;
    if (cap > 0 && len >= 2 && at[0] == '"' &&
        (isdigit((unsigned char)at[1]) || (at[1] == '-' && isdigit((unsigned char)at[2])))) {
        v[0] = strtod(at + 1, NULL);
        return 1;
    }
    return -1;
}

bool gs_op_arg_is(const char *concrete, int idx, const char *word)
{
    const char *at;
    size_t len, n = strlen(word);
    return list_item(concrete, idx, &at, &len) && len == n + 2 && !memcmp(at + 1, word, n);
}

int gs_op_arg_list_word_is(const char *concrete, int idx, int k, const char *word)
{
    const char *at;
    size_t len;
    if (!list_item(concrete, idx, &at, &len))
        return -1;
    const char *end = at + len;
    if (at < end && *at == '"')
        at++, end -= end > at && end[-1] == '"';
    if (at >= end || *at != '[')
        return -1;
    at++;
    for (int i = 0; i < k; i++) {
        at = memchr(at, ',', (size_t)(end - at));
        if (!at)
            return -1;
        at++;
    }
    while (at < end && *at == ' ')
        at++;
    size_t n = strlen(word);
    if (at >= end || *at == ']')
        return -1;
    return (size_t)(end - at) >= n && !memcmp(at, word, n) &&
           (at + n == end || at[n] == ',' || at[n] == ']' || at[n] == ' ');
}

enum gs_dtype gs_dtype_of_type_name(const char *type, size_t len)
{
    static const struct {
        const char *name;
        enum gs_dtype dtype;
    } names[] = {
        {"float", GS_DTYPE_FP32},           {"double", GS_DTYPE_FP64},
        {"c10::Half", GS_DTYPE_FP16},       {"c10::BFloat16", GS_DTYPE_BF16},
        {"c10::Float8_e4m3fn", GS_DTYPE_FP8}, {"c10::Float8_e5m2", GS_DTYPE_FP8},
        {"c10::Float8_e4m3fnuz", GS_DTYPE_FP8}, {"c10::Float8_e5m2fnuz", GS_DTYPE_FP8},
        {"signed char", GS_DTYPE_INT8},     {"Half", GS_DTYPE_FP16},
        {"BFloat16", GS_DTYPE_BF16},        {"Float", GS_DTYPE_FP32},
        {"long int", GS_DTYPE_INT64},       {"long", GS_DTYPE_INT64},
        {"int", GS_DTYPE_INT32},            {"bool", GS_DTYPE_BOOL},
        {"unsigned char", GS_DTYPE_BOOL},
    };
    for (size_t i = 0; i < COUNT_OF(names); i++)
        if (strlen(names[i].name) == len && !memcmp(names[i].name, type, len))
            return names[i].dtype;
    return GS_DTYPE_UNKNOWN;
}

enum gs_dtype gs_op_arg_dtype(const char *types, int idx)
{
    const char *at;
    size_t len;
    if (!list_item(types, idx, &at, &len) || len < 2 || at[0] != '"')
        return GS_DTYPE_UNKNOWN;
    return gs_dtype_of_type_name(at + 1, len - 2);
}

gs_op_tensor gs_op_arg_tensor(const char *dims, const char *types, int idx)
{
    gs_op_tensor t = {.shape = gs_op_arg_shape(dims, idx), .dtype = gs_op_arg_dtype(types, idx)};
    t.known = t.shape.n >= 0 && gs_dtype_bytes(t.dtype) > 0;
    if (t.known) {
        t.numel = gs_op_shape_numel(t.shape);
        t.bytes = t.numel * gs_dtype_bytes(t.dtype);
    }
    return t;
}

const char *gs_dtype_name(enum gs_dtype d)
{
    static const char *const names[GS_DTYPE__COUNT] = {
        [GS_DTYPE_UNKNOWN] = "unknown", [GS_DTYPE_FP64] = "fp64", [GS_DTYPE_FP32] = "fp32",
        [GS_DTYPE_TF32] = "tf32",       [GS_DTYPE_FP16] = "fp16", [GS_DTYPE_BF16] = "bf16",
        [GS_DTYPE_FP8] = "fp8",         [GS_DTYPE_INT8] = "int8", [GS_DTYPE_INT64] = "int64",
        [GS_DTYPE_INT32] = "int32",     [GS_DTYPE_BOOL] = "bool",
    };
    return (unsigned)d < GS_DTYPE__COUNT ? names[d] : "unknown";
}

double gs_dtype_bytes(enum gs_dtype d)
{
    static const double size[GS_DTYPE__COUNT] = {
        [GS_DTYPE_FP64] = 8, [GS_DTYPE_FP32] = 4, [GS_DTYPE_TF32] = 4, [GS_DTYPE_FP16] = 2,
        [GS_DTYPE_BF16] = 2, [GS_DTYPE_FP8] = 1,  [GS_DTYPE_INT8] = 1, [GS_DTYPE_INT64] = 8,
        [GS_DTYPE_INT32] = 4, [GS_DTYPE_BOOL] = 1,
    };
    return (unsigned)d < GS_DTYPE__COUNT ? size[d] : 0;
}
