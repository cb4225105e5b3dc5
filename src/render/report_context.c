#include "render/report_context.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "analysis/base/thresholds.h"
#include "common/json_write.h"
#include "render/units.h"

static const char *workload_name(uint8_t w)
{
    return w == GS_WORKLOAD_TRAINING ? "training" : w == GS_WORKLOAD_INFERENCE ? "inference"
                                                                              : "unknown";
}

static size_t put(char *buf, size_t cap, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static size_t put(char *buf, size_t cap, size_t at, const char *fmt, ...)
{
    if (at >= cap)
        return at;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + at, cap - at, fmt, ap);
    va_end(ap);
    return n < 0 ? at : at + (size_t)n;
}

/* "torch.profiler with record_shapes, with_stack (14002 Python functions); 3 ProfilerStep#N;
 * training (4800 backward operators); no collectives; bf16/fp16 kernels 62 % of kernel time" */
static void describe(const gs_trace_facts *c, char *buf, size_t cap)
{
    size_t at = put(buf, cap, 0, "%s", gs_collector_name(c->collector));
    const char *sep = ", options on: ";
    if (c->ops_with_shapes) {
        at = put(buf, cap, at, "%srecord_shapes", sep);
        sep = ", ";
    }
    if (c->python_functions) {
        at = put(buf, cap, at, "%swith_stack (%" PRIu64 " Python function%s)", sep,
                 c->python_functions, c->python_functions == 1 ? "" : "s");
        sep = ", ";
    }
    if (c->emit_nvtx_ranges) {
        at = put(buf, cap, at, "%semit_nvtx (%" PRIu64 " operator ranges)", sep,
                 c->emit_nvtx_ranges);
        sep = ", ";
    }
    if (c->memory_events)
        at = put(buf, cap, at, "%s%s", sep,
                 c->collector == GS_COLLECTOR_GPUSCOPE_RUN ? "memory records" : "profile_memory");
    if (c->profiler_steps)
        at = put(buf, cap, at, "; %" PRIu64 " ProfilerStep#N range%s", c->profiler_steps,
                 c->profiler_steps == 1 ? "" : "s");
    else
        at = put(buf, cap, at, "; no ProfilerStep#N range");
    at = put(buf, cap, at, "; %s", workload_name(c->workload));
    if (c->backward_events)
        at = put(buf, cap, at, " (%" PRIu64 " backward %s)", c->backward_events,
                 c->ops + c->emit_nvtx_ranges ? "operators" : "kernels");
    else if (gs_trace_decodes(c))
        at = put(buf, cap, at, ", decoding (%" PRIu64 " decode steps and kernels)",
                 c->decode_events);
    char kinds[GS_PAR_NAMES_MAX];
    if (c->collectives || c->parallel_kinds)
        at = put(buf, cap, at, "; %s, %" PRIu64 " collectives",
                 gs_parallel_kinds_name(c->parallel_kinds, c->collectives, kinds, sizeof kinds),
                 c->collectives);
    /* said as on or off, so ranks a percent apart share a line */
    if (c->low_precision_share >= GS_TH_LOW_PRECISION_SHARE)
        put(buf, cap, at, "; mixed precision (bf16/fp16 kernels)");
    else if (c->low_precision_share >= 0)
        put(buf, cap, at, "; no mixed precision (few bf16/fp16 kernels by name)");
}

void gs_put_context_lines(FILE *out, const gs_report *r)
{
    char prev[512] = "", cur[512];
    int32_t first = 0, last = 0;
    for (size_t i = 0; i <= r->nranks; i++) {
        const gs_diag_inputs *in = i < r->nranks ? &r->ranks[i].summary->inputs : NULL;
        cur[0] = '\0';
        if (in && in->facts.known)
            describe(&in->facts, cur, sizeof cur);
        if (i > 0 && prev[0] && strcmp(prev, cur) != 0) {
            if (first == last)
                fprintf(out, "rank %" PRId32 ": %s\n", first, prev);
            else
                fprintf(out, "ranks %" PRId32 "-%" PRId32 ": %s\n", first, last, prev);
        }
        if (!in)
            break;
        if (i == 0 || strcmp(prev, cur) != 0)
            first = in->rank;
        last = in->rank;
        memcpy(prev, cur, sizeof prev);
    }
    for (size_t i = 0; i < r->nranks; i++) {
        const gs_diag_inputs *in = &r->ranks[i].summary->inputs;
        if (!gs_profiler_cost_noticeable(in))
            continue;
        /* Its share of the step would read 100 % on a step the GPU keeps busy: what it can
         * lengthen the step by is the GPU-idle part, so that is the share given, of the step
         * printed beside it. */
        char step[GS_UNIT_BUF], total[GS_UNIT_BUF], mean[GS_UNIT_BUF], longer[GS_UNIT_BUF];
        gs_ns lengthening = gs_profiler_step_lengthening(in);
        gs_fmt_duration(step, sizeof step, in->facts.profiler_step_ns);
        gs_fmt_duration(total, sizeof total, in->facts.profiler_cost_ns);
        gs_fmt_duration(mean, sizeof mean, in->step_ns);
        gs_fmt_duration(longer, sizeof longer, lengthening);
        fprintf(out,
                "rank %" PRId32 ": the profiler's own host time is about %s per kept step, %s "
                "over the trace (estimated from its events: doc/diagnosis.md); host-side times "
                "include it; it can lengthen the %s step by at most %s (%.1f %%), the time the "
                "GPU waits on the host\n",
                in->rank, step, total, mean, longer,
                100.0 * (double)lengthening / (double)in->step_ns);
    }
}

void gs_put_context_json(gs_json_writer *w, const gs_diag_inputs *in)
{
    const gs_trace_facts *c = &in->facts;
    if (!c->known) {
        gs_json_put_null(w, "context");
        return;
    }
    gs_json_begin_object(w, "context", GS_JSON_INLINE);
    gs_json_put_str(w, "collector", gs_collector_name(c->collector));
    gs_json_put_uint(w, "profiler_steps", c->profiler_steps);
    gs_json_put_uint(w, "ops", c->ops);
    gs_json_put_uint(w, "ops_with_shapes", c->ops_with_shapes);
    gs_json_put_uint(w, "python_functions", c->python_functions);
    gs_json_put_uint(w, "emit_nvtx_ranges", c->emit_nvtx_ranges);
    gs_json_put_uint(w, "nvtx_ranges", c->nvtx_ranges);
    gs_json_put_uint(w, "memory_events", c->memory_events);
    gs_json_put_str(w, "workload", workload_name(c->workload));
    gs_json_put_uint(w, "backward_events", c->backward_events);
    gs_json_put_uint(w, "optimizer_events", c->optimizer_events);
    gs_json_put_uint(w, "decode_events", c->decode_events);
    gs_json_put_bool(w, "decode", gs_trace_decodes(c));
    char kinds[GS_PAR_NAMES_MAX];
    gs_json_put_str(w, "parallelism",
                    gs_parallel_kinds_name(c->parallel_kinds, c->collectives, kinds, sizeof kinds));
    gs_json_begin_array(w, "parallel_kinds", GS_JSON_INLINE);
    for (int k = 0; k < GS_PAR__COUNT; k++)
        if (gs_par_has(c->parallel_kinds, (enum gs_parallelism)k))
            gs_json_put_str(w, NULL, gs_parallelism_key((enum gs_parallelism)k));
    gs_json_end(w);
    gs_json_put_uint(w, "collectives", c->collectives);
    gs_json_put_uint(w, "all_reduces", c->all_reduces);
    gs_json_put_uint(w, "all_gathers", c->all_gathers);
    gs_json_put_uint(w, "reduce_scatters", c->reduce_scatters);
    gs_json_put_uint(w, "send_recvs", c->send_recvs);
    gs_json_put_uint(w, "all_to_alls", c->all_to_alls);
    if (c->low_precision_share < 0)
        gs_json_put_null(w, "low_precision_share"); /* no kernels */
    else
        gs_json_put_fixed(w, "low_precision_share", c->low_precision_share, 4);
    gs_json_put_int(w, "profiler_cost_ns", c->profiler_cost_ns);
    gs_json_put_int(w, "profiler_step_ns", c->profiler_step_ns);
    gs_json_put_fixed(w, "profiler_step_pct",
                      in->step_ns > 0 ? 100.0 * (double)c->profiler_step_ns / (double)in->step_ns
                                      : 0.0,
                      2);
    gs_json_put_int(w, "profiler_lengthens_ns", gs_profiler_step_lengthening(in));
    gs_json_end(w);
}
