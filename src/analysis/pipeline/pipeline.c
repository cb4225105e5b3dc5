#include "analysis/pipeline/pipeline.h"

#include <string.h>

int gs_pipeline_report(const gs_rank_inputs *in, const gs_pipeline_opts *o, gs_report *out,
                       gs_error *err)
{
    gs_rank_set set;
    if (gs_rank_set_load(in, &o->load, &set, err) != 0) {
        memset(out, 0, sizeof *out);
        return -1;
    }
    const gs_report_opts ro = {.stages = o->load.summary.stages, .align = o->align,
                               .hta_compat = o->load.summary.hta_compat};
    return gs_report_build(set.v, set.n, &ro, out, err);
}
