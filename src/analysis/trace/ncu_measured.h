/* What Nsight Compute measured a kernel to move and compute, beside gpuscope's estimate from the
 * operator's shapes (doc/roofline.md, "Against Nsight Compute"): its DRAM bytes, and its FLOPs as
 * ncu's roofline sections count them (SASS instruction counts) plus the Tensor Cores' work, which
 * those sections leave out and which is derived here from the tensor pipe's measured activity. */
#ifndef GS_ANALYSIS_NCU_MEASURED_H
#define GS_ANALYSIS_NCU_MEASURED_H

#include "analysis/base/op_args.h"
#include "model/ncu.h"

/* Where the DRAM bytes come from, best first. */
enum gs_ncu_bytes_from {
    GS_NCU_BYTES_UNKNOWN,    /* the export has none of the three */
    GS_NCU_BYTES_COUNTED,    /* dram__bytes_read.sum + dram__bytes_write.sum */
    GS_NCU_BYTES_RATE,       /* raw page: dram__bytes.sum.per_second x gpu__time_duration.sum */
    GS_NCU_BYTES_THROUGHPUT, /* details page: Memory Workload Analysis's Memory Throughput x
                                Duration */
};

typedef struct gs_ncu_measured {
    double dram_bytes; /* NaN when unknown */
    enum gs_ncu_bytes_from bytes_from;
    double sass_flops;   /* FP32 (+ FP64 and FP16 when exported) SASS FLOPs; NaN when unknown */
    double tensor_flops; /* derived from the tensor pipe's activity; NaN when unknown */
    double flops;        /* the two together; NaN when either is unknown */
} gs_ncu_measured;

/* What kernel k moved and computed. dtype is the element type its Tensor Core work ran in (the
 * launching operator's, from the trace; fp32 reads as tf32 there), which the export does not
 * say: GS_DTYPE_UNKNOWN leaves the Tensor Core FLOPs unknown unless the pipe was idle. */
void gs_ncu_measure(const gs_ncu_kernel *k, enum gs_dtype dtype, gs_ncu_measured *out);

/* "dram counters", "dram rate", "memory throughput"; NULL when unknown. */
const char *gs_ncu_bytes_from_name(enum gs_ncu_bytes_from b);

#endif
