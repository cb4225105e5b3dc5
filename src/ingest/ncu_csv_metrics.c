/* The metrics the Nsight Compute CSV reader keeps, and ncu's units (NVIDIA's Nsight Compute
 * documentation, "Metrics Reference" and "Units"). */
#include "ingest/ncu_csv_metrics.h"

#include <string.h>

#include "common/util.h"

/* Details page: (section, metric name) -> slot. */
static const struct details_metric {
    const char *section_prefix, *name;
    enum gs_ncu_metric slot;
} details_metrics[] = {
    {"GPU Speed Of Light", "Duration", GS_NCU_DURATION_NS},
    {"GPU Speed Of Light", "Compute (SM) Throughput", GS_NCU_COMPUTE_PCT},
    {"GPU Speed Of Light", "Memory Throughput", GS_NCU_MEMORY_PCT},
    {"GPU Speed Of Light", "DRAM Throughput", GS_NCU_DRAM_PCT},
    {"GPU Speed Of Light", "SM Frequency", GS_NCU_SM_CYCLES_PER_S},
    {"Memory Workload Analysis", "Memory Throughput", GS_NCU_MEMORY_BYTES_PER_S},
    {"Launch Statistics", "# SMs", GS_NCU_SM_COUNT},
    {"Occupancy", "Achieved Occupancy", GS_NCU_ACHIEVED_OCC_PCT},
    {"Occupancy", "Theoretical Occupancy", GS_NCU_THEORETICAL_OCC_PCT},
    {"Occupancy", "Block Limit Registers", GS_NCU_LIMIT_REGISTERS},
    {"Occupancy", "Block Limit Shared Mem", GS_NCU_LIMIT_SHARED_MEM},
    {"Occupancy", "Block Limit Warps", GS_NCU_LIMIT_WARPS},
    {"Occupancy", "Block Limit SM", GS_NCU_LIMIT_SM},
    {"Occupancy", "Block Limit Barriers", GS_NCU_LIMIT_BARRIERS},
};

#define SASS(op) "smsp__sass_thread_inst_executed_op_" op "_pred_on.sum.per_cycle_elapsed"

/* Raw page: metric column -> slot (the metrics behind the details page's rows above, the
 * roofline sections' inputs, and what the kernel moved to and from DRAM). */
static const struct raw_metric {
    const char *column;
    enum gs_ncu_metric slot;
} raw_metrics[] = {
    {"gpu__time_duration.sum", GS_NCU_DURATION_NS},
    {"sm__throughput.avg.pct_of_peak_sustained_elapsed", GS_NCU_COMPUTE_PCT},
    {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", GS_NCU_MEMORY_PCT},
    {"dram__throughput.avg.pct_of_peak_sustained_elapsed", GS_NCU_DRAM_PCT},
    {"sm__warps_active.avg.pct_of_peak_sustained_active", GS_NCU_ACHIEVED_OCC_PCT},
    {"sm__maximum_warps_per_active_cycle_pct", GS_NCU_THEORETICAL_OCC_PCT},
    {"launch__occupancy_limit_registers", GS_NCU_LIMIT_REGISTERS},
    {"launch__occupancy_limit_shared_mem", GS_NCU_LIMIT_SHARED_MEM},
    {"launch__occupancy_limit_warps", GS_NCU_LIMIT_WARPS},
    {"launch__occupancy_limit_blocks", GS_NCU_LIMIT_SM},
    {"launch__occupancy_limit_barriers", GS_NCU_LIMIT_BARRIERS},
    {SASS("fadd"), GS_NCU_FADD_PER_CYCLE},
    {SASS("fmul"), GS_NCU_FMUL_PER_CYCLE},
    {SASS("ffma"), GS_NCU_FFMA_PER_CYCLE},
    {SASS("dadd"), GS_NCU_DADD_PER_CYCLE},
    {SASS("dmul"), GS_NCU_DMUL_PER_CYCLE},
    {SASS("dfma"), GS_NCU_DFMA_PER_CYCLE},
    {SASS("hadd"), GS_NCU_HADD_PER_CYCLE},
    {SASS("hmul"), GS_NCU_HMUL_PER_CYCLE},
    {SASS("hfma"), GS_NCU_HFMA_PER_CYCLE},
    {"smsp__cycles_elapsed.avg.per_second", GS_NCU_SMSP_CYCLES_PER_S},
    {"sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained", GS_NCU_FFMA_PEAK_PER_CYCLE},
    {"sm__cycles_elapsed.avg.per_second", GS_NCU_SM_CYCLES_PER_S},
    {"sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed", GS_NCU_TENSOR_PCT},
    {"sm__pipe_tensor_type_hmma_hgmma_qgmma_imma_igmma_bmma_bgmma_cycles_active.avg."
     "pct_of_peak_sustained_elapsed", GS_NCU_TENSOR_MMA_PCT},
    {"sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed",
     GS_NCU_TENSOR_MMA_PCT},
    {"sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_elapsed",
     GS_NCU_TENSOR_DMMA_PCT},
    {"launch__sm_count", GS_NCU_SM_COUNT},
    {"dram__bytes.sum.per_second", GS_NCU_DRAM_BYTES_PER_S},
    {"dram__bytes.sum.peak_sustained", GS_NCU_DRAM_PEAK_BYTES_PER_CYCLE},
    {"dram__cycles_elapsed.avg.per_second", GS_NCU_DRAM_CYCLES_PER_S},
    {"dram__bytes_read.sum", GS_NCU_DRAM_BYTES_READ},
    {"dram__bytes_write.sum", GS_NCU_DRAM_BYTES_WRITE},
};

bool gs_ncu_details_slot(const char *section, const char *metric, enum gs_ncu_metric *slot)
{
    for (size_t m = 0; m < COUNT_OF(details_metrics); m++) {
        const struct details_metric *d = &details_metrics[m];
        if (!strncmp(section, d->section_prefix, strlen(d->section_prefix)) &&
            !strcmp(metric, d->name)) {
            *slot = d->slot;
            return true;
        }
    }
    return false;
}

bool gs_ncu_raw_slot(const char *column, enum gs_ncu_metric *slot)
{
    for (size_t m = 0; m < COUNT_OF(raw_metrics); m++)
        if (!strcmp(column, raw_metrics[m].column)) {
            *slot = raw_metrics[m].slot;
            return true;
        }
    return false;
}

/* ncu writes base units on the raw page and, unless told --print-units base, scaled ones on the
 * details page ("usecond", "Gbyte/second", "Mbyte", "Ghz", older versions' "cycle/nsecond"). */
double gs_ncu_unit_scale(const char *unit)
{
    static const struct { const char *unit; double scale; } units[] = {
        {"ns", 1}, {"nsecond", 1}, {"us", 1e3}, {"usecond", 1e3}, {"ms", 1e6},
        {"msecond", 1e6}, {"s", 1e9}, {"second", 1e9},
        {"byte", 1}, {"Kbyte", 1e3}, {"Mbyte", 1e6}, {"Gbyte", 1e9}, {"Tbyte", 1e12},
        {"byte/s", 1}, {"byte/second", 1}, {"Kbyte/s", 1e3}, {"Kbyte/second", 1e3},
        {"Mbyte/s", 1e6}, {"Mbyte/second", 1e6}, {"Gbyte/s", 1e9}, {"Gbyte/second", 1e9},
        {"Tbyte/s", 1e12}, {"Tbyte/second", 1e12},
        {"hz", 1}, {"Khz", 1e3}, {"Mhz", 1e6}, {"Ghz", 1e9},
        {"cycle/second", 1}, {"cycle/usecond", 1e6}, {"cycle/nsecond", 1e9},
    };
    for (size_t i = 0; i < COUNT_OF(units); i++)
        if (!strcmp(unit, units[i].unit))
            return units[i].scale;
    return 1;
}
