#include "export/chrome_write.h"

#include <inttypes.h>
#include <math.h>

#include "common/json_write.h"

int64_t chrome_host_pid(const chrome_ctx *c, int64_t pid)
{
    return c->multi ? (int64_t)(c->index + 1) * CHROME_RANK_STRIDE + pid : pid;
}

int64_t chrome_gpu_pid(const chrome_ctx *c, int64_t device)
{
    return c->multi ? (int64_t)(c->index + 1) * CHROME_RANK_STRIDE + CHROME_GPU_OFFSET + device
                    : device;
}

uint64_t chrome_flow_id(const chrome_ctx *c, uint64_t correlation)
{
    return c->multi ? ((uint64_t)(c->index + 1) << 32) + correlation : correlation;
}

void chrome_us(FILE *out, gs_ns ns)
{
    /* Integer arithmetic, never a double: absolute epoch times have 19 significant digits. */
    uint64_t mag = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    fprintf(out, "%s%" PRIu64 ".%03u", ns < 0 ? "-" : "", mag / 1000, (unsigned)(mag % 1000));
}

void chrome_begin(chrome_ctx *c, char ph, const char *cat, const char *name, int64_t pid,
                  int64_t tid)
{
    fprintf(c->out, "%s{\"ph\":\"%c\"", c->any ? ",\n" : "\n", ph);
    c->any = true;
    c->args = false;
    if (cat)
        fprintf(c->out, ",\"cat\":\"%s\"", cat);
    fputs(",\"name\":", c->out);
    gs_json_string(c->out, name);
    fprintf(c->out, ",\"pid\":%" PRId64 ",\"tid\":%" PRId64, pid, tid);
}

void chrome_times(chrome_ctx *c, gs_ns start, gs_ns dur)
{
    fputs(",\"ts\":", c->out);
    chrome_us(c->out, start + c->shift);
    if (dur >= 0) {
        fputs(",\"dur\":", c->out);
        chrome_us(c->out, dur);
    }
}

void chrome_end(chrome_ctx *c)
{
    fputs(c->args ? "}}" : "}", c->out);
    c->args = false;
}

static void put_arg_key(chrome_ctx *c, const char *key)
{
    fputs(c->args ? "," : ",\"args\":{", c->out);
    c->args = true;
    gs_json_string(c->out, key);
    putc(':', c->out);
}

void chrome_arg_int(chrome_ctx *c, const char *key, int64_t v)
{
    put_arg_key(c, key);
    fprintf(c->out, "%" PRId64, v);
}

void chrome_arg_uint(chrome_ctx *c, const char *key, uint64_t v)
{
    put_arg_key(c, key);
    fprintf(c->out, "%" PRIu64, v);
}

void chrome_arg_real(chrome_ctx *c, const char *key, double v, int sig_digits)
{
    put_arg_key(c, key);
    if (isfinite(v))
        fprintf(c->out, "%.*g", sig_digits, v);
    else
        fputs("null", c->out); /* JSON has no NaN; a reader sees the value as absent */
}

void chrome_arg_str(chrome_ctx *c, const char *key, const char *v)
{
    put_arg_key(c, key);
    gs_json_string(c->out, v);
}

void chrome_arg_raw(chrome_ctx *c, const char *key, const char *json)
{
    put_arg_key(c, key);
    fputs(json, c->out);
}

void chrome_arg_dim3(chrome_ctx *c, const char *key, const int32_t v[3])
{
    put_arg_key(c, key);
    fprintf(c->out, "[%" PRId32 ", %" PRId32 ", %" PRId32 "]", v[0], v[1], v[2]);
}
