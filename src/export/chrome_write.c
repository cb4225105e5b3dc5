#include "export/chrome_write.h"

#include <inttypes.h>

#include "common/json_write.h"
#include "ingest/rank_parts.h"

int64_t chrome_host_pid(const chrome_ctx *c, int64_t pid)
{
    return c->multi ? gs_part_host_pid(c->index, pid) : pid;
}

int64_t chrome_gpu_pid(const chrome_ctx *c, int64_t device)
{
    return c->multi ? gs_part_gpu_pid(c->index, device) : device;
}

static uint64_t rank_id_base(const chrome_ctx *c)
{
    return c->multi ? gs_part_id_base(c->index) : 0;
}

uint64_t chrome_correlation(const chrome_ctx *c, uint64_t correlation)
{
    return correlation ? rank_id_base(c) + correlation : 0;
}

int64_t chrome_external_id(const chrome_ctx *c, int64_t external_id)
{
    /* In unsigned arithmetic: an id near INT64_MAX wraps instead of overflowing. */
    return external_id > 0 ? (int64_t)(rank_id_base(c) + (uint64_t)external_id) : external_id;
}

/* ns as µs with exactly three decimals: what Kineto writes, and exact when read back. Integer
 * arithmetic, never a double: absolute epoch times have 19 significant digits. */
static void put_us(gs_json_writer *w, const char *key, gs_ns ns)
{
    uint64_t mag = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    gs_json_put_rawf(w, key, "%s%" PRIu64 ".%03u", ns < 0 ? "-" : "", mag / 1000,
                     (unsigned)(mag % 1000));
}

void chrome_begin(chrome_ctx *c, char ph, const char *cat, const char *name, int64_t pid,
                  int64_t tid)
{
    const char phase[2] = {ph, '\0'};
    gs_json_begin_object(c->w, NULL, GS_JSON_COMPACT);
    c->args = false;
    gs_json_put_str(c->w, "ph", phase);
    if (cat)
        gs_json_put_str(c->w, "cat", cat);
    gs_json_put_str(c->w, "name", name);
    gs_json_put_int(c->w, "pid", pid);
    gs_json_put_int(c->w, "tid", tid);
}

void chrome_times(chrome_ctx *c, gs_ns start, gs_ns dur)
{
    put_us(c->w, "ts", start + c->shift);
    if (dur >= 0)
        put_us(c->w, "dur", dur);
}

void chrome_end(chrome_ctx *c)
{
    if (c->args)
        gs_json_end(c->w);
    gs_json_end(c->w);
    c->args = false;
}

/* The first argument of an event opens its "args". */
static gs_json_writer *args(chrome_ctx *c)
{
    if (!c->args)
        gs_json_begin_object(c->w, "args", GS_JSON_COMPACT);
    c->args = true;
    return c->w;
}

void chrome_arg_int(chrome_ctx *c, const char *key, int64_t v)
{
    gs_json_put_int(args(c), key, v);
}

void chrome_arg_uint(chrome_ctx *c, const char *key, uint64_t v)
{
    gs_json_put_uint(args(c), key, v);
}

void chrome_arg_real(chrome_ctx *c, const char *key, double v, int sig_digits)
{
    /* JSON has no NaN: a reader sees a value that is not finite as absent (null) */
    gs_json_put_real(args(c), key, v, sig_digits);
}

void chrome_arg_str(chrome_ctx *c, const char *key, const char *v)
{
    gs_json_put_str(args(c), key, v);
}

void chrome_arg_raw(chrome_ctx *c, const char *key, const char *json)
{
    gs_json_put_raw(args(c), key, json);
}

void chrome_arg_dim3(chrome_ctx *c, const char *key, const int32_t v[3])
{
    gs_json_begin_array(args(c), key, GS_JSON_INLINE);
    for (int i = 0; i < 3; i++)
        gs_json_put_int(c->w, NULL, v[i]);
    gs_json_end(c->w);
}
