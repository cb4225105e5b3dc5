#include "analysis/pipeline/roof_summary.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/base/gpu_peaks.h"
#include "analysis/trace/compute.h"
#include "common/vec.h"

/* The roofs of c's GPU; the Tensor Cores' in the type most matrix GPU time ran in. */
static void fill_roofs(const gs_trace_ctx *c, const gs_roofline *r, gs_rank_roof *out)
{
    const gs_trace *t = c->trace;
    const gs_device *dev = gs_trace_main_device(t);
    const gs_gpu_peaks *gpu =
        dev && dev->name != GS_STR_EMPTY ? gs_gpu_peaks_find(gs_trace_str(t, dev->name)) : NULL;
    if (!gpu)
        return;
    gs_ns matrix_ns[GS_DTYPE__COUNT] = {0};
    for (size_t i = 0; i < r->nrows; i++)
        if (gs_op_class_is_matrix(r->rows[i].cls) && (unsigned)r->rows[i].dtype < GS_DTYPE__COUNT)
            matrix_ns[r->rows[i].dtype] += r->rows[i].gpu_ns;
    enum gs_dtype tc = GS_DTYPE_BF16; /* no matrix work: the precision training runs in today */
    for (int d = GS_DTYPE_UNKNOWN + 1; d < GS_DTYPE__COUNT; d++)
        if (matrix_ns[d] > matrix_ns[tc] && gs_gpu_peak_tflops(gpu, (enum gs_dtype)d) > 0)
            tc = (enum gs_dtype)d;
    out->peak_tbps = gs_gpu_peak_tbps(gpu);
    out->fp32_tflops = gs_gpu_peak_tflops(gpu, GS_DTYPE_FP32);
    out->tc_tflops = gs_gpu_peak_tflops(gpu, tc);
    out->tc_dtype = tc;
}

static int keep_rows(const gs_roofline *r, gs_rank_roof *out)
{
    size_t n = r->nrows < GS_RANK_ROOF_ROWS ? r->nrows : GS_RANK_ROOF_ROWS;
    out->rows = gs_array_zeroed(n, sizeof *out->rows);
    if (!out->rows)
        return -1;
    for (size_t i = 0; i < n; i++, out->nrows++) {
        const gs_roof_row *w = &r->rows[i];
        out->rows[i] = (gs_sum_roof){
            .name = strdup(w->name ? w->name : ""), .cls = w->cls, .dtype = w->dtype,
            .bound = w->bound, .calls = w->calls, .gpu_ns = w->gpu_ns,
            .modelled_ns = w->modelled_ns, .flops = w->flops, .bytes = w->bytes,
            .intensity = w->intensity, .tflops = w->tflops, .tbps = w->tbps,
            .peak_tflops = w->peak_tflops, .roof_tflops = w->roof_tflops,
            .roof_share = w->roof_share,
        };
        if (!out->rows[i].name)
            return -1;
    }
    return 0;
}

int gs_rank_roof_build(const gs_trace_ctx *c, gs_rank_roof *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    gs_roofline r;
    if (gs_roofline_build(c, GS_ROOF_BY_NAME, &r, err) != 0)
        return -1;
    out->groups = r.nrows;
    out->gpu_ns = r.gpu_ns;
    out->modelled_ns = r.modelled_ns;
    out->unmodelled_ns = r.gpu_ns - r.modelled_ns;
    fill_roofs(c, &r, out);
    int rc = keep_rows(&r, out);
    gs_roofline_free(&r);
    if (rc != 0) {
        gs_rank_roof_free(out);
        return gs_fail_oom(err);
    }
    return 0;
}

void gs_rank_roof_free(gs_rank_roof *r)
{
    for (size_t i = 0; i < r->nrows; i++)
        free(r->rows[i].name);
    free(r->rows);
    memset(r, 0, sizeof *r);
}

void gs_rank_roof_inputs(const gs_rank_roof *r, size_t kept, gs_diag_inputs *in)
{
    in->roof_op = NULL;
    in->roof_op_share = in->roof_share = in->roof_intensity = -1;
    in->roof_op_ns = 0;
    in->roof_bound = GS_BOUND_UNKNOWN;
    if (!r || !r->nrows || r->gpu_ns <= 0)
        return;
    const gs_sum_roof *top = &r->rows[0];
    in->roof_op = top->name;
    in->roof_op_share = (double)top->gpu_ns / (double)r->gpu_ns;
    in->roof_op_ns = top->gpu_ns / (gs_ns)(kept ? kept : 1);
    in->roof_share = top->roof_share;
    in->roof_intensity = top->intensity;
    in->roof_bound = (uint8_t)top->bound;
}

void gs_rank_roof_target(const gs_rank_roof *r, gs_replay_params *p)
{
    p->roof_op = NULL;
    p->roof_scale = 0;
    double share = r && r->nrows ? r->rows[0].roof_share : -1;
    if (!(share > 0 && share < GS_ROOF_TARGET_SHARE))
        return;
    p->roof_op = r->rows[0].name;
    p->roof_scale = share / GS_ROOF_TARGET_SHARE;
}
