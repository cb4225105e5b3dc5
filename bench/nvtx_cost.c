/* nvtx_cost: what an NVTX range costs the thread that opens and closes it.
 *
 *   nvtx_cost [-n PAIRS] [-r ROUNDS] [-b BURST] [-B BURSTS] [-p PAUSE_MS]
 *
 * Two measurements, each for nvtxRangePushA + nvtxRangePop and for nvtxRangeStartEx +
 * nvtxRangeEnd, timed with clock_gettime(CLOCK_MONOTONIC):
 *
 *   paced  BURSTS bursts of BURST pairs, each burst timed alone, with PAUSE_MS of sleep (not
 *          timed) after each, so that a tool's writer can drain its buffers: the cost of a range
 *          that is recorded (a training loop opens a few hundred ranges per step, not millions
 *          per second). Result: the median over the bursts, in ns per pair.
 *   tight  ROUNDS rounds of PAIRS pairs back to back: the sustained cost, where a tool whose
 *          buffers fill may drop ranges (bench_nvtx.sh counts what the trace kept). Result: the
 *          median over the rounds.
 *
 * Range names: nvtx_cost_pp_paced, nvtx_cost_se_paced, nvtx_cost_pp_tight, nvtx_cost_se_tight
 * (and nvtx_cost_warmup, 1000 of each kind first: the first NVTX call loads the injection
 * library, NVTX_INJECTION64_PATH, when one is set).
 *
 * Prints a few lines for people, then one JSON line (the last line) with the numbers and the
 * ranges issued per name. Build: gcc -O2 -I$CUDA_HOME/include nvtx_cost.c -ldl (NVTX 3 is
 * header-only; no CUDA or GPU needed). */
#define _GNU_SOURCE
#include <nvtx3/nvToolsExt.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double minimum(const double *v, int n)
{
    double m = v[0];
    for (int i = 1; i < n; i++)
        if (v[i] < m) m = v[i];
    return m;
}

/* ns per pair for `pairs` push/pop pairs named `name` */
static double push_pop(long pairs, const char *name)
{
    int64_t t0 = now_ns();
    for (long i = 0; i < pairs; i++) {
        nvtxRangePushA(name);
        nvtxRangePop();
    }
    return (double)(now_ns() - t0) / (double)pairs;
}

/* ns per pair for `pairs` start/end pairs */
static double start_end(long pairs, const char *name)
{
    nvtxEventAttributes_t a;
    memset(&a, 0, sizeof a);
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = name;
    int64_t t0 = now_ns();
    for (long i = 0; i < pairs; i++) {
        nvtxRangeId_t id = nvtxRangeStartEx(&a);
        nvtxRangeEnd(id);
    }
    return (double)(now_ns() - t0) / (double)pairs;
}

static long arg_long(const char *opt, const char *v, long lo)
{
    char *end;
    long x = strtol(v ? v : "", &end, 10);
    if (!v || *end || x < lo) {
        fprintf(stderr, "nvtx_cost: %s needs an integer >= %ld\n", opt, lo);
        exit(2);
    }
    return x;
}

int main(int argc, char **argv)
{
    long pairs = 200000, rounds = 5, burst = 4000, bursts = 10, pause_ms = 250;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(o, "-n")) pairs = arg_long(o, v, 1), i++;
        else if (!strcmp(o, "-r")) rounds = arg_long(o, v, 1), i++;
        else if (!strcmp(o, "-b")) burst = arg_long(o, v, 1), i++;
        else if (!strcmp(o, "-B")) bursts = arg_long(o, v, 1), i++;
        else if (!strcmp(o, "-p")) pause_ms = arg_long(o, v, 0), i++;
        else {
            fprintf(stderr, "usage: nvtx_cost [-n PAIRS] [-r ROUNDS] [-b BURST] [-B BURSTS] "
                            "[-p PAUSE_MS]\n");
            return 2;
        }
    }
    const char *inj = getenv("NVTX_INJECTION64_PATH");

    push_pop(1000, "nvtx_cost_warmup");
    start_end(1000, "nvtx_cost_warmup");
    sleep_ms(pause_ms);

    double *pp_paced = calloc((size_t)bursts, sizeof(double));
    double *se_paced = calloc((size_t)bursts, sizeof(double));
    double *pp_tight = calloc((size_t)rounds, sizeof(double));
    double *se_tight = calloc((size_t)rounds, sizeof(double));
    if (!pp_paced || !se_paced || !pp_tight || !se_tight) return 1;
    for (long b = 0; b < bursts; b++) {
        pp_paced[b] = push_pop(burst, "nvtx_cost_pp_paced");
        sleep_ms(pause_ms);
        se_paced[b] = start_end(burst, "nvtx_cost_se_paced");
        sleep_ms(pause_ms);
    }
    for (long r = 0; r < rounds; r++) {
        pp_tight[r] = push_pop(pairs, "nvtx_cost_pp_tight");
        se_tight[r] = start_end(pairs, "nvtx_cost_se_tight");
    }

    double pp_paced_min = minimum(pp_paced, (int)bursts), se_paced_min = minimum(se_paced, (int)bursts);
    double pp_tight_min = minimum(pp_tight, (int)rounds), se_tight_min = minimum(se_tight, (int)rounds);
    double ppp = median(pp_paced, (int)bursts), sep = median(se_paced, (int)bursts);
    double ppt = median(pp_tight, (int)rounds), set = median(se_tight, (int)rounds);

    printf("NVTX_INJECTION64_PATH: %s\n", inj ? inj : "(unset)");
    printf("paced (%ld bursts of %ld pairs, %ld ms pauses): push/pop %.1f ns/pair (min %.1f), "
           "start/end %.1f ns/pair (min %.1f)\n",
           bursts, burst, pause_ms, ppp, pp_paced_min, sep, se_paced_min);
    printf("tight (%ld rounds of %ld pairs): push/pop %.1f ns/pair (min %.1f), "
           "start/end %.1f ns/pair (min %.1f)\n",
           rounds, pairs, ppt, pp_tight_min, set, se_tight_min);
    printf("{\"injection\": %s, \"pairs\": %ld, \"rounds\": %ld, \"burst\": %ld, \"bursts\": %ld, "
           "\"pause_ms\": %ld, "
           "\"paced\": {\"push_pop_ns\": %.2f, \"push_pop_min_ns\": %.2f, \"start_end_ns\": %.2f, "
           "\"start_end_min_ns\": %.2f}, "
           "\"tight\": {\"push_pop_ns\": %.2f, \"push_pop_min_ns\": %.2f, \"start_end_ns\": %.2f, "
           "\"start_end_min_ns\": %.2f}, "
           "\"issued\": {\"nvtx_cost_warmup\": 2000, \"nvtx_cost_pp_paced\": %ld, "
           "\"nvtx_cost_se_paced\": %ld, \"nvtx_cost_pp_tight\": %ld, \"nvtx_cost_se_tight\": %ld}}\n",
           inj ? "true" : "false", pairs, rounds, burst, bursts, pause_ms, ppp, pp_paced_min, sep,
           se_paced_min, ppt, pp_tight_min, set, se_tight_min, bursts * burst, bursts * burst,
           rounds * pairs, rounds * pairs);
    free(pp_paced);
    free(se_paced);
    free(pp_tight);
    free(se_tight);
    return 0;
}
