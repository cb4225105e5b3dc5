#include "analysis/pipeline/gsum_schema.h"

#include <stddef.h>

#include "common/util.h"

#define S(T, m) offsetof(T, m)
typedef gs_rank_summary R;

static const gs_gsum_field rank_fields[] = {
    {"path", GS_F_STR, S(R, id.path), 0},          {"format", GS_F_STR, S(R, format), 0},
    {"rank", GS_F_I32, S(R, id.rank), 0},          {"world_size", GS_F_I32, S(R, id.world_size), 0},
    {"epoch_ns", GS_F_I64, S(R, id.epoch_ns), 0},  {"span_ns", GS_F_I64, S(R, span), 0},
    {"profiler_steps", GS_F_U64, S(R, profiler_steps), 0},
    {"kept_steps", GS_F_SIZE, S(R, nkept), 0},     {"compute_per_step_ns", GS_F_I64, S(R, compute_ns), 0},
    {"mem_peak_allocated", GS_F_I64, S(R, mem_peak_allocated), 0},
    {"mem_peak_reserved", GS_F_I64, S(R, mem_peak_reserved), 0},
    {"ops_gpu", GS_F_BOOL, S(R, ops_gpu), 0},      {"sync_top_op", GS_F_STR, S(R, sync_top_op), 0},
    {"ops_cpu_ns", GS_F_I64, S(R, ops_cpu), 0}, /* minor 5: absent reads as 0 (unknown) */
    {"avg_total_ns", GS_F_DBL, S(R, avg_total_ns), 0},
    {"avg_kernel_ns", GS_F_DBL, S(R, avg_ns[GS_BD_KERNEL]), 0},
    {"avg_memcpy_ns", GS_F_DBL, S(R, avg_ns[GS_BD_MEMCPY]), 0},
    {"avg_memset_ns", GS_F_DBL, S(R, avg_ns[GS_BD_MEMSET]), 0},
    {"avg_communication_ns", GS_F_DBL, S(R, avg_ns[GS_BD_COMM]), 0},
    {"avg_runtime_ns", GS_F_DBL, S(R, avg_ns[GS_BD_RUNTIME]), 0},
    {"avg_dataloader_ns", GS_F_DBL, S(R, avg_ns[GS_BD_DATALOADER]), 0},
    {"avg_cpu_exec_ns", GS_F_DBL, S(R, avg_ns[GS_BD_CPU_EXEC]), 0},
    {"avg_other_ns", GS_F_DBL, S(R, avg_ns[GS_BD_OTHER]), 0},
};

static const gs_gsum_field event_fields[] = {
    {"kernels", GS_F_U64, S(R, events.kernels), 0},
    {"memcpys", GS_F_U64, S(R, events.memcpys), 0},
    {"memsets", GS_F_U64, S(R, events.memsets), 0},
    {"gpu_syncs", GS_F_U64, S(R, events.gpu_syncs), 0},
    {"api_calls", GS_F_U64, S(R, events.api_calls), 0},
    {"ops", GS_F_U64, S(R, events.ranges[GS_RANGE_OP]), 0},
    {"annotations", GS_F_U64, S(R, events.ranges[GS_RANGE_ANNOTATION]), 0},
    {"nvtx_ranges", GS_F_U64, S(R, events.ranges[GS_RANGE_NVTX]), 0},
    {"python_functions", GS_F_U64, S(R, events.ranges[GS_RANGE_PYTHON]), 0},
    {"gpu_annotations", GS_F_U64, S(R, events.ranges[GS_RANGE_GPU_ANNOTATION]), 0},
    {"other_ranges", GS_F_U64, S(R, events.ranges[GS_RANGE_OTHER]), 0},
    {"instants", GS_F_U64, S(R, events.instants), 0},
    {"memory_events", GS_F_U64, S(R, events.memory_events), 0},
    {"counters", GS_F_U64, S(R, events.counters), 0},
    /* events the reader skipped, by reason (model/loss.c): a merged report still says so */
    {"skipped_dropped_by_collector", GS_F_U64, S(R, events.lost[GS_LOSS_DROPPED]), 0},
    {"skipped_no_time", GS_F_U64, S(R, events.lost[GS_LOSS_NO_TIME]), 0},
    {"skipped_time_out_of_range", GS_F_U64, S(R, events.lost[GS_LOSS_TIME_RANGE]), 0},
    {"skipped_negative_duration", GS_F_U64, S(R, events.lost[GS_LOSS_NEGATIVE_DURATION]), 0},
    {"skipped_size_out_of_range", GS_F_U64, S(R, events.lost[GS_LOSS_SIZE_RANGE]), 0},
    {"skipped_torn_chunk", GS_F_U64, S(R, events.lost[GS_LOSS_TORN_CHUNK]), 0},
    {"skipped_outside_memory_window", GS_F_U64, S(R, events.lost[GS_LOSS_OUTSIDE_WINDOW]), 0},
    /* captures, not events: .gst files that end without their end marker (absent: 0) */
    {"skipped_cut_short", GS_F_U64, S(R, events.lost[GS_LOSS_CUT_SHORT]), 0},
};

static const gs_gsum_field steps_fields[] = {
    {"source", GS_F_ENUM, S(R, steps.source), GS_STEPS_DETECTED + 1},
    {"period", GS_F_U32, S(R, steps.period), 0},
    {"confidence", GS_F_DBL, S(R, steps.confidence), 0},
    {"warmup", GS_F_SIZE, S(R, steps.nwarmup), 0},
    {"keep_warmup", GS_F_BOOL, S(R, steps.keep_warmup), 0},
    {"kept", GS_F_SIZE, S(R, steps.stats.n), 0},
    {"mean_ns", GS_F_I64, S(R, steps.stats.mean), 0}, {"std_ns", GS_F_I64, S(R, steps.stats.std), 0},
    {"min_ns", GS_F_I64, S(R, steps.stats.min), 0},   {"med_ns", GS_F_I64, S(R, steps.stats.med), 0},
    {"p95_ns", GS_F_I64, S(R, steps.stats.p95), 0},   {"p99_ns", GS_F_I64, S(R, steps.stats.p99), 0},
    {"max_ns", GS_F_I64, S(R, steps.stats.max), 0},
};

static const gs_gsum_field step_fields[] = {
    {"number", GS_F_I64, S(gs_step, number), 0},
    {"host_start_ns", GS_F_I64, S(gs_step, host_start), 0},
    {"host_end_ns", GS_F_I64, S(gs_step, host_end), 0},
    {"start_ns", GS_F_I64, S(gs_step, start), 0},
    {"end_ns", GS_F_I64, S(gs_step, end), 0},
    {"gpu_ops", GS_F_U32, S(gs_step, gpu_ops), 0},
    {"warmup", GS_F_BOOL, S(gs_step, warmup), 0},
};

#define I(f) S(R, inputs.f)
static const gs_gsum_field input_fields[] = {
    {"steps", GS_F_SIZE, I(steps), 0},
    {"warmup_steps", GS_F_SIZE, I(warmup_steps), 0},
    {"gpu_activities", GS_F_U64, I(gpu_activities), 0},
    {"warmup_ratio", GS_F_DBL, I(warmup_ratio), 0},
    {"step_ns", GS_F_I64, I(step_ns), 0},
    {"kernel_ns", GS_F_I64, I(kernel_ns), 0},
    {"memcpy_ns", GS_F_I64, I(memcpy_ns), 0},
    {"memset_ns", GS_F_I64, I(memset_ns), 0},
    {"comm_ns", GS_F_I64, I(comm_ns), 0},
    {"runtime_ns", GS_F_I64, I(runtime_ns), 0},
    {"dataloader_ns", GS_F_I64, I(dataloader_ns), 0},
    {"cpu_exec_ns", GS_F_I64, I(cpu_exec_ns), 0},
    {"other_ns", GS_F_I64, I(other_ns), 0},
    {"gpu_util", GS_F_DBL, I(gpu_util), 0},
    {"sync_idle_ns", GS_F_I64, I(sync_idle_ns), 0},
    {"sync_blocked_ns", GS_F_I64, I(sync_blocked_ns), 0},
    {"kernels_per_step", GS_F_DBL, I(kernels_per_step), 0},
    {"median_kernel_ns", GS_F_I64, I(median_kernel_ns), 0},
    {"median_launch_ns", GS_F_I64, I(median_launch_ns), 0},
    {"short_kernel_share", GS_F_DBL, I(short_kernel_share), 0},
    {"pageable_copy_ns", GS_F_I64, I(pageable_copy_ns), 0},
    {"mem_peak_share", GS_F_DBL, I(mem_peak_share), 0},
    {"mem_fragmentation", GS_F_DBL, I(mem_fragmentation), 0},
    {"mem_growth_per_step", GS_F_DBL, I(mem_growth_per_step), 0},
    {"mem_growth_r2", GS_F_DBL, I(mem_growth_r2), 0},
    {"mem_growth_steps", GS_F_SIZE, I(mem_growth_steps), 0},
    {"tensor_core_share", GS_F_DBL, I(tensor_core_share), 0},
    {"compute_major", GS_F_I32, I(compute_major), 0},
    {"compute_minor", GS_F_I32, I(compute_minor), 0}, /* absent in earlier files: reads as 0 */
    {"gpu_vendor", GS_F_I32, I(gpu_vendor), 0}, /* absent in earlier files: 0, NVIDIA */
    /* first use per shape; absent in earlier files: 0, nothing compared */
    {"first_use_steps", GS_F_SIZE, I(first_use_steps), 0},
    {"first_use_new_steps", GS_F_SIZE, I(first_use_new_steps), 0},
    {"first_use_shape_steps", GS_F_SIZE, I(first_use_shape_steps), 0},
    {"first_use_load_steps", GS_F_SIZE, I(first_use_load_steps), 0},
    {"first_use_mean_ns", GS_F_I64, I(first_use_mean_ns), 0},
    {"first_use_new_ns", GS_F_I64, I(first_use_new_ns), 0},
    {"first_use_seen_ns", GS_F_I64, I(first_use_seen_ns), 0},
    {"first_use_extra_ns", GS_F_I64, I(first_use_extra_ns), 0},
};
#undef I

#define T(f) S(R, temporal.f)
static const gs_gsum_field temporal_fields[] = {
    {"activities", GS_F_SIZE, T(activities), 0},
    {"window_start_ns", GS_F_I64, T(window_start), 0},
    {"window_end_ns", GS_F_I64, T(window_end), 0},
    {"window_ns", GS_F_I64, T(window), 0},
    {"busy_ns", GS_F_I64, T(busy), 0},
    {"idle_ns", GS_F_I64, T(idle), 0},
    {"compute_ns", GS_F_I64, T(compute), 0},
    {"non_compute_ns", GS_F_I64, T(non_compute), 0},
    {"communication_ns", GS_F_I64, T(communication), 0},
    {"memory_ns", GS_F_I64, T(memory), 0},
    {"idle_pct", GS_F_DBL, T(idle_pct), 0},
    {"compute_pct", GS_F_DBL, T(compute_pct), 0},
    {"non_compute_pct", GS_F_DBL, T(non_compute_pct), 0},
};
#undef T

#define C(f) S(R, comm.f)
static const gs_gsum_field comm_fields[] = {
    {"steps", GS_F_SIZE, C(steps), 0},
    {"step_median_ns", GS_F_I64, C(step_median), 0},
    {"window_ns", GS_F_I64, C(window), 0},
    {"idle_ns", GS_F_I64, C(idle), 0},
    {"idle_pct", GS_F_DBL, C(idle_pct), 0},
    {"compute_ns", GS_F_I64, C(compute), 0},
    {"communication_ns", GS_F_I64, C(communication), 0},
    {"overlap_ns", GS_F_I64, C(overlap), 0},
    {"exposed_ns", GS_F_I64, C(exposed), 0},
    {"overlap_pct", GS_F_DBL, C(overlap_pct), 0},
    {"exposed_pct", GS_F_DBL, C(exposed_pct), 0},
    {"exposed_per_step_ns", GS_F_I64, C(exposed_per_step), 0},
    {"exposed_step_pct", GS_F_DBL, C(exposed_step_pct), 0},
    {"collectives", GS_F_SIZE, C(collectives), 0},
};
#undef C

#define K(f) S(gs_comm_kind, f)
static const gs_gsum_field kind_fields[] = {
    {"kind", GS_F_ENUM, K(kind), GS_COLL__COUNT},
    {"count", GS_F_SIZE, K(count), 0},
    {"total_ns", GS_F_I64, K(total), 0},
    {"mean_ns", GS_F_I64, K(mean), 0},
    {"min_ns", GS_F_I64, K(min), 0},
    {"max_ns", GS_F_I64, K(max), 0},
    {"sized", GS_F_SIZE, K(sized), 0},
    {"bytes", GS_F_I64, K(bytes), 0},
    {"sized_time_ns", GS_F_I64, K(sized_time), 0},
    {"algbw_gbps", GS_F_DBL, K(algbw_gbps), 0},
    {"busbw_gbps", GS_F_DBL, K(busbw_gbps), 0},
    {"group_size", GS_F_I32, K(group_size), 0},
};
#undef K

#define P(f) S(gs_comm_step, f)
static const gs_gsum_field comm_step_fields[] = {
    {"number", GS_F_I64, P(number), 0},
    {"warmup", GS_F_BOOL, P(warmup), 0},
    {"start_ns", GS_F_I64, P(start), 0},
    {"end_ns", GS_F_I64, P(end), 0},
    {"compute_ns", GS_F_I64, P(compute), 0},
    {"communication_ns", GS_F_I64, P(communication), 0},
    {"overlap_ns", GS_F_I64, P(overlap), 0},
    {"exposed_ns", GS_F_I64, P(exposed), 0},
    {"exposed_pct", GS_F_DBL, P(exposed_pct), 0},
};
#undef P

static const gs_gsum_field coll_fields[] = {
    {"kind", GS_F_ENUM, S(gs_collective, kind), GS_COLL__COUNT},
    {"seq", GS_F_U32, S(gs_collective, seq), 0},
    {"start_ns", GS_F_I64, S(gs_collective, start), 0},
    {"end_ns", GS_F_I64, S(gs_collective, end), 0},
    {"bytes", GS_F_I64, S(gs_collective, bytes), 0},
    {"group_size", GS_F_I32, S(gs_collective, group_size), 0},
};

static const gs_gsum_field kernel_fields[] = {
    {"name", GS_F_STR, S(gs_sum_kernel, name), 0},
    {"count", GS_F_U64, S(gs_sum_kernel, count), 0},
    {"total_ns", GS_F_I64, S(gs_sum_kernel, total), 0},
    {"min_ns", GS_F_I64, S(gs_sum_kernel, min), 0},
    {"max_ns", GS_F_I64, S(gs_sum_kernel, max), 0},
};

static const gs_gsum_field op_fields[] = {
    {"name", GS_F_STR, S(gs_sum_op, name), 0},
    {"calls", GS_F_U64, S(gs_sum_op, calls), 0},
    {"self_cpu_ns", GS_F_I64, S(gs_sum_op, self_cpu), 0},
    {"cpu_total_ns", GS_F_I64, S(gs_sum_op, cpu_total), 0},
    {"self_cuda_ns", GS_F_I64, S(gs_sum_op, self_cuda), 0},
    {"cuda_total_ns", GS_F_I64, S(gs_sum_op, cuda_total), 0},
};

#define G(f) S(gs_gpu_device_metrics, f)
static const gs_gsum_field gpu_fields[] = {
    {"device", GS_F_I32, G(device), 0},
    {"busy_ns", GS_F_I64, G(busy_ns), 0},
    {"utilization", GS_F_DBL, G(utilization), 0},
    {"sm_efficiency", GS_F_DBL, G(sm_efficiency), 0},
    {"has_sm_efficiency", GS_F_BOOL, G(has_sm_efficiency), 0},
    {"occupancy_pct", GS_F_DBL, G(occupancy_pct), 0},
    {"has_occupancy", GS_F_BOOL, G(has_occupancy), 0},
};
#undef G

/* ---- minor 1 ------------------------------------------------------------------------------- */

#define D(f) S(gs_device_facts, f)
static const gs_gsum_field device_fields[] = {
    {"id", GS_F_I32, D(id), 0},
    {"name", GS_F_STR, D(name), 0},
    {"total_memory", GS_F_U64, D(total_memory), 0},
    {"num_sms", GS_F_I32, D(num_sms), 0},
    {"capability", GS_F_CHARS, D(capability), (int)sizeof(((gs_device_facts *)0)->capability)},
};
#undef D

static const gs_gsum_field idle_fields[] = {
    {"gaps_worth_listing", GS_F_SIZE, S(R, gaps_worth_listing), 0},
};

#define G(f) S(gs_gap, f)
static const gs_gsum_field gap_fields[] = {
    {"device", GS_F_I32, G(device), 0},
    {"start_ns", GS_F_I64, G(start), 0},
    {"end_ns", GS_F_I64, G(end), 0},
    {"offset_ns", GS_F_I64, G(offset), 0},
    {"class", GS_F_U8, G(cls), GS_GAP__COUNT},
    {"before", GS_F_STR, G(before), 0},
    {"after", GS_F_STR, G(after), 0},
    {"after_stream", GS_F_I32, G(after_stream), 0},
    {"launch_start_ns", GS_F_I64, G(launch_start), 0},
    {"step", GS_F_LONG, G(step), 0},
    {"step_number", GS_F_I64, G(step_number), 0},
    {"step_pct", GS_F_DBL, G(step_pct), 0},
    {"host_op", GS_F_STR, G(host.op), 0},
    {"host_op_ns", GS_F_I64, G(host.op_ns), 0},
    {"host_api", GS_F_STR, G(host.api), 0},
    {"host_api_ns", GS_F_I64, G(host.api_ns), 0},
    {"host_sync_api", GS_F_STR, G(host.sync_api), 0},
    {"host_sync_ns", GS_F_I64, G(host.sync_ns), 0},
    {"host_dataloader_ns", GS_F_I64, G(host.dataloader_ns), 0},
};
#undef G

/* The row's label, bandwidth and average are derived from these when it is read. */
#define M(f) S(gs_memcpy_row, f)
static const gs_gsum_field copy_fields[] = {
    {"kind", GS_F_U8, M(kind), GS_MEMOP__COUNT},
    {"src", GS_F_U8, M(src), GS_LOC__COUNT},
    {"dst", GS_F_U8, M(dst), GS_LOC__COUNT},
    {"count", GS_F_U64, M(time.count), 0},
    {"total_ns", GS_F_I64, M(time.total), 0},
    {"min_ns", GS_F_I64, M(time.min), 0},
    {"max_ns", GS_F_I64, M(time.max), 0},
    {"bytes", GS_F_U64, M(bytes), 0},
};
#undef M

#define U(f) S(R, series.util.f)
static const gs_gsum_field util_fields[] = {
    {"kernels", GS_F_BOOL, U(kernels), 0},
    {"first_ns", GS_F_I64, U(first), 0},
    {"last_ns", GS_F_I64, U(last), 0},
};
#undef U

static const gs_gsum_field busy_fields[] = {
    {"busy_pct", GS_F_DBL, 0, 0},
};

static const gs_gsum_field nvml_fields[] = {
    {"bucket", GS_F_SIZE, S(gs_util_sample, bucket), 0},
    {"pct", GS_F_DBL, S(gs_util_sample, pct), 0},
};

#define B(f) S(gs_step_bar, f)
static const gs_gsum_field bar_fields[] = {
    {"first", GS_F_SIZE, B(first), 0},
    {"last", GS_F_SIZE, B(last), 0},
    {"first_number", GS_F_I64, B(first_number), 0},
    {"last_number", GS_F_I64, B(last_number), 0},
    {"kernel_ns", GS_F_DBL, B(mean[GS_BD_KERNEL]), 0},
    {"memcpy_ns", GS_F_DBL, B(mean[GS_BD_MEMCPY]), 0},
    {"memset_ns", GS_F_DBL, B(mean[GS_BD_MEMSET]), 0},
    {"communication_ns", GS_F_DBL, B(mean[GS_BD_COMM]), 0},
    {"runtime_ns", GS_F_DBL, B(mean[GS_BD_RUNTIME]), 0},
    {"dataloader_ns", GS_F_DBL, B(mean[GS_BD_DATALOADER]), 0},
    {"cpu_exec_ns", GS_F_DBL, B(mean[GS_BD_CPU_EXEC]), 0},
    {"other_ns", GS_F_DBL, B(mean[GS_BD_OTHER]), 0},
    {"mean_ns", GS_F_DBL, B(total), 0},
    {"min_ns", GS_F_DBL, B(min), 0},
    {"max_ns", GS_F_DBL, B(max), 0},
    {"warmup", GS_F_BOOL, B(warm), 0},
};
#undef B

#define C(f) S(gs_mem_chart, f)
static const gs_gsum_field mem_chart_fields[] = {
    {"device_type", GS_F_I8, C(device_type), 0},
    {"device", GS_F_I32, C(device), 0},
    {"cuda_allocator", GS_F_BOOL, C(cuda_allocator), 0}, /* minor 2: absent reads as false */
    {"origin_ns", GS_F_I64, C(origin), 0},
    {"end_ns", GS_F_I64, C(end), 0},
    {"peak_allocated", GS_F_I64, C(peak_allocated), 0},
    {"reserved_at_peak", GS_F_I64, C(reserved_at_peak), 0},
    {"peak_reserved", GS_F_I64, C(peak_reserved), 0},
    {"peak_ns", GS_F_I64, C(peak_ts), 0},
    {"peak_step", GS_F_I64, C(peak_step), 0},
    {"peak_op", GS_F_STR, C(peak_op), 0},
    {"fragmentation", GS_F_DBL, C(fragmentation), 0},
    {"fragmented", GS_F_BOOL, C(fragmented), 0},
    {"device_memory", GS_F_U64, C(device_memory), 0},
    {"headroom", GS_F_I64, C(headroom), 0},
    {"peak_pct", GS_F_DBL, C(peak_pct), 0},
    {"fit_steps", GS_F_SIZE, C(fit_steps), 0},
    {"slope", GS_F_DBL, C(slope), 0},
    {"r2", GS_F_DBL, C(r2), 0},
    {"leak", GS_F_BOOL, C(leak), 0},
    {"first_point", GS_F_SIZE, C(first), 0},
    {"points", GS_F_SIZE, C(npoints), 0},
};
#undef C

static const gs_gsum_field mem_point_fields[] = {
    {"ts_ns", GS_F_I64, S(gs_mem_point, ts), 0},
    {"allocated", GS_F_I64, S(gs_mem_point, allocated), 0},
    {"reserved", GS_F_I64, S(gs_mem_point, reserved), 0},
};

/* ---- minor 2 ------------------------------------------------------------------------------- */

static const gs_gsum_field tracing_fields[] = {
    {"cost_ns", GS_F_I64, S(R, tracing_cost_ns), 0},
};

/* ---- minor 3 ------------------------------------------------------------------------------- */

static const gs_gsum_field startup_fields[] = {
    {"found", GS_F_BOOL, S(R, startup.found), 0},
    {"start_ns", GS_F_I64, S(R, startup.start), 0},
    {"end_ns", GS_F_I64, S(R, startup.end), 0},
    {"before_steps_ns", GS_F_I64, S(R, startup.before_steps), 0},
    {"warmup_steps", GS_F_SIZE, S(R, startup.warmup_steps), 0},
    {"context_ns", GS_F_I64, S(R, startup.calls[GS_STARTUP_CONTEXT]), 0},
    {"modules_ns", GS_F_I64, S(R, startup.calls[GS_STARTUP_MODULES]), 0},
    {"memory_ns", GS_F_I64, S(R, startup.calls[GS_STARTUP_MEMORY]), 0},
    {"copies_ns", GS_F_I64, S(R, startup.calls[GS_STARTUP_COPIES]), 0},
    {"launches_ns", GS_F_I64, S(R, startup.calls[GS_STARTUP_LAUNCHES]), 0},
    {"sync_ns", GS_F_I64, S(R, startup.calls[GS_STARTUP_SYNC]), 0},
    {"other_calls_ns", GS_F_I64, S(R, startup.calls[GS_STARTUP_OTHER]), 0},
    {"gpu_busy_ns", GS_F_I64, S(R, startup.gpu_busy), 0},
};
#define GR(f) S(R, inputs.graphs.f)
static const gs_gsum_field graph_fields[] = {
    {"captures", GS_F_U64, GR(captures), 0},
    {"instantiations", GS_F_U64, GR(instantiations), 0},
    {"launches", GS_F_U64, GR(launches), 0},
    {"captured_launches", GS_F_U64, GR(captured_launches), 0},
    {"graph_kernels", GS_F_U64, GR(graph_kernels), 0},
    {"kernels", GS_F_U64, GR(kernels), 0},
    {"first_instantiation_ns", GS_F_I64, GR(first_instantiation), 0},
};
#undef GR
#define X(f) S(R, inputs.facts.f)
static const gs_gsum_field context_fields[] = {
    {"collector", GS_F_U8, X(collector), GS_COLLECTOR__COUNT},
    {"profiler_steps", GS_F_U64, X(profiler_steps), 0},
    {"ops", GS_F_U64, X(ops), 0},
    {"ops_with_shapes", GS_F_U64, X(ops_with_shapes), 0},
    {"python_functions", GS_F_U64, X(python_functions), 0},
    {"emit_nvtx_ranges", GS_F_U64, X(emit_nvtx_ranges), 0},
    {"nvtx_ranges", GS_F_U64, X(nvtx_ranges), 0},
    {"memory_events", GS_F_U64, X(memory_events), 0},
    {"gpu_activities", GS_F_U64, X(gpu_activities), 0},
    {"workload", GS_F_U8, X(workload), GS_WORKLOAD__COUNT},
    {"backward_events", GS_F_U64, X(backward_events), 0},
    {"optimizer_events", GS_F_U64, X(optimizer_events), 0},
    /* minor 5: the kinds as a set; minor 3's single "parallelism" is skipped (read as a set
     * with none, which the advice reads as an unrecognized pattern when there were collectives) */
    {"parallel_kinds", GS_F_U8, X(parallel_kinds), 1 << GS_PAR__COUNT},
    {"all_reduces", GS_F_U64, X(all_reduces), 0},
    {"all_gathers", GS_F_U64, X(all_gathers), 0},
    {"reduce_scatters", GS_F_U64, X(reduce_scatters), 0},
    {"send_recvs", GS_F_U64, X(send_recvs), 0},
    {"all_to_alls", GS_F_U64, X(all_to_alls), 0},
    {"collectives", GS_F_U64, X(collectives), 0},
    {"process_groups", GS_F_U32, X(process_groups), 0},
    {"forward_all_reduces", GS_F_U64, X(forward_all_reduces), 0}, /* minor 5, as the rest */
    {"ddp_ranges", GS_F_U64, X(ddp_ranges), 0},
    {"fsdp_ranges", GS_F_U64, X(fsdp_ranges), 0},
    {"embedding_kernels", GS_F_U64, X(embedding_kernels), 0},
    {"low_precision_share", GS_F_DBL, X(low_precision_share), 0},
    {"conv_share", GS_F_DBL, X(conv_share), 0},
    {"profiler_cost_ns", GS_F_I64, X(profiler_cost_ns), 0},
    {"profiler_step_ns", GS_F_I64, X(profiler_step_ns), 0},
    {"decode_events", GS_F_U64, X(decode_events), 0}, /* absent in earlier files: reads as 0 */
    {"fp8_share", GS_F_DBL, X(fp8_share), 0},           /* absent: 0, not fp8 already */
    {"compiled_share", GS_F_DBL, X(compiled_share), 0}, /* absent: 0, not compiled */
    {"compiled_regions", GS_F_U64, X(compiled_regions), 0},
    {"accelerator_events", GS_F_U64, X(accelerator_events), 0}, /* absent: 0, none */
};
#undef X

#define K(f) S(R, compute.f)
static const gs_gsum_field compute_fields[] = {
    {"steps", GS_F_SIZE, K(steps), 0},
    {"step_ns", GS_F_I64, K(step_ns), 0},
    {"flops_per_step", GS_F_DBL, K(flops_per_step), 0},
    {"gemm_flops", GS_F_DBL, K(kind_flops[GS_FLOP_GEMM]), 0},
    {"conv_flops", GS_F_DBL, K(kind_flops[GS_FLOP_CONV]), 0},
    {"attention_flops", GS_F_DBL, K(kind_flops[GS_FLOP_ATTENTION]), 0},
    {"dtype", GS_F_U8, K(dtype), GS_DTYPE__COUNT},
    {"tflops", GS_F_DBL, K(tflops), 0},
    {"peak_tflops", GS_F_DBL, K(peak_tflops), 0},
    {"mfu", GS_F_DBL, K(mfu), 0},
    {"gpu", GS_F_CHARS, K(gpu), (int)sizeof(((gs_compute *)0)->gpu)},
    {"peak_model", GS_F_CHARS, K(peak_model), (int)sizeof(((gs_compute *)0)->peak_model)},
    {"counted_ops", GS_F_U64, K(counted_ops), 0},
    {"trace_flops_ops", GS_F_U64, K(trace_flops_ops), 0},
    {"trace_flops_mismatch", GS_F_U64, K(trace_flops_mismatch), 0},
    {"kernel_ns", GS_F_I64, K(kernel_ns), 0},
    {"flop_op_share", GS_F_DBL, K(flop_op_share), 0},
    {"tc_share", GS_F_DBL, K(tc_share), 0},
    {"tc_eligible_share", GS_F_DBL, K(eligible_share), 0},
    {"tc_eligible_unused_share", GS_F_DBL, K(eligible_unused_share), 0},
};
#undef K

/* ---- minor 6 ------------------------------------------------------------------------------- */

/* The replay's mean step unchanged and with each action alone (-1: unknown, not replayed). */
#define RP(f) S(R, inputs.f)
static const gs_gsum_field replay_fields[] = {
    {"step_ns", GS_F_I64, RP(replay_step_ns), 0},
    {"cuda_graphs_ns", GS_F_I64, RP(replay_expected_ns[GS_REPLAY_CUDA_GRAPHS]), 0},
    {"compile_ns", GS_F_I64, RP(replay_expected_ns[GS_REPLAY_COMPILE]), 0},
    {"dataloader_workers_ns", GS_F_I64, RP(replay_expected_ns[GS_REPLAY_DATALOADER_WORKERS]), 0},
    {"pinned_memory_ns", GS_F_I64, RP(replay_expected_ns[GS_REPLAY_PINNED_MEMORY]), 0},
    {"remove_syncs_ns", GS_F_I64, RP(replay_expected_ns[GS_REPLAY_REMOVE_SYNCS]), 0},
    {"mixed_precision_ns", GS_F_I64, RP(replay_expected_ns[GS_REPLAY_MIXED_PRECISION]), 0},
    {"fused_optimizer_ns", GS_F_I64, RP(replay_expected_ns[GS_REPLAY_FUSED_OPTIMIZER]), 0},
    {"overlap_comm_ns", GS_F_I64, RP(replay_expected_ns[GS_REPLAY_OVERLAP_COMM]), 0},
    {"roof_target_ns", GS_F_I64, RP(replay_expected_ns[GS_REPLAY_ROOF_TARGET]), 0},
    {"no_profiler_ns", GS_F_I64, RP(replay_expected_ns[GS_REPLAY_NO_PROFILER]), 0},
};
#undef RP

/* ---- minor 7 ------------------------------------------------------------------------------- */

#define RF(f) S(R, roof.f)
static const gs_gsum_field roofline_fields[] = {
    {"groups", GS_F_SIZE, RF(groups), 0},
    {"gpu_ns", GS_F_I64, RF(gpu_ns), 0},
    {"modelled_ns", GS_F_I64, RF(modelled_ns), 0},
    {"unmodelled_ns", GS_F_I64, RF(unmodelled_ns), 0},
    {"peak_tbps", GS_F_DBL, RF(peak_tbps), 0},
    {"fp32_tflops", GS_F_DBL, RF(fp32_tflops), 0},
    {"tensor_core_tflops", GS_F_DBL, RF(tc_tflops), 0},
    {"tensor_core_dtype", GS_F_ENUM, RF(tc_dtype), GS_DTYPE__COUNT},
};
#undef RF

#define RR(f) S(gs_sum_roof, f)
static const gs_gsum_field roof_row_fields[] = {
    {"name", GS_F_STR, RR(name), 0},
    {"class", GS_F_ENUM, RR(cls), GS_OPC__COUNT},
    {"dtype", GS_F_ENUM, RR(dtype), GS_DTYPE__COUNT},
    {"bound", GS_F_ENUM, RR(bound), GS_BOUND__COUNT},
    {"calls", GS_F_U64, RR(calls), 0},
    {"gpu_ns", GS_F_I64, RR(gpu_ns), 0},
    {"modelled_ns", GS_F_I64, RR(modelled_ns), 0},
    {"flops", GS_F_DBL, RR(flops), 0},
    {"bytes", GS_F_DBL, RR(bytes), 0},
    {"intensity", GS_F_DBL, RR(intensity), 0},
    {"tflops", GS_F_DBL, RR(tflops), 0},
    {"tbps", GS_F_DBL, RR(tbps), 0},
    {"peak_tflops", GS_F_DBL, RR(peak_tflops), 0},
    {"roof_tflops", GS_F_DBL, RR(roof_tflops), 0},
    {"roof_share", GS_F_DBL, RR(roof_share), 0},
};
#undef RR

#define OBJ(k, f) {k, f, COUNT_OF(f), 0, 0, 0, 0}
#define ARR(k, f, arr, cnt, T) {k, f, COUNT_OF(f), S(R, arr), S(R, cnt), sizeof(T), 0}
/* A section of minor 1, and the flag saying a summary has it. */
#define OBJ1(k, f, flag) {k, f, COUNT_OF(f), 0, 0, 0, S(R, flag)}
#define ARR1(k, f, arr, cnt, T, flag) {k, f, COUNT_OF(f), S(R, arr), S(R, cnt), sizeof(T), S(R, flag)}
static const gs_gsum_section sections[] = {
    OBJ("rank", rank_fields),
    OBJ("events", event_fields),
    OBJ("step_stats", steps_fields),
    ARR("steps", step_fields, steps.v, steps.n, gs_step),
    OBJ("verdict_inputs", input_fields),
    OBJ("temporal", temporal_fields),
    OBJ("communication", comm_fields),
    ARR("communication_kinds", kind_fields, kinds, nkinds, gs_comm_kind),
    ARR("communication_steps", comm_step_fields, comm_steps, ncomm_steps, gs_comm_step),
    ARR("collectives", coll_fields, coll.v, coll.n, gs_collective),
    ARR("gpu_metrics", gpu_fields, gpu.v, gpu.n, gs_gpu_device_metrics),
    ARR("kernels", kernel_fields, kernels, nkernels, gs_sum_kernel),
    ARR("ops", op_fields, ops, nops, gs_sum_op),
    ARR1("devices", device_fields, devices, ndevices, gs_device_facts, has_devices),
    OBJ1("idle", idle_fields, has_gaps),
    ARR1("idle_gaps", gap_fields, gaps, ngaps, gs_gap, has_gaps),
    ARR1("copies", copy_fields, copies, ncopies, gs_memcpy_row, has_copies),
    OBJ1("gpu_utilization", util_fields, series.has_util),
    ARR1("gpu_utilization_buckets", busy_fields, series.util.busy_pct, series.util.nbusy, double,
         series.has_util),
    ARR1("gpu_utilization_nvml", nvml_fields, series.util.nvml, series.util.nnvml,
         gs_util_sample, series.has_util),
    ARR1("step_bars", bar_fields, series.bars, series.nbars, gs_step_bar, series.has_steps),
    ARR1("memory_charts", mem_chart_fields, series.memory, series.nmemory, gs_mem_chart,
         series.has_memory),
    ARR1("memory_points", mem_point_fields, series.mem_points, series.nmem_points, gs_mem_point,
         series.has_memory),
    OBJ1("tracing", tracing_fields, has_tracing_cost),
    OBJ1("startup", startup_fields, has_startup),
    OBJ1("cuda_graphs", graph_fields, has_graphs),
    OBJ1("context", context_fields, inputs.facts.known),
    OBJ1("compute", compute_fields, has_compute),
    OBJ1("replay", replay_fields, has_replay),
    OBJ1("roofline", roofline_fields, has_roofline),
    ARR1("roofline_rows", roof_row_fields, roof.rows, roof.nrows, gs_sum_roof, has_roofline),
};

const gs_gsum_section *gs_gsum_sections(size_t *n)
{
    *n = COUNT_OF(sections);
    return sections;
}
