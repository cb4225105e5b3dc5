/* gs_demangle: the names torch.profiler (libkineto's demangle: abi::__cxa_demangle, names over
 * 1024 bytes left alone) shows for kernels, from their CUPTI symbols. The expected texts are the
 * ones a PyTorch 2.11 trace of the same kernels carries. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/demangle.h"

static void check_demangles(const char *mangled, const char *want)
{
    char *got = NULL;
    gs_error err;
    CHECK_INT(gs_demangle(mangled, strlen(mangled), &got, &err), 0);
    CHECK_STR(got, want);
    free(got);
}

static void check_kept(const char *name, size_t len)
{
    char *got = (char *)"unset";
    gs_error err;
    CHECK_INT(gs_demangle(name, len, &got, &err), 0);
    CHECK(got == NULL);
}

int main(void)
{
    check_demangles("_ZN7cutlass7Kernel2I57cutlass_75_tensorop_bf16_s1688gemm_bf16_128x128_tn_"
                    "align1EEvNT_6ParamsE",
                    "void cutlass::Kernel2<cutlass_75_tensorop_bf16_s1688gemm_bf16_128x128_tn_"
                    "align1>(cutlass_75_tensorop_bf16_s1688gemm_bf16_128x128_tn_align1::Params)");
    check_demangles("_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEESt5"
                    "arrayIPcLm1EEEEviT0_T1_",
                    "void at::native::vectorized_elementwise_kernel<4, "
                    "at::native::FillFunctor<float>, std::array<char*, 1ul> >(int, "
                    "at::native::FillFunctor<float>, std::array<char*, 1ul>)");
    check_demangles("_Z6kernelPf", "kernel(float*)"); /* not a template: no return type */

    /* Names that are not C++ symbols stay as they are (NULL: keep the name). */
    check_kept("nvjet_sm90_tst_128x128_64x6_4x2_h_bz_NTT", 40);
    check_kept("triton_poi_fused_add_0", 22);
    check_kept("_Z", 2);
    check_kept("_Zfoo", 5);   /* starts like one, does not demangle */
    check_kept("f", 1);       /* __cxa_demangle would say "float": only _Z names are asked */

    /* Only len bytes count: the model's strings need not end there. */
    const char *two = "_Z6kernelPf_and_more";
    char *got = NULL;
    gs_error err;
    CHECK_INT(gs_demangle(two, 11, &got, &err), 0);
    CHECK_STR(got, "kernel(float*)");
    free(got);

    /* Longer than libkineto's 1024: torch.profiler shows it mangled, and so do we. */
    size_t n = GS_DEMANGLE_MAX_LEN + 1;
    char *longname = malloc(n + 1);
    memcpy(longname, "_ZN1a", 5);
    memset(longname + 5, 'x', n - 5);
    longname[n] = '\0';
    check_kept(longname, n);
    free(longname);
    return check_done("test_demangle");
}
