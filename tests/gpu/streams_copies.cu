/* streams_copies: a CUDA program whose trace is known in advance, for tests/gpu/check_trace.py.
 *
 *   streams_copies EXPECTED.json            run on the GPU, write what the trace must hold
 *   streams_copies --dry-run EXPECTED.json  make no CUDA call at all (phase times are 0): checks
 *                                           the bookkeeping and the JSON on a machine with no GPU
 *
 * What it does, in NVTX ranges named after each phase ("phase:NAME"), each phase timed with CUDA
 * events recorded on stream s0:
 *   warmup        gs_warmup x1 (context creation and module load stay out of the timed phases)
 *   copies        pageable and pinned HtoD and DtoH copies (cudaMemcpy and cudaMemcpyAsync), one
 *                 DtoD copy, cudaMemset and cudaMemsetAsync, all of known sizes; no kernels
 *   single_stream gs_fill x1, then 20 iterations (NVTX "iter") of gs_axpy, with gs_scale every
 *                 other iteration, all on s0: serial, so their summed time fits in the phase
 *   multi_stream  gs_spin_a / gs_spin_b / gs_spin_c x4 each on s1 / s2 / s3 at once, each a
 *                 200 us busy wait on %globaltimer (a lower bound for every instance)
 *   graph_capture a CUDA graph captured from stream sc (gs_graph_spin, gs_graph_scale x2,
 *                 gs_graph_add): launch calls that run no kernel
 *   graph         the graph launched 5 times on s0
 * plus NVTX push/pop with attributes, start/end ranges, and ranges in a domain of its own with a
 * registered string, and the three synchronize calls (stream, device, event).
 *
 * Every CUDA call that the check counts goes through a wrapper below that counts it, so the
 * expected numbers are what the program did, not a second copy of them.
 *
 * Kernels are extern "C" so that their names in the trace are plain, demangled or not. */
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_dry; /* --dry-run: count, write, call nothing */

#define CK(call)                                                                                   \
    do {                                                                                           \
        if (!g_dry) {                                                                              \
            cudaError_t e_ = (call);                                                               \
            if (e_ != cudaSuccess) {                                                               \
                fprintf(stderr, "streams_copies: %s:%d: %s: %s\n", __FILE__, __LINE__, #call,      \
                        cudaGetErrorString(e_));                                                   \
                exit(1);                                                                           \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* ---- bookkeeping ------------------------------------------------------------------------- */

struct count {
    const char *name;
    long long n;
};
#define MAXC 64
struct table {
    struct count c[MAXC];
    int len;
};
static struct table g_kernels, g_graph_kernels, g_api, g_nvtx, g_kmin;

static void bump(struct table *t, const char *name, long long by)
{
    for (int i = 0; i < t->len; i++)
        if (strcmp(t->c[i].name, name) == 0) {
            t->c[i].n += by;
            return;
        }
    if (t->len == MAXC) {
        fprintf(stderr, "streams_copies: table full\n");
        exit(1);
    }
    t->c[t->len].name = name;
    t->c[t->len].n = by;
    t->len++;
}

static long long get(const struct table *t, const char *name)
{
    for (int i = 0; i < t->len; i++)
        if (strcmp(t->c[i].name, name) == 0) return t->c[i].n;
    return 0;
}

struct copyrec {
    const char *kind, *src, *dst;
    long long count, bytes;
};
static struct copyrec g_copies[16];
static int g_ncopies;
static long long g_memset_count, g_memset_bytes;

static void note_copy(const char *kind, const char *src, const char *dst, size_t bytes)
{
    for (int i = 0; i < g_ncopies; i++)
        if (!strcmp(g_copies[i].kind, kind) && !strcmp(g_copies[i].src, src) &&
            !strcmp(g_copies[i].dst, dst)) {
            g_copies[i].count++;
            g_copies[i].bytes += (long long)bytes;
            return;
        }
    g_copies[g_ncopies].kind = kind;
    g_copies[g_ncopies].src = src;
    g_copies[g_ncopies].dst = dst;
    g_copies[g_ncopies].count = 1;
    g_copies[g_ncopies].bytes = (long long)bytes;
    g_ncopies++;
}

#define MAXPH 16
struct phase {
    const char *name;
    long long ns;
    int serial;
    const char *kernels[8];
    int nkernels;
    int has_copies;
};
static struct phase g_phases[MAXPH];
static int g_nphases;
static int g_capturing;      /* launches go into the graph being captured */
static struct phase *g_cur;  /* the phase being timed */
static int g_graph_launches;

/* ---- kernels ----------------------------------------------------------------------------- */

__device__ __forceinline__ unsigned long long gtime(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ __forceinline__ void spin(unsigned long long ns, int *sink)
{
    unsigned long long t0 = gtime();
    while (gtime() - t0 < ns) {
    }
    if (threadIdx.x == 0) atomicAdd(sink, 1);
}

extern "C" __global__ void gs_warmup(int *sink)
{
    if (threadIdx.x == 0) atomicAdd(sink, 1);
}
extern "C" __global__ void gs_fill(float *x, float v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = v;
}
extern "C" __global__ void gs_axpy(float *y, const float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}
extern "C" __global__ void gs_scale(float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] *= a;
}
extern "C" __global__ void gs_spin_a(unsigned long long ns, int *sink) { spin(ns, sink); }
extern "C" __global__ void gs_spin_b(unsigned long long ns, int *sink) { spin(ns, sink); }
extern "C" __global__ void gs_spin_c(unsigned long long ns, int *sink) { spin(ns, sink); }
extern "C" __global__ void gs_graph_spin(unsigned long long ns, int *sink) { spin(ns, sink); }
extern "C" __global__ void gs_graph_scale(float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] *= a;
}
extern "C" __global__ void gs_graph_add(float *y, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += x[i];
}

/* Launches K<<<G, B, 0, S>>>(...) and counts it: one cudaLaunchKernel call, and one instance of
 * K in the trace unless a graph is being captured (then it counts per graph launch). */
#define LAUNCH(K, G, B, S, ...)                                                                    \
    do {                                                                                           \
        bump(&g_api, "cudaLaunchKernel", 1);                                                       \
        if (g_capturing)                                                                           \
            bump(&g_graph_kernels, #K, 1);                                                         \
        else                                                                                       \
            bump(&g_kernels, #K, 1);                                                               \
        if (g_cur && !g_capturing) phase_kernel(#K);                                               \
        if (!g_dry) {                                                                              \
            K<<<(G), (B), 0, (S)>>>(__VA_ARGS__);                                                  \
            CK(cudaGetLastError());                                                                \
        }                                                                                          \
    } while (0)

static void phase_kernel(const char *k)
{
    for (int i = 0; i < g_cur->nkernels; i++)
        if (!strcmp(g_cur->kernels[i], k)) return;
    g_cur->kernels[g_cur->nkernels++] = k;
}

/* ---- counted CUDA calls ------------------------------------------------------------------ */

static void copy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, const char *k,
                 const char *s, const char *d)
{
    bump(&g_api, "cudaMemcpy", 1);
    note_copy(k, s, d, bytes);
    CK(cudaMemcpy(dst, src, bytes, kind));
}

static void copy_async(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                       cudaStream_t st, const char *k, const char *s, const char *d)
{
    bump(&g_api, "cudaMemcpyAsync", 1);
    note_copy(k, s, d, bytes);
    CK(cudaMemcpyAsync(dst, src, bytes, kind, st));
}

static void set(void *p, size_t bytes)
{
    bump(&g_api, "cudaMemset", 1);
    g_memset_count++;
    g_memset_bytes += (long long)bytes;
    CK(cudaMemset(p, 0, bytes));
}

static void set_async(void *p, size_t bytes, cudaStream_t st)
{
    bump(&g_api, "cudaMemsetAsync", 1);
    g_memset_count++;
    g_memset_bytes += (long long)bytes;
    CK(cudaMemsetAsync(p, 0, bytes, st));
}

static void stream_sync(cudaStream_t s)
{
    bump(&g_api, "cudaStreamSynchronize", 1);
    CK(cudaStreamSynchronize(s));
}

static void device_sync(void)
{
    bump(&g_api, "cudaDeviceSynchronize", 1);
    CK(cudaDeviceSynchronize());
}

static void event_sync(cudaEvent_t e)
{
    bump(&g_api, "cudaEventSynchronize", 1);
    CK(cudaEventSynchronize(e));
}

static void wait_event(cudaStream_t s, cudaEvent_t e)
{
    bump(&g_api, "cudaStreamWaitEvent", 1);
    CK(cudaStreamWaitEvent(s, e, 0));
}

static void graph_launch(cudaGraphExec_t g, cudaStream_t s)
{
    bump(&g_api, "cudaGraphLaunch", 1);
    g_graph_launches++;
    CK(cudaGraphLaunch(g, s));
}

/* ---- NVTX, counted ----------------------------------------------------------------------- */

static void push(const char *name)
{
    bump(&g_nvtx, name, 1);
    nvtxRangePushA(name);
}

static void pop(void) { nvtxRangePop(); }

static void push_colored(const char *name, uint32_t argb)
{
    nvtxEventAttributes_t a;
    memset(&a, 0, sizeof a);
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.colorType = NVTX_COLOR_ARGB;
    a.color = argb;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = name;
    bump(&g_nvtx, name, 1);
    nvtxRangePushEx(&a);
}

/* ---- phases ------------------------------------------------------------------------------ */

static cudaEvent_t g_ev0, g_ev1;
static cudaStream_t g_s0;
static char g_phase_range[MAXPH][64];

static void phase_begin(const char *name, int serial)
{
    struct phase *p = &g_phases[g_nphases];
    memset(p, 0, sizeof *p);
    p->name = name;
    p->serial = serial;
    snprintf(g_phase_range[g_nphases], sizeof g_phase_range[0], "phase:%s", name);
    push(g_phase_range[g_nphases]);
    g_nphases++;
    g_cur = p;
    CK(cudaEventRecord(g_ev0, g_s0));
}

static void phase_end(void)
{
    CK(cudaEventRecord(g_ev1, g_s0));
    event_sync(g_ev1);
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, g_ev0, g_ev1));
    g_cur->ns = (long long)((double)ms * 1e6 + 0.5);
    pop();
    g_cur = NULL;
}

/* ---- JSON -------------------------------------------------------------------------------- */

static void put_table(FILE *f, const char *key, const struct table *t, const char *end)
{
    fprintf(f, "  \"%s\": {", key);
    for (int i = 0; i < t->len; i++)
        fprintf(f, "%s\"%s\": %lld", i ? ", " : "", t->c[i].name, t->c[i].n);
    fprintf(f, "}%s\n", end);
}

static void write_expected(const char *path, const char *device, const char *cc)
{
    /* every kernel's instances: direct launches plus graph launches x kernels per graph */
    struct table all = g_kernels;
    for (int i = 0; i < g_graph_kernels.len; i++)
        bump(&all, g_graph_kernels.c[i].name, g_graph_kernels.c[i].n * g_graph_launches);
    /* the phase that ran the graph holds its kernels */
    for (int p = 0; p < g_nphases; p++)
        if (!strcmp(g_phases[p].name, "graph"))
            for (int i = 0; i < g_graph_kernels.len; i++)
                g_phases[p].kernels[g_phases[p].nkernels++] = g_graph_kernels.c[i].name;

    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fprintf(f, "{\n  \"program\": \"streams_copies\",\n  \"dry_run\": %s,\n",
            g_dry ? "true" : "false");
    fprintf(f, "  \"device\": {\"name\": \"%s\", \"cc\": \"%s\"},\n", device, cc);
    put_table(f, "kernels", &all, ",");
    put_table(f, "kernel_min_ns", &g_kmin, ",");
    fprintf(f, "  \"phases\": [\n");
    for (int p = 0; p < g_nphases; p++) {
        const struct phase *ph = &g_phases[p];
        fprintf(f, "    {\"name\": \"%s\", \"nvtx\": \"%s\", \"ns\": %lld, \"serial\": %s, "
                   "\"copies\": %s, \"kernels\": [",
                ph->name, g_phase_range[p], ph->ns, ph->serial ? "true" : "false",
                ph->has_copies ? "true" : "false");
        for (int i = 0; i < ph->nkernels; i++)
            fprintf(f, "%s\"%s\"", i ? ", " : "", ph->kernels[i]);
        fprintf(f, "]}%s\n", p + 1 < g_nphases ? "," : "");
    }
    fprintf(f, "  ],\n  \"copies\": [\n");
    for (int i = 0; i < g_ncopies; i++)
        fprintf(f,
                "    {\"kind\": \"%s\", \"src\": \"%s\", \"dst\": \"%s\", \"count\": %lld, "
                "\"bytes\": %lld}%s\n",
                g_copies[i].kind, g_copies[i].src, g_copies[i].dst, g_copies[i].count,
                g_copies[i].bytes, i + 1 < g_ncopies ? "," : "");
    fprintf(f, "  ],\n  \"memset\": {\"count\": %lld, \"bytes\": %lld},\n", g_memset_count,
            g_memset_bytes);
    fprintf(f, "  \"graph\": {\"launches\": %d, ", g_graph_launches);
    put_table(f, "kernels_per_launch", &g_graph_kernels, "},");
    /* the sync view's rows, by API */
    fprintf(f,
            "  \"sync_calls\": {\"cudaStreamSynchronize\": %lld, \"cudaDeviceSynchronize\": %lld, "
            "\"cudaEventSynchronize\": %lld},\n",
            get(&g_api, "cudaStreamSynchronize"), get(&g_api, "cudaDeviceSynchronize"),
            get(&g_api, "cudaEventSynchronize"));
    put_table(f, "api_calls", &g_api, ",");
    put_table(f, "nvtx_ranges", &g_nvtx, "");
    fprintf(f, "}\n");
    if (fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

/* ---- main -------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    const char *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--dry-run"))
            g_dry = 1;
        else if (!out && argv[i][0] != '-')
            out = argv[i];
        else {
            fprintf(stderr, "usage: streams_copies [--dry-run] EXPECTED.json\n");
            return 2;
        }
    }
    if (!out) {
        fprintf(stderr, "usage: streams_copies [--dry-run] EXPECTED.json\n");
        return 2;
    }

    const size_t N = (size_t)1 << 22; /* floats per device buffer: 16 MiB */
    const size_t MiB = (size_t)1 << 20;
    const unsigned long long SPIN_NS = 200000;      /* multi_stream kernels: 200 us each */
    const unsigned long long GRAPH_SPIN_NS = 20000; /* gs_graph_spin: 20 us */
    const int ITERS = 20, SPINS = 4, GRAPH_LAUNCHES = 5;

    char device[256] = "dry-run", cc[16] = "0.0";
    if (!g_dry) {
        int ndev = 0;
        CK(cudaGetDeviceCount(&ndev));
        if (ndev < 1) {
            fprintf(stderr, "streams_copies: no CUDA device\n");
            return 1;
        }
        cudaDeviceProp prop;
        CK(cudaGetDeviceProperties(&prop, 0));
        snprintf(device, sizeof device, "%s", prop.name);
        for (char *c = device; *c; c++)
            if (*c == '"' || *c == '\\') *c = ' ';
        snprintf(cc, sizeof cc, "%d.%d", prop.major, prop.minor);
        CK(cudaSetDevice(0));
    }

    cudaStream_t s1 = 0, s2 = 0, s3 = 0, sc = 0;
    float *d_a = NULL, *d_b = NULL, *d_c = NULL;
    int *d_sink = NULL;
    unsigned char *h_pinned = NULL;
    unsigned char *h_pageable = (unsigned char *)malloc(16 * MiB);
    if (!h_pageable) return 1;
    memset(h_pageable, 1, 16 * MiB);
    /* blocking streams: the legacy default stream (cudaMemcpy, cudaMemset) orders with s0, so
     * the events on s0 bracket the synchronous copies too */
    CK(cudaStreamCreate(&g_s0));
    CK(cudaStreamCreate(&s1));
    CK(cudaStreamCreate(&s2));
    CK(cudaStreamCreate(&s3));
    CK(cudaStreamCreateWithFlags(&sc, cudaStreamNonBlocking));
    CK(cudaEventCreate(&g_ev0));
    CK(cudaEventCreate(&g_ev1));
    cudaEvent_t fork_ev = 0, join_ev[3] = {0, 0, 0};
    CK(cudaEventCreateWithFlags(&fork_ev, cudaEventDisableTiming));
    for (int i = 0; i < 3; i++) CK(cudaEventCreateWithFlags(&join_ev[i], cudaEventDisableTiming));
    CK(cudaMalloc((void **)&d_a, N * sizeof(float)));
    CK(cudaMalloc((void **)&d_b, N * sizeof(float)));
    CK(cudaMalloc((void **)&d_c, N * sizeof(float)));
    CK(cudaMalloc((void **)&d_sink, sizeof(int)));
    CK(cudaMallocHost((void **)&h_pinned, 16 * MiB));
    if (!g_dry) memset(h_pinned, 2, 16 * MiB);

    nvtxDomainHandle_t dom = nvtxDomainCreateA("gpuscope_test");
    nvtxStringHandle_t reg = nvtxDomainRegisterStringA(dom, "gs_domain_range");

    push("gs_main");

    /* warmup: context, module load */
    push("phase:warmup");
    LAUNCH(gs_warmup, 1, 32, g_s0, d_sink);
    device_sync();
    pop();

    /* copies: no kernels */
    phase_begin("copies", 1);
    g_cur->has_copies = 1;
    for (int i = 0; i < 2; i++)
        copy(d_a, h_pageable, 4 * MiB, cudaMemcpyHostToDevice, "HtoD", "Pageable", "Device");
    for (int i = 0; i < 3; i++)
        copy_async(d_b, h_pinned, 2 * MiB, cudaMemcpyHostToDevice, g_s0, "HtoD", "Pinned",
                   "Device");
    for (int i = 0; i < 2; i++)
        copy_async(h_pinned, d_b, 1 * MiB, cudaMemcpyDeviceToHost, g_s0, "DtoH", "Device",
                   "Pinned");
    copy(h_pageable, d_a, 3 * MiB, cudaMemcpyDeviceToHost, "DtoH", "Device", "Pageable");
    copy_async(h_pageable, d_a, MiB / 2, cudaMemcpyDeviceToHost, g_s0, "DtoH", "Device",
               "Pageable");
    copy_async(d_c, d_a, 8 * MiB, cudaMemcpyDeviceToDevice, g_s0, "DtoD", "Device", "Device");
    set(d_c, 5 * MiB);
    for (int i = 0; i < 2; i++) set_async(d_b, 256 * 1024, g_s0);
    stream_sync(g_s0);
    phase_end();

    /* single_stream: serial kernels on s0 */
    phase_begin("single_stream", 1);
    const int n = (int)N, blk = 256, grd = (int)((N + 255) / 256);
    LAUNCH(gs_fill, grd, blk, g_s0, d_a, 1.0f, n);
    for (int it = 0; it < ITERS; it++) {
        push("iter");
        LAUNCH(gs_axpy, grd, blk, g_s0, d_b, d_a, 0.5f, n);
        if (it % 2 == 0) LAUNCH(gs_scale, grd, blk, g_s0, d_b, 0.999f, n);
        pop();
    }
    phase_end();

    /* multi_stream: three streams at once */
    phase_begin("multi_stream", 0);
    CK(cudaEventRecord(fork_ev, g_s0));
    cudaStream_t ss[3] = {s1, s2, s3};
    for (int i = 0; i < 3; i++) wait_event(ss[i], fork_ev);
    for (int k = 0; k < SPINS; k++) {
        LAUNCH(gs_spin_a, 1, 32, s1, SPIN_NS, d_sink);
        LAUNCH(gs_spin_b, 1, 32, s2, SPIN_NS, d_sink);
        LAUNCH(gs_spin_c, 1, 32, s3, SPIN_NS, d_sink);
    }
    for (int i = 0; i < 3; i++) {
        CK(cudaEventRecord(join_ev[i], ss[i]));
        wait_event(g_s0, join_ev[i]);
    }
    phase_end();
    bump(&g_kmin, "gs_spin_a", (long long)SPIN_NS);
    bump(&g_kmin, "gs_spin_b", (long long)SPIN_NS);
    bump(&g_kmin, "gs_spin_c", (long long)SPIN_NS);
    for (int i = 0; i < 3; i++) stream_sync(ss[i]);

    /* graph_capture: launch calls, no kernels run */
    push("phase:graph_capture");
    cudaGraph_t graph = 0;
    cudaGraphExec_t gexec = 0;
    CK(cudaStreamBeginCapture(sc, cudaStreamCaptureModeGlobal));
    g_capturing = 1;
    LAUNCH(gs_graph_spin, 1, 32, sc, GRAPH_SPIN_NS, d_sink);
    LAUNCH(gs_graph_scale, grd, blk, sc, d_c, 1.001f, n);
    LAUNCH(gs_graph_add, grd, blk, sc, d_c, d_a, n);
    LAUNCH(gs_graph_scale, grd, blk, sc, d_c, 0.999f, n);
    g_capturing = 0;
    CK(cudaStreamEndCapture(sc, &graph));
    CK(cudaGraphInstantiate(&gexec, graph, 0));
    bump(&g_kmin, "gs_graph_spin", (long long)GRAPH_SPIN_NS);
    pop();

    /* graph: launched GRAPH_LAUNCHES times on s0 */
    phase_begin("graph", 1);
    for (int i = 0; i < GRAPH_LAUNCHES; i++) graph_launch(gexec, g_s0);
    phase_end();

    /* NVTX flavours (host only) */
    for (int i = 0; i < 3; i++) {
        push_colored("gs_colored_range", 0xff00a0ffu);
        pop();
    }
    for (int i = 0; i < 2; i++) {
        bump(&g_nvtx, "gs_start_end", 1);
        nvtxRangeId_t id = nvtxRangeStartA("gs_start_end");
        nvtxRangeEnd(id);
    }
    {
        nvtxEventAttributes_t a;
        memset(&a, 0, sizeof a);
        a.version = NVTX_VERSION;
        a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
        a.messageType = NVTX_MESSAGE_TYPE_ASCII;
        a.message.ascii = "gs_start_end_ex";
        bump(&g_nvtx, "gs_start_end_ex", 1);
        nvtxRangeId_t id = nvtxRangeStartEx(&a);
        nvtxRangeEnd(id);
    }
    for (int i = 0; i < 3; i++) {
        nvtxEventAttributes_t a;
        memset(&a, 0, sizeof a);
        a.version = NVTX_VERSION;
        a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
        a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
        a.message.registered = reg;
        bump(&g_nvtx, "gs_domain_range", 1);
        nvtxDomainRangePushEx(dom, &a);
        nvtxDomainRangePop(dom);
    }
    for (int i = 0; i < 2; i++) {
        nvtxEventAttributes_t a;
        memset(&a, 0, sizeof a);
        a.version = NVTX_VERSION;
        a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
        a.messageType = NVTX_MESSAGE_TYPE_ASCII;
        a.message.ascii = "gs_domain_start_end";
        bump(&g_nvtx, "gs_domain_start_end", 1);
        nvtxRangeId_t id = nvtxDomainRangeStartEx(dom, &a);
        nvtxDomainRangeEnd(dom, id);
    }
    nvtxMarkA("gs_mark"); /* a mark: not a range, not checked */

    device_sync();
    pop(); /* gs_main */

    write_expected(out, device, cc);

    if (!g_dry) {
        CK(cudaGraphExecDestroy(gexec));
        CK(cudaGraphDestroy(graph));
    }
    CK(cudaFreeHost(h_pinned));
    CK(cudaFree(d_a));
    CK(cudaFree(d_b));
    CK(cudaFree(d_c));
    CK(cudaFree(d_sink));
    free(h_pageable);
    printf("streams_copies: done, expected values in %s\n", out);
    return 0;
}
