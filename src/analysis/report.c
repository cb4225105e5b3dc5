#include "analysis/report.h"

#include <string.h>

int gs_report_build(const gs_profile *p, const gs_select *sel, gs_report *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    if (gs_profile_facts_build(p, sel, &out->facts, err) != 0 ||
        gs_kernel_summary_build(p, sel, false, &out->kernels, err) != 0 ||
        gs_op_summary_build(p, sel, false, &out->ops, err) != 0 ||
        gs_memcpy_summary_build(p, sel, &out->memcpy, err) != 0) {
        gs_report_free(out);
        return -1;
    }
    return 0;
}

void gs_report_free(gs_report *r)
{
    gs_profile_facts_free(&r->facts);
    gs_kernel_summary_free(&r->kernels);
    gs_op_summary_free(&r->ops);
    gs_memcpy_summary_free(&r->memcpy);
}
