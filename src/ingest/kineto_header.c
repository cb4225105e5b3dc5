#include "ingest/kineto_header.h"

#include <stdint.h>

#include "common/util.h"

static int read_device(gs_json *j, gs_trace *t, kscratch *s)
{
    gs_device *d = GS_VEC_PUSH(&t->devices);
    if (!d)
        return gs_fail_oom(j->err);
    for (;;) {
        enum gs_json_tok tok = gs_json_next(j);
        if (tok == GS_JSON_OBJECT_END)
            return 0;
        if (tok != GS_JSON_KEY)
            return gs_json_fail(j, "expected a key in deviceProperties");
        int64_t v = 0;
        if (gs_json_tok_is(j, "name")) {
            if (gs_json_next(j) == GS_JSON_STRING) {
                d->name = kineto_intern_token(j, t, s);
                if (d->name == GS_STR_ERROR)
                    return gs_fail_oom(j->err);
                continue;
            }
        } else {
            static const char *const keys[] = {"id", "totalGlobalMem", "numSms", "computeMajor",
                                               "computeMinor", "maxThreadsPerMultiprocessor"};
            size_t k = 0;
            while (k < 6 && !gs_json_tok_is(j, keys[k]))
                k++;
            enum gs_json_tok vt = gs_json_next(j);
            /* Counts and ids are never negative, and all but the memory fit 32 bits: a value
             * out of that range stays unknown rather than wrapping to another GPU's. */
            if (k < 6 && vt == GS_JSON_NUMBER && gs_json_int(j, &v)) {
                if (v < 0 || (k != 1 && v > INT32_MAX))
                    continue;
                switch (k) {
                case 0: d->id = (int32_t)v; break;
                case 1: d->total_memory = (uint64_t)v; break;
                case 2: d->num_sms = (int32_t)v; break;
                case 3: d->compute_major = (int32_t)v; break;
                case 4: d->compute_minor = (int32_t)v; break;
                case 5: d->max_threads_per_sm = (int32_t)v; break;
                }
                continue;
            }
        }
        if (gs_json_skip(j) != 0)
            return -1;
    }
}

static int read_device_properties(gs_json *j, gs_trace *t, kscratch *s)
{
    if (gs_json_next(j) != GS_JSON_ARRAY)
        return gs_json_skip(j);
    for (;;) {
        enum gs_json_tok tok = gs_json_next(j);
        if (tok == GS_JSON_ARRAY_END)
            return 0;
        if (tok == GS_JSON_OBJECT) {
            if (read_device(j, t, s) != 0)
                return -1;
        } else if (tok == GS_JSON_END || tok == GS_JSON_ERROR) {
            return gs_json_fail(j, "input ends inside deviceProperties");
        } else if (gs_json_skip(j) != 0) {
            return -1;
        }
    }
}

static int read_distributed_info(gs_json *j, gs_trace *t, kscratch *s)
{
    (void)s;
    if (gs_json_next(j) != GS_JSON_OBJECT)
        return gs_json_skip(j);
    for (;;) {
        enum gs_json_tok tok = gs_json_next(j);
        if (tok == GS_JSON_OBJECT_END)
            return 0;
        if (tok != GS_JSON_KEY)
            return gs_json_fail(j, "expected a key in distributedInfo");
        bool rank = gs_json_tok_is(j, "rank"), world = gs_json_tok_is(j, "world_size");
        int64_t v;
        if (gs_json_next(j) == GS_JSON_NUMBER && gs_json_int(j, &v) && v >= 0 && v < INT32_MAX) {
            if (rank) {
                t->id.rank = (int32_t)v;
                t->id.source = GS_RANK_FROM_METADATA;
            } else if (world) {
                t->id.world_size = (int32_t)v;
            }
        } else if (gs_json_skip(j) != 0) {
            return -1;
        }
    }
}

/* "gpuscopeSkipped" (gpuscope's export): what the readers of the exported traces skipped, by
 * gs_loss_key, so a trace read back still tells it. */
static int read_skipped(gs_json *j, gs_trace *t, kscratch *s)
{
    (void)s;
    if (gs_json_next(j) != GS_JSON_OBJECT)
        return gs_json_skip(j);
    for (;;) {
        enum gs_json_tok tok = gs_json_next(j);
        if (tok == GS_JSON_OBJECT_END)
            return 0;
        if (tok != GS_JSON_KEY)
            return gs_json_fail(j, "expected a key in gpuscopeSkipped");
        int k = 0;
        while (k < GS_LOSS__COUNT && !gs_json_tok_is(j, gs_loss_key((enum gs_loss)k)))
            k++;
        int64_t v;
        if (gs_json_next(j) == GS_JSON_NUMBER && gs_json_int(j, &v) && v > 0 && k < GS_LOSS__COUNT)
            t->lost[k] += (uint64_t)v;
        else if (gs_json_skip(j) != 0)
            return -1;
    }
}

static int read_base_time(gs_json *j, gs_trace *t, kscratch *s)
{
    (void)s;
    int64_t base;
    if (gs_json_next(j) == GS_JSON_NUMBER && gs_json_int(j, &base))
        t->id.epoch_ns = base;
    else
        return gs_json_skip(j);
    return 0;
}

/* gpuscope's export of a .gst or legacy trace: who recorded the events */
static int read_recorded_by(gs_json *j, gs_trace *t, kscratch *s)
{
    if (gs_json_next(j) != GS_JSON_STRING)
        return gs_json_skip(j);
    t->recorded_by = kineto_intern_token(j, t, s);
    return t->recorded_by == GS_STR_ERROR ? gs_fail_oom(j->err) : 0;
}

/* gpuscope's export of a .gst trace: what tracing cost the program */
static int read_tracing_cost(gs_json *j, gs_trace *t, kscratch *s)
{
    (void)s;
    int64_t cost;
    if (gs_json_next(j) == GS_JSON_NUMBER && gs_json_int(j, &cost) && cost >= 0)
        t->collector_overhead_ns = cost;
    else
        return gs_json_skip(j);
    return 0;
}

/* gpuscope's export of a trace that held an accelerator's events it does not read (MTIA's) */
static int read_accelerator_events(gs_json *j, gs_trace *t, kscratch *s)
{
    (void)s;
    int64_t n;
    if (gs_json_next(j) == GS_JSON_NUMBER && gs_json_int(j, &n) && n > 0)
        t->accelerator_events += (uint64_t)n;
    else
        return gs_json_skip(j);
    return 0;
}

static const struct {
    const char *key;
    int (*read)(gs_json *j, gs_trace *t, kscratch *s);
} header_keys[] = {
    {"deviceProperties", read_device_properties},
    {"distributedInfo", read_distributed_info},
    {"gpuscopeSkipped", read_skipped},
    {"baseTimeNanoseconds", read_base_time},
    {"gpuscopeRecordedBy", read_recorded_by},
    {"gpuscopeTracingCostNs", read_tracing_cost},
    {"gpuscopeAcceleratorEvents", read_accelerator_events},
};

int kineto_read_header_key(gs_json *j, gs_trace *t, kscratch *s, bool *known)
{
    for (size_t i = 0; i < COUNT_OF(header_keys); i++)
        if (gs_json_tok_is(j, header_keys[i].key)) {
            *known = true;
            return header_keys[i].read(j, t, s);
        }
    *known = false;
    return 0;
}
