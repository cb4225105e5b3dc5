/* ncu's measured bytes and FLOPs of one kernel (ncu_measured.h). */
#include "analysis/trace/ncu_measured.h"

#include <math.h>

#include "common/util.h"

/* Dense Tensor Core FLOPs per clock per SM, by compute capability and element type, from
 * NVIDIA's architecture whitepapers (Volta V100, Turing, A100, Ampere GA102, Ada, H100): e.g. an
 * H100 SM does 2048 dense FP16 FMA per clock (A100's 1024, doubled), 4096 FLOPs. 0: unknown. */
static const struct tensor_rate {
    int cc; /* major x 10 + minor */
    double flop[GS_DTYPE__COUNT];
} tensor_rates[] = {
    {70, {[GS_DTYPE_FP16] = 1024}},
    {75, {[GS_DTYPE_FP16] = 1024, [GS_DTYPE_INT8] = 2048}},
    {80, {[GS_DTYPE_FP64] = 128, [GS_DTYPE_TF32] = 1024, [GS_DTYPE_FP16] = 2048,
          [GS_DTYPE_BF16] = 2048, [GS_DTYPE_INT8] = 4096}},
    {86, {[GS_DTYPE_TF32] = 512, [GS_DTYPE_FP16] = 1024, [GS_DTYPE_BF16] = 1024,
          [GS_DTYPE_INT8] = 2048}},
    {89, {[GS_DTYPE_TF32] = 512, [GS_DTYPE_FP16] = 1024, [GS_DTYPE_BF16] = 1024,
          [GS_DTYPE_FP8] = 2048, [GS_DTYPE_INT8] = 2048}},
    {90, {[GS_DTYPE_FP64] = 256, [GS_DTYPE_TF32] = 2048, [GS_DTYPE_FP16] = 4096,
          [GS_DTYPE_BF16] = 4096, [GS_DTYPE_FP8] = 8192, [GS_DTYPE_INT8] = 8192}},
};

static double tensor_flop_per_cycle(double cc, enum gs_dtype d)
{
    int key = (int)lround(cc * 10);
    for (size_t i = 0; i < COUNT_OF(tensor_rates); i++)
        if (tensor_rates[i].cc == key && (unsigned)d < GS_DTYPE__COUNT)
            return tensor_rates[i].flop[d];
    return 0;
}

/* A count from its rate: x per second times the duration. NaN stays NaN. */
static double over_duration(const double *m, double per_s)
{
    return per_s * m[GS_NCU_DURATION_NS] * 1e-9;
}

static void dram_bytes(const double *m, gs_ncu_measured *out)
{
    double counted = m[GS_NCU_DRAM_BYTES_READ] + m[GS_NCU_DRAM_BYTES_WRITE];
    double rate = over_duration(m, m[GS_NCU_DRAM_BYTES_PER_S]);
    double throughput = over_duration(m, m[GS_NCU_MEMORY_BYTES_PER_S]);
    out->bytes_from = !isnan(counted)      ? GS_NCU_BYTES_COUNTED
                      : !isnan(rate)       ? GS_NCU_BYTES_RATE
                      : !isnan(throughput) ? GS_NCU_BYTES_THROUGHPUT
                                           : GS_NCU_BYTES_UNKNOWN;
    out->dram_bytes = !isnan(counted) ? counted : !isnan(rate) ? rate : throughput;
}

/* An optional instruction rate (ncu exports the FP64 and FP16 ones only with their sections):
 * absent counts as none. */
static double or_zero(double v)
{
    return isnan(v) ? 0 : v;
}

/* ncu's roofline sections: (add + mul + 2 fma) thread instructions per elapsed SMSP cycle,
 * summed over the SMSPs, times the SMSP clock; FP32 must be there, FP64 and FP16 may not. */
static double sass_flops(const double *m)
{
    double per_cycle = m[GS_NCU_FADD_PER_CYCLE] + m[GS_NCU_FMUL_PER_CYCLE] +
                       2 * m[GS_NCU_FFMA_PER_CYCLE] +
                       or_zero(m[GS_NCU_DADD_PER_CYCLE]) + or_zero(m[GS_NCU_DMUL_PER_CYCLE]) +
                       2 * or_zero(m[GS_NCU_DFMA_PER_CYCLE]) +
                       or_zero(m[GS_NCU_HADD_PER_CYCLE]) + or_zero(m[GS_NCU_HMUL_PER_CYCLE]) +
                       2 * or_zero(m[GS_NCU_HFMA_PER_CYCLE]);
    return over_duration(m, per_cycle * m[GS_NCU_SMSP_CYCLES_PER_S]);
}

/* The Tensor Cores' work at the rate their pipe ran: its active share of the elapsed SM cycles,
 * over every SM, times what an SM's Tensor Cores do per cycle in that type. The matrix
 * multiplies' own activity when the export has it, else the pipe's total: on the H100 exports
 * the total equals the shared pipe's and reads 2 % on an fp32 layer norm whose matrix-multiply
 * activity is 0.05 %. FP64 matrix multiplies count at the FP64 rate. */
static double tensor_flops(const gs_ncu_kernel *k, enum gs_dtype dtype)
{
    const double *m = k->metric;
    double dmma = or_zero(m[GS_NCU_TENSOR_DMMA_PCT]);
    double mma = !isnan(m[GS_NCU_TENSOR_MMA_PCT]) ? m[GS_NCU_TENSOR_MMA_PCT]
                                                   : m[GS_NCU_TENSOR_PCT] - dmma;
    if (isnan(mma))
        return NAN; /* not exported */
    if (dtype == GS_DTYPE_FP32)
        dtype = GS_DTYPE_TF32;
    double mma_rate = tensor_flop_per_cycle(k->cc, dtype);
    double dmma_rate = tensor_flop_per_cycle(k->cc, GS_DTYPE_FP64);
    if ((mma > 0 && mma_rate <= 0) || (dmma > 0 && dmma_rate <= 0))
        return NAN; /* the pipe ran, at a rate not known */
    double pct_flop = (mma > 0 ? mma * mma_rate : 0) + (dmma > 0 ? dmma * dmma_rate : 0);
    if (pct_flop <= 0)
        return 0; /* an idle pipe did nothing, whatever the type */
    return pct_flop / 100 * m[GS_NCU_SM_COUNT] * over_duration(m, m[GS_NCU_SM_CYCLES_PER_S]);
}

void gs_ncu_measure(const gs_ncu_kernel *k, enum gs_dtype dtype, gs_ncu_measured *out)
{
    dram_bytes(k->metric, out);
    out->sass_flops = sass_flops(k->metric);
    out->tensor_flops = tensor_flops(k, dtype);
    out->flops = out->sass_flops + out->tensor_flops;
}

const char *gs_ncu_bytes_from_name(enum gs_ncu_bytes_from b)
{
    static const char *const names[] = {
        [GS_NCU_BYTES_UNKNOWN] = NULL,
        [GS_NCU_BYTES_COUNTED] = "dram counters",
        [GS_NCU_BYTES_RATE] = "dram rate",
        [GS_NCU_BYTES_THROUGHPUT] = "memory throughput",
    };
    return (unsigned)b < COUNT_OF(names) ? names[b] : NULL;
}
