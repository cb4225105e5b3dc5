/* What an Nsight Compute export says of the kernels it profiled (read by ingest/ncu_csv.c): per
 * kernel, its name and launch, the metrics gpuscope shows (speed of light, occupancy and its
 * limits, the FP32 roofline's inputs) and ncu's rule findings with their estimated speedups.
 * doc/FORMAT.md "Nsight Compute CSV" names the metrics behind each field. */
#ifndef GS_MODEL_NCU_H
#define GS_MODEL_NCU_H

#include <stddef.h>
#include <stdint.h>

#include "common/vec.h"
#include "model/strtab.h"

/* The metrics kept per kernel; NaN when the export does not have it. */
enum gs_ncu_metric {
    GS_NCU_DURATION_NS,         /* gpu__time_duration.sum */
    GS_NCU_COMPUTE_PCT,         /* Compute (SM) Throughput: sm__throughput, % of peak */
    GS_NCU_MEMORY_PCT,          /* Memory Throughput: gpu__compute_memory_throughput, % of peak */
    GS_NCU_DRAM_PCT,            /* DRAM Throughput, % of peak */
    GS_NCU_ACHIEVED_OCC_PCT,    /* Achieved Occupancy: sm__warps_active, % of peak */
    GS_NCU_THEORETICAL_OCC_PCT, /* Theoretical Occupancy: sm__maximum_warps_per_active_cycle_pct */
    /* Blocks per SM each resource allows (Occupancy section, launch__occupancy_limit_*): */
    GS_NCU_LIMIT_REGISTERS,
    GS_NCU_LIMIT_SHARED_MEM,
    GS_NCU_LIMIT_WARPS,
    GS_NCU_LIMIT_SM, /* the hardware's blocks per SM */
    GS_NCU_LIMIT_BARRIERS,
    /* The FP32 roofline's inputs (raw page, ncu's SpeedOfLight_RooflineChart section): */
    GS_NCU_FADD_PER_CYCLE,    /* smsp__sass_thread_inst_executed_op_fadd_pred_on.sum.per_cycle_elapsed */
    GS_NCU_FMUL_PER_CYCLE,    /* ..._fmul_pred_on.sum.per_cycle_elapsed */
    GS_NCU_FFMA_PER_CYCLE,    /* ..._ffma_pred_on.sum.per_cycle_elapsed */
    GS_NCU_SMSP_CYCLES_PER_S, /* smsp__cycles_elapsed.avg.per_second */
    GS_NCU_FFMA_PEAK_PER_CYCLE, /* sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained */
    GS_NCU_SM_CYCLES_PER_S,     /* sm__cycles_elapsed.avg.per_second */
    GS_NCU_DRAM_BYTES_PER_S,    /* dram__bytes.sum.per_second */
    GS_NCU_DRAM_PEAK_BYTES_PER_CYCLE, /* dram__bytes.sum.peak_sustained */
    GS_NCU_DRAM_CYCLES_PER_S,         /* dram__cycles_elapsed.avg.per_second */
    /* What the kernel moved and computed (analysis/trace/ncu_measured.h): */
    GS_NCU_DRAM_BYTES_READ,  /* dram__bytes_read.sum */
    GS_NCU_DRAM_BYTES_WRITE, /* dram__bytes_write.sum */
    GS_NCU_MEMORY_BYTES_PER_S, /* details page: Memory Workload Analysis / Memory Throughput */
    GS_NCU_DADD_PER_CYCLE,   /* smsp__sass_thread_inst_executed_op_dadd_pred_on.sum.per_cycle_elapsed */
    GS_NCU_DMUL_PER_CYCLE,   /* ..._dmul_... */
    GS_NCU_DFMA_PER_CYCLE,   /* ..._dfma_... */
    GS_NCU_HADD_PER_CYCLE,   /* ..._hadd_... (ncu's half-precision roofline section) */
    GS_NCU_HMUL_PER_CYCLE,   /* ..._hmul_... */
    GS_NCU_HFMA_PER_CYCLE,   /* ..._hfma_... */
    /* The tensor pipe's active cycles, % of peak sustained elapsed (.avg.pct_of_peak_sustained_
     * elapsed): all of its work (sm__pipe_tensor_cycles_active, which on Hopper also counts the
     * shared pipe's FP16 work), its matrix multiplies alone (Hopper's
     * sm__pipe_tensor_type_hmma_hgmma_qgmma_imma_igmma_bmma_bgmma_cycles_active, earlier GPUs'
     * sm__pipe_tensor_op_hmma_cycles_active), and its FP64 ones (sm__pipe_tensor_op_dmma_...). */
    GS_NCU_TENSOR_PCT,
    GS_NCU_TENSOR_MMA_PCT,
    GS_NCU_TENSOR_DMMA_PCT,
    GS_NCU_SM_COUNT,         /* launch__sm_count; details: Launch Statistics / # SMs */
    GS_NCU__COUNT
};

/* One rule finding of the details page (a row whose Rule Name is filled). */
typedef struct gs_ncu_rule {
    uint32_t kernel; /* index into kernels */
    gs_str section, name, type, description, speedup_type; /* type: OPT, INF, WRN; speedup_type: local, global */
    double speedup_pct; /* Estimated Speedup, NaN when ncu gave none */
    int64_t line;
} gs_ncu_rule;

typedef struct gs_ncu_kernel {
    int64_t id;   /* ncu's ID: the profiled launch's order in its run */
    int32_t run;  /* which export, when several are concatenated (one header each), from 0 */
    int64_t line; /* where its first row is */
    gs_str name;  /* Kernel Name as exported (demangled unless ncu was told otherwise) */
    int32_t grid[3], block[3];
    double cc; /* compute capability as exported (9.0), NaN when the export has no CC column */
    double metric[GS_NCU__COUNT];
} gs_ncu_kernel;

typedef struct gs_ncu_report {
    gs_strtab strings;
    char *path;
    GS_VEC(gs_ncu_kernel) kernels; /* in file order */
    GS_VEC(gs_ncu_rule) rules;     /* in file order */
    int32_t runs;                  /* header rows read */
    int32_t details_runs, raw_runs;
} gs_ncu_report;

void gs_ncu_report_free(gs_ncu_report *r);

static inline const char *gs_ncu_str(const gs_ncu_report *r, gs_str id)
{
    return gs_str_get(&r->strings, id);
}

#endif
