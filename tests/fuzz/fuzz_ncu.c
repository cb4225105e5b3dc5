/* Fuzz target for the Nsight Compute CSV reader (src/ingest/ncu_csv.c) and the join with a trace
 * (analysis/trace/ncu_join.c): the join runs on the kernels of no trace, so every kernel goes
 * unmatched but every derived number (limiter, roofline, top finding) is computed. */
#include <stddef.h>
#include <stdint.h>

#include "analysis/trace/ncu_join.h"
#include "ingest/ncu_csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gs_error err;
    gs_ncu_report r;
    if (gs_ncu_read_buffer((const char *)data, size, "fuzz.csv", &r, &err) != 0)
        return 0;
    gs_kernel_summary no_kernels; /* the kernels by launch of no trace */
    gs_ncu_join j;
    if (gs_kernel_summary_init(&no_kernels, true, &err) == 0 &&
        gs_kernel_summary_finish(&no_kernels, &err) == 0 &&
        gs_ncu_join_build(&no_kernels, &r, &j, &err) == 0)
        gs_ncu_join_free(&j);
    gs_ncu_report_free(&r);
    return 0;
}
