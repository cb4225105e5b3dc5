#include "render/compute_lines.h"

#include <inttypes.h>

#include "analysis/base/flops.h"
#include "common/json_write.h"

void gs_fmt_flops(char *buf, size_t size, double flops)
{
    static const char prefix[] = " kMGTPE";
    int p = 0;
    while (flops >= 999.95 && p < 6) {
        flops /= 1000;
        p++;
    }
    snprintf(buf, size, p ? "%.2f %c" : "%.0f ", flops, prefix[p]);
}

bool gs_compute_worth_text(const gs_compute *c)
{
    return c->flops_per_step > 0 || c->tc_share > 0 || c->eligible_share > 0;
}

static void put_mfu(FILE *out, const gs_compute *c)
{
    const char *dtype = gs_dtype_name((enum gs_dtype)c->dtype);
    if (c->mfu >= 0) {
        fprintf(out, ", MFU %.1f %% of the %s's dense %s peak, %.1f TFLOP/s", 100 * c->mfu,
                c->peak_model, dtype, c->peak_tflops);
    } else if (c->dtype == GS_DTYPE_UNKNOWN) {
        fputs(", MFU unknown: the operators' input types were not recorded", out);
    } else if (!c->gpu[0]) {
        fputs(", MFU unknown: the trace names no GPU", out);
    } else if (!c->peak_model[0]) {
        fprintf(out, ", MFU unknown: no peak known for the GPU \"%s\" (doc/flops.md)", c->gpu);
    } else {
        fprintf(out, ", MFU unknown: no dense %s peak for the %s (doc/flops.md)", dtype,
                c->peak_model);
    }
}

static const char *const kind_label[GS_FLOP__COUNT] = {
    [GS_FLOP_GEMM] = "GEMM", [GS_FLOP_CONV] = "convolution", [GS_FLOP_ATTENTION] = "attention",
};

void gs_render_compute_text(FILE *out, int32_t rank, const gs_compute *c)
{
    char total[24], rate[24];
    if (c->flops_per_step > 0) {
        gs_fmt_flops(total, sizeof total, c->flops_per_step);
        gs_fmt_flops(rate, sizeof rate, c->tflops * 1e12);
        fprintf(out, "rank %" PRId32 ": model FLOPs %sFLOP per step", rank, total);
        const char *sep = " (";
        for (int k = GS_FLOP_GEMM; k < GS_FLOP__COUNT; k++) {
            if (c->kind_flops[k] <= 0)
                continue;
            char v[24];
            gs_fmt_flops(v, sizeof v, c->kind_flops[k]);
            fprintf(out, "%s%s %sFLOP", sep, kind_label[k], v);
            sep = ", ";
        }
        fputs(*sep == ',' ? ")" : "", out);
        if (c->dtype != GS_DTYPE_UNKNOWN)
            fprintf(out, " in %s", gs_dtype_name((enum gs_dtype)c->dtype));
        fprintf(out, "; achieved %sFLOP/s", rate);
        put_mfu(out, c);
        putc('\n', out);
    }
    if (c->tc_share > 0 || c->eligible_share > 0) {
        fprintf(out, "rank %" PRId32 ": Tensor Cores %.1f %% of kernel time; ", rank,
                100 * c->tc_share);
        if (c->eligible_share < 0)
            fputs("Tensor-Core-eligible operators - (no operator recorded)", out);
        else
            fprintf(out, "Tensor-Core-eligible operators %.1f %%", 100 * c->eligible_share);
        if (c->eligible_share > 0)
            fprintf(out, ", %.1f %% of theirs without Tensor Cores",
                    100 * c->eligible_unused_share);
        putc('\n', out);
    }
}


void gs_render_compute_json(gs_json_writer *w, const gs_compute *c)
{
    gs_json_begin_object(w, "compute", GS_JSON_INLINE);
    gs_json_put_real(w, "flops_per_step", c->flops_per_step, 6);
    gs_json_put_real(w, "gemm_flops", c->kind_flops[GS_FLOP_GEMM], 6);
    gs_json_put_real(w, "conv_flops", c->kind_flops[GS_FLOP_CONV], 6);
    gs_json_put_real(w, "attention_flops", c->kind_flops[GS_FLOP_ATTENTION], 6);
    gs_json_put_str(w, "dtype", gs_dtype_name((enum gs_dtype)c->dtype));
    gs_json_put_real(w, "tflops", c->tflops, 6);
    gs_json_put_known_real(w, "peak_tflops", c->peak_tflops, 6, c->peak_tflops > 0);
    gs_json_put_known_real(w, "mfu", c->mfu, 6, c->mfu >= 0);
    gs_json_put_str(w, "gpu", c->gpu);
    gs_json_put_str(w, "peak_model", c->peak_model[0] ? c->peak_model : NULL);
    gs_json_put_uint(w, "counted_ops", c->counted_ops);
    gs_json_put_uint(w, "trace_flops_ops", c->trace_flops_ops);
    gs_json_put_known_real(w, "flop_op_share", c->flop_op_share, 6, c->flop_op_share >= 0);
    gs_json_put_known_real(w, "tc_share", c->tc_share, 6, c->tc_share >= 0);
    gs_json_put_known_real(w, "tc_eligible_share", c->eligible_share, 6, c->eligible_share >= 0);
    gs_json_put_known_real(w, "tc_eligible_unused_share", c->eligible_unused_share, 6,
                           c->eligible_unused_share >= 0);
    gs_json_end(w);
}
