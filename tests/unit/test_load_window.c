/* A trace over the memory budget is read again as a window of its steps that fits: written here
 * with 40 steps of known events, read under a budget that holds about a quarter of them. The
 * window is sized by the survey's measure of the whole model, the same for any number of reader
 * threads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "common/log.h"
#include "common/strbuf.h"
#include "ingest/kineto_window.h"
#include "ingest/load.h"

enum { STEPS = 40, OPS_PER_STEP = 2000, STEP_NS = 5000000 };

/* Step s runs [s * STEP_NS, (s + 1) * STEP_NS) on the host; each op launches a kernel that runs
 * 0.7 step later (the GPU behind the host), so a step's last kernels run in the next step. */
static void write_steps(gs_strbuf *b, int steps)
{
    gs_strbuf_appendf(b, "{\"traceEvents\": [\n");
    for (int s = 0; s < steps; s++) {
        long long t0 = (long long)s * STEP_NS;
        gs_strbuf_appendf(b, "%s{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": "
                          "\"ProfilerStep#%d\", \"pid\": 1, \"tid\": 1, \"ts\": %lld.000, "
                          "\"dur\": %d.000}",
                          s ? ",\n" : "", s, t0 / 1000, STEP_NS / 1000 - 1);
        for (int i = 0; i < OPS_PER_STEP; i++) {
            long long ts = t0 + 100 + (long long)i * 2000;
            int corr = s * OPS_PER_STEP + i + 1;
            gs_strbuf_appendf(b, ",\n{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", "
                              "\"pid\": 1, \"tid\": 1, \"ts\": %lld.%03lld, \"dur\": 1.000}",
                              ts / 1000, ts % 1000);
            gs_strbuf_appendf(b, ",\n{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": "
                              "\"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": %lld.%03lld, "
                              "\"dur\": 0.500, \"args\": {\"correlation\": %d}}",
                              (ts + 200) / 1000, (ts + 200) % 1000, corr);
            long long k = ts + STEP_NS * 7 / 10;
            gs_strbuf_appendf(b, ",\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", "
                              "\"pid\": 0, \"tid\": 7, \"ts\": %lld.%03lld, \"dur\": 1.000, "
                              "\"args\": {\"device\": 0, \"stream\": 7, \"correlation\": %d}}",
                              k / 1000, k % 1000, corr);
        }
    }
    gs_strbuf_appendf(b, "\n]}\n");
}

static char *write_file(const char *dir, const char *name, const gs_strbuf *b)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return NULL;
    fwrite(b->data, 1, b->len, f);
    fclose(f);
    return path;
}

static void test_window_of_steps(const char *dir)
{
    gs_strbuf b;
    gs_strbuf_init(&b);
    write_steps(&b, STEPS);
    const char *path = write_file(dir, "steps.json", &b);
    gs_strbuf_free(&b);
    CHECK(path != NULL);
    if (!path)
        return;

    gs_trace *whole = NULL;
    gs_error err;
    CHECK_INT(gs_load_trace(path, &(gs_load_opts){.threads = 1}, &whole, &err), 0);
    if (!whole)
        return;
    uint64_t need = gs_trace_bytes(whole);
    CHECK_INT(whole->kernels.n, STEPS * OPS_PER_STEP);

    size_t first_kept[2] = {0}, steps_kept[2] = {0};
    for (unsigned threads = 1; threads <= 3; threads += 2) {
        gs_mem_budget budget = {.limit = need / 4, .origin = "a test"};
        gs_trace *t = NULL;
        int rc = gs_load_trace(path, &(gs_load_opts){.budget = &budget, .threads = threads}, &t,
                               &err);
        CHECK_INT(rc, 0);
        if (rc != 0) {
            fprintf(stderr, "%s\n", err.msg);
            continue;
        }
        CHECK(gs_trace_bytes(t) <= need / 4);
        /* A run of whole steps from the middle: each with its 2000 ops, launches and kernels. */
        size_t steps = 0, first = STEPS;
        for (size_t i = 0; i < t->ranges.n; i++)
            if (!strncmp(gs_trace_str(t, t->ranges.v[i].name), "ProfilerStep#", 13)) {
                size_t n = (size_t)atoi(gs_trace_str(t, t->ranges.v[i].name) + 13);
                first = n < first ? n : first;
                steps++;
            }
        CHECK(steps >= 4 && steps <= STEPS / 4);
        if (steps < 4 || steps > STEPS / 4)
            fprintf(stderr, "%zu steps kept\n", steps);
        CHECK_INT(first, (STEPS - steps) / 2);
        first_kept[threads / 2] = first;
        steps_kept[threads / 2] = steps;
        CHECK_INT(t->ranges.n, steps * (OPS_PER_STEP + 1));
        CHECK_INT(t->apis.n, steps * OPS_PER_STEP);
        CHECK_INT(t->kernels.n, steps * OPS_PER_STEP);
        CHECK_INT(t->lost[GS_LOSS_OUTSIDE_WINDOW], (STEPS - steps) * (3 * OPS_PER_STEP + 1));
        /* Every kept kernel was launched by a kept call. */
        size_t orphans = 0;
        for (size_t i = 0; i < t->kernels.n; i++)
            orphans += t->kernels.v[i].api == GS_NONE;
        CHECK_INT(orphans, 0);
        gs_trace_delete(t);
    }
    CHECK_INT(steps_kept[0], steps_kept[1]); /* one thread's read or three's: the same window */
    CHECK_INT(first_kept[0], first_kept[1]);
    gs_trace_delete(whole);
}

/* The survey measures the model's arrays that the whole trace fills (kineto_event_bytes), on
 * one thread and on several. */
static void test_survey_measure(const char *dir)
{
    gs_strbuf b;
    gs_strbuf_init(&b);
    write_steps(&b, 12);
    /* and one of each other kind of array: a copy, a set, a GPU sync, an instant, an allocator
     * record, a counter, a collective's args; and what fills none: a flow, a thread's name */
    b.len -= 4; /* before "\n]}\n" */
    gs_strbuf_appendf(&b,
                      ",\n{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD\", "
                      "\"pid\": 0, \"tid\": 7, \"ts\": 1.0, \"dur\": 1.0, \"args\": {\"device\": 0, "
                      "\"stream\": 7}}"
                      ",\n{\"ph\": \"X\", \"cat\": \"gpu_memset\", \"name\": \"Memset\", \"pid\": 0, "
                      "\"tid\": 7, \"ts\": 2.0, \"dur\": 1.0, \"args\": {\"device\": 0, \"stream\": 7}}"
                      ",\n{\"ph\": \"X\", \"cat\": \"cuda_sync\", \"name\": \"Event Sync\", "
                      "\"pid\": 0, \"tid\": 7, \"ts\": 3.0, \"dur\": 1.0, \"args\": {\"device\": 0, "
                      "\"stream\": 7}}"
                      ",\n{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"name\": \"mark\", "
                      "\"pid\": 1, \"tid\": 1, \"ts\": 4.0, \"s\": \"t\"}"
                      ",\n{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"name\": \"[memory]\", "
                      "\"pid\": 1, \"tid\": 1, \"ts\": 5.0, \"s\": \"t\", \"args\": {\"Addr\": 16, "
                      "\"Bytes\": 512, \"Device Type\": 1, \"Device Id\": 0}}"
                      ",\n{\"ph\": \"C\", \"cat\": \"counter\", \"name\": \"power\", \"pid\": 0, "
                      "\"tid\": 0, \"ts\": 6.0, \"args\": {\"value\": 3.5}}"
                      ",\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ncclAllReduce\", "
                      "\"pid\": 0, \"tid\": 7, \"ts\": 7.0, \"dur\": 1.0, \"args\": {\"device\": 0, "
                      "\"stream\": 7, \"Collective name\": \"allreduce\"}}"
                      ",\n{\"ph\": \"s\", \"cat\": \"ac2g\", \"name\": \"flow\", \"id\": 1, "
                      "\"pid\": 1, \"tid\": 1, \"ts\": 8.0}"
                      ",\n{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 1, \"tid\": 1, "
                      "\"args\": {\"name\": \"main\"}}"
                      "\n]}\n");
    const char *path = write_file(dir, "measure.json", &b);
    gs_strbuf_free(&b);
    CHECK(path != NULL);
    gs_trace *whole = NULL;
    gs_error err;
    if (!path || gs_load_trace(path, &(gs_load_opts){.threads = 1}, &whole, &err) != 0) {
        CHECK(!"the trace loads");
        return;
    }
    CHECK(whole->memops.n == 2 && whole->syncs.n == 1 && whole->instants.n == 1 &&
          whole->mem_events.n == 1 && whole->counters.n == 1 && whole->coll_args.n == 1);
    uint64_t arrays = whole->kernels.n * sizeof *whole->kernels.v +
                      whole->memops.n * sizeof *whole->memops.v +
                      whole->syncs.n * sizeof *whole->syncs.v +
                      whole->apis.n * sizeof *whole->apis.v +
                      whole->ranges.n * sizeof *whole->ranges.v +
                      whole->instants.n * sizeof *whole->instants.v +
                      whole->mem_events.n * sizeof *whole->mem_events.v +
                      whole->counters.n * sizeof *whole->counters.v +
                      whole->coll_args.n * sizeof *whole->coll_args.v;
    for (unsigned threads = 1; threads <= 3; threads += 2) {
        kwindow survey;
        kwindow_survey_init(&survey);
        gs_trace *steps = NULL;
        CHECK_INT(gs_load_trace(path, &(gs_load_opts){.threads = threads, .window = &survey},
                                &steps, &err), 0);
        CHECK_INT(survey.model_bytes, arrays);
        gs_trace_delete(steps);
    }
    gs_trace_delete(whole);
    unlink(path);
}

/* A pipe cannot be read twice: over the budget it keeps the budget's error. */
static void test_pipe_refused(const char *dir)
{
    gs_strbuf b;
    gs_strbuf_init(&b);
    write_steps(&b, 8);
    char fifo[512];
    snprintf(fifo, sizeof fifo, "%s/pipe.json", dir);
    CHECK(mkfifo(fifo, 0600) == 0);
    fflush(NULL);
    pid_t child = fork();
    if (child == 0) {
        FILE *f = fopen(fifo, "w");
        if (f) {
            fwrite(b.data, 1, b.len, f);
            fclose(f);
        }
        _exit(0);
    }
    gs_mem_budget budget = {.limit = 4096, .origin = "a test"};
    gs_trace *t = NULL;
    gs_error err;
    CHECK(gs_load_trace(fifo, &(gs_load_opts){.budget = &budget}, &t, &err) != 0);
    CHECK(strstr(err.msg, "the trace needs more memory than the limit of 4.0 kB (a test") != NULL);
    gs_trace_delete(t);
    int status;
    while (waitpid(child, &status, 0) < 0)
        ;
    unlink(fifo);
    gs_strbuf_free(&b);
}

static void print_line(void *ctx, const char *line)
{
    (void)ctx;
    fprintf(stderr, "log: %s\n", line);
}

int main(void)
{
    if (getenv("GS_TEST_LOG"))
        gs_log_set(GS_LOG_INFO, print_line, NULL);
    char dir[] = "/tmp/gs-window-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    test_window_of_steps(dir);
    test_survey_measure(dir);
    test_pipe_refused(dir);
    char path[512];
    snprintf(path, sizeof path, "%s/steps.json", dir);
    unlink(path);
    rmdir(dir);
    return check_done("test_load_window");
}
