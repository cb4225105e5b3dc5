/* The memory rules: they read the allocator records ([memory] events, doc/design.md §19) and
 * put no step time at stake; a job that runs out of memory is a risk, ranked first. */
#include "analysis/diagnosis/diag_finding.h"
#include "analysis/diagnosis/diag_rules.h"

#include "analysis/base/thresholds.h"

/* The memory rules need allocator records ([memory] events); without them they say so. */
static bool without_memory_records(double known, gs_finding *f)
{
    if (known >= 0)
        return false;
    f->severity = GS_SEV_NONE;
    EVIDENCE(f, "no allocator records in the trace");
    WHY(f, "no allocator records in the trace (torch.profiler records them with "
           "profile_memory=True, gpuscope run with --trace memory, its default): the rule does "
           "not apply");
    return true;
}

void diag_rule_memory_growth(const gs_diag_inputs *in, gs_finding *f)
{
    if (without_memory_records(in->mem_growth_r2, f))
        return;
    add_input(f, "growth_bytes_per_step", in->mem_growth_per_step, GS_UNIT_BYTES);
    add_input(f, "fit_r2", in->mem_growth_r2, GS_UNIT_RATIO);
    add_input(f, "steps", (double)in->mem_growth_steps, GS_UNIT_COUNT);
    add_threshold(f, "growth_bytes_per_step", (double)GS_TH_MEM_LEAK_MIN_GROWTH, GS_UNIT_BYTES);
    add_threshold(f, "fit_r2", GS_TH_MEM_LEAK_R2, GS_UNIT_RATIO);
    add_threshold(f, "steps", GS_TH_MEM_LEAK_MIN_STEPS, GS_UNIT_COUNT);
    bool fires = in->mem_growth_steps >= GS_TH_MEM_LEAK_MIN_STEPS &&
                 in->mem_growth_r2 >= GS_TH_MEM_LEAK_R2 &&
                 in->mem_growth_per_step >= (double)GS_TH_MEM_LEAK_MIN_GROWTH;
    f->severity = fires ? GS_SEV_RISK : GS_SEV_NONE;
    EVIDENCE(f, "allocated memory grows %.1f MB per step (linear fit R^2 %.2f over %zu steps)",
             in->mem_growth_per_step / 1e6, in->mem_growth_r2, in->mem_growth_steps);
    WHY(f, "growth %.1f MB/step (>= %.0f MB?), R^2 %.2f (>= %.2f?), %zu steps (>= %d?)",
        in->mem_growth_per_step / 1e6, (double)GS_TH_MEM_LEAK_MIN_GROWTH / 1e6,
        in->mem_growth_r2, GS_TH_MEM_LEAK_R2, in->mem_growth_steps, GS_TH_MEM_LEAK_MIN_STEPS);
}

/* "0.93", or "not recorded" for a ratio the trace cannot give (-1). */
static void append_ratio(gs_strbuf *b, double v)
{
    if (v < 0)
        gs_strbuf_append(b, "not recorded");
    else
        gs_strbuf_appendf(b, "%.2f", v);
}

void diag_rule_memory_capacity(const gs_diag_inputs *in, gs_finding *f)
{
    if (without_memory_records(in->mem_peak_share > in->mem_fragmentation ? in->mem_peak_share
                                                                          : in->mem_fragmentation,
                               f))
        return;
    /* A figure the records cannot give (reserved of CUDA's own allocations, a device of unknown
     * size) is no input: the rule reads what is there. */
    if (in->mem_peak_share >= 0)
        add_input(f, "peak_share", in->mem_peak_share, GS_UNIT_SHARE);
    if (in->mem_fragmentation >= 0)
        add_input(f, "fragmentation", in->mem_fragmentation, GS_UNIT_RATIO);
    add_threshold(f, "peak_share", GS_TH_MEM_PEAK_SHARE, GS_UNIT_SHARE);
    add_threshold(f, "fragmentation", GS_TH_MEM_FRAGMENTATION, GS_UNIT_RATIO);
    bool full = in->mem_peak_share > GS_TH_MEM_PEAK_SHARE;
    bool fragmented = in->mem_fragmentation > GS_TH_MEM_FRAGMENTATION;
    f->severity = full ? GS_SEV_RISK : fragmented ? GS_SEV_FINDING : GS_SEV_NONE;
    gs_strbuf evidence, why;
    gs_strbuf_init(&evidence);
    gs_strbuf_init(&why);
    if (in->mem_peak_share >= 0) {
        gs_strbuf_appendf(&evidence, "peak memory held is %.0f %% of the device; ",
                          100 * in->mem_peak_share);
        gs_strbuf_appendf(&why, "peak %.1f %% of the device (> %.0f %%?), ",
                          100 * in->mem_peak_share, 100 * GS_TH_MEM_PEAK_SHARE);
    } else {
        gs_strbuf_append(&evidence, "device memory unknown; ");
        gs_strbuf_append(&why, "device memory unknown, ");
    }
    gs_strbuf_append(&evidence, "reserved / allocated at the peak is ");
    append_ratio(&evidence, in->mem_fragmentation);
    gs_strbuf_append(&why, "fragmentation ");
    append_ratio(&why, in->mem_fragmentation);
    gs_strbuf_appendf(&why, " (> %.1f?)", GS_TH_MEM_FRAGMENTATION);
    keep_text(&f->evidence, &evidence);
    keep_text(&f->why, &why);
}
