#include "ingest/gst_names.h"

#include <stdlib.h>
#include <string.h>

#include "common/demangle.h"
#include "common/log.h"
#include "common/vec.h"
#include "ingest/nvtx_op_name.h"

/* Each distinct name is looked at once: memo[id] is 0 before, else 1 + the id to use. */
typedef struct memo {
    uint32_t *to;
    size_t n;
} memo;

static int memo_init(memo *m, const gs_trace *t)
{
    m->n = t->strings.n;
    m->to = gs_array_zeroed(m->n, sizeof *m->to);
    return m->to ? 0 : -1;
}

static gs_str intern(gs_trace *t, const char *s, size_t len)
{
    return gs_strtab_intern(&t->strings, s, len);
}

static gs_str demangled(gs_trace *t, memo *m, gs_str name, gs_error *err)
{
    if (name >= m->n)
        return name;
    if (!m->to[name]) {
        char *d;
        if (gs_demangle(gs_trace_str(t, name), gs_str_len(&t->strings, name), &d, err) != 0) {
            gs_error why = *err; /* err's message is both an argument and the output */
            gs_fail(err, why.code, "%s: %s", t->id.path, why.msg);
            return GS_STR_ERROR;
        }
        gs_str id = d ? intern(t, d, strlen(d)) : name;
        free(d);
        if (id == GS_STR_ERROR) {
            gs_fail_oom(err);
            return GS_STR_ERROR;
        }
        m->to[name] = id + 1;
    }
    return m->to[name] - 1;
}

/* A name that cannot be demangled for want of memory fails the read (err says why), rather than
 * show the kernel under its symbol as if that were its name. */
static int demangle_kernels(gs_trace *t, gs_error *err)
{
    memo m;
    if (memo_init(&m, t) != 0)
        return gs_fail_oom(err);
    size_t done = 0;
    for (size_t i = 0; i < t->kernels.n; i++) {
        gs_kernel *k = &t->kernels.v[i];
        gs_str d = demangled(t, &m, k->name, err);
        if (d == GS_STR_ERROR) {
            free(m.to);
            return -1;
        }
        if (d != k->name) {
            k->mangled = k->name;
            k->name = d;
            done++;
        }
    }
    free(m.to);
    GS_LOG(GS_LOG_INFO, "%s: %zu of %zu kernel(s) demangled", t->id.path, done, t->kernels.n);
    return 0;
}

/* The length of `s` without a trailing "_v" and 4 or more digits. */
static size_t without_version(const char *s, size_t len)
{
    size_t d = len;
    while (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9')
        d--;
    if (len - d < 4 || d < 3 || s[d - 1] != 'v' || s[d - 2] != '_')
        return len;
    return d - 2;
}

static int strip_api_versions(gs_trace *t)
{
    memo m;
    if (memo_init(&m, t) != 0)
        return -1;
    for (size_t i = 0; i < t->apis.n; i++) {
        gs_api *a = &t->apis.v[i];
        if (a->name >= m.n)
            continue;
        if (!m.to[a->name]) {
            const char *s = gs_trace_str(t, a->name);
            size_t len = gs_str_len(&t->strings, a->name), keep = without_version(s, len);
            gs_str id = keep < len ? intern(t, s, keep) : a->name;
            if (id == GS_STR_ERROR) {
                free(m.to);
                return -1;
            }
            m.to[a->name] = id + 1;
        }
        a->name = m.to[a->name] - 1;
    }
    free(m.to);
    return 0;
}

static int parse_op_ranges(gs_trace *t)
{
    size_t ops = 0;
    for (size_t i = 0; i < t->ranges.n; i++) {
        gs_range *r = &t->ranges.v[i];
        if (r->kind != GS_RANGE_NVTX || r->domain != GS_STR_EMPTY)
            continue;
        const char *s = gs_trace_str(t, r->name);
        gs_nvtx_op op;
        if (!gs_nvtx_op_parse(s, gs_str_len(&t->strings, r->name), &op))
            continue;
        gs_str name = intern(t, s, op.name_len);
        gs_str dims = op.sizes ? intern(t, op.sizes, op.sizes_len) : GS_STR_EMPTY;
        if (name == GS_STR_ERROR || dims == GS_STR_ERROR)
            return -1;
        r->name = name;
        r->input_dims = dims;
        r->kind = GS_RANGE_OP;
        r->has_seq = op.has_seq;
        r->seq = op.seq;
        r->op_id = op.op_id;
        ops++;
    }
    if (ops)
        GS_LOG(GS_LOG_INFO,
               "%s: %zu NVTX range(s) are PyTorch operator calls (emit_nvtx names): read as "
               "operators with their sequence number, op id and shapes",
               t->id.path, ops);
    return 0;
}

int gst_names_refine(gs_trace *t, gs_error *err)
{
    if (demangle_kernels(t, err) != 0)
        return -1;
    if (strip_api_versions(t) != 0 || parse_op_ranges(t) != 0)
        return gs_fail_oom(err);
    return 0;
}
