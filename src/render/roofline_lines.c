#include "render/roofline_lines.h"

#include <inttypes.h>

#include "render/render.h"

void gs_render_roofline_text(FILE *out, int32_t rank, const gs_rank_roof *r)
{
    if (r->gpu_ns <= 0 || r->modelled_ns <= 0 || !r->nrows)
        return; /* nothing placed: JSON still lists the groups */
    fprintf(out, "rank %" PRId32 ": roofline, %.0f %% of operator GPU time modelled", rank,
            100.0 * (double)r->modelled_ns / (double)r->gpu_ns);
    for (size_t i = 0; i < r->nrows && i < GS_ROOF_TEXT_GROUPS; i++) {
        const gs_sum_roof *g = &r->rows[i];
        fputs("; ", out);
        gs_text_put_clean(out, g->name); /* the trace's name: no terminal escapes */
        fprintf(out, " %.0f %% of it", 100.0 * (double)g->gpu_ns / (double)r->gpu_ns);
        if (g->modelled_ns <= 0) {
            fputs(", not modelled", out);
            continue;
        }
        if (g->roof_share >= 0)
            fprintf(out, ", %s-bound", gs_roof_bound_name(g->bound));
        if (g->intensity >= 0)
            fprintf(out, " at %.1f FLOP/byte", g->intensity);
        if (g->roof_share >= 0)
            fprintf(out, ", %.0f %% of its roof", 100 * g->roof_share);
        else /* FLOPs and bytes, but no peak for its type or GPU */
            fputs(", no roof known for its type", out);
    }
    fputs("\n", out);
}


static void put_row(gs_json_writer *w, const gs_sum_roof *g)
{
    gs_json_begin_object(w, NULL, GS_JSON_INLINE);
    gs_json_put_str(w, "name", g->name);
    gs_json_put_str(w, "class", gs_op_class_name(g->cls));
    gs_json_put_str(w, "dtype", gs_dtype_name(g->dtype));
    gs_json_put_uint(w, "calls", g->calls);
    gs_json_put_int(w, "gpu_ns", g->gpu_ns);
    gs_json_put_real(w, "flops", g->flops, 6);
    gs_json_put_real(w, "bytes", g->bytes, 6);
    gs_json_put_known_real(w, "intensity", g->intensity, 6, g->intensity >= 0);
    gs_json_put_known_real(w, "tflops", g->tflops, 6, g->tflops >= 0);
    gs_json_put_known_real(w, "tbps", g->tbps, 6, g->tbps >= 0);
    gs_json_put_known_real(w, "roof_tflops", g->roof_tflops, 6, g->roof_tflops >= 0);
    gs_json_put_known_real(w, "roof_share", g->roof_share, 6, g->roof_share >= 0);
    gs_json_put_str(w, "bound", gs_roof_bound_name(g->bound));
    gs_json_end(w);
}

void gs_render_roofline_json(gs_json_writer *w, const gs_rank_roof *r)
{
    gs_json_begin_object(w, "roofline", GS_JSON_BLOCK);
    gs_json_put_uint(w, "groups", r->groups);
    gs_json_put_int(w, "gpu_ns", r->gpu_ns);
    gs_json_put_int(w, "modelled_ns", r->modelled_ns);
    gs_json_put_int(w, "unmodelled_ns", r->unmodelled_ns);
    gs_json_put_known_real(w, "peak_tbps", r->peak_tbps, 6, r->peak_tbps > 0);
    gs_json_put_known_real(w, "fp32_tflops", r->fp32_tflops, 6, r->fp32_tflops > 0);
    gs_json_put_known_real(w, "tensor_core_tflops", r->tc_tflops, 6, r->tc_tflops > 0);
    gs_json_put_str(w, "tensor_core_dtype", r->tc_tflops > 0 ? gs_dtype_name(r->tc_dtype) : NULL);
    gs_json_begin_array(w, "rows", GS_JSON_BLOCK);
    for (size_t i = 0; i < r->nrows && i < GS_RANK_ROOF_ROWS; i++) /* as many as it keeps */
        put_row(w, &r->rows[i]);
    gs_json_end(w);
    gs_json_end(w);
}
