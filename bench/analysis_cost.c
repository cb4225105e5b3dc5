/* How much the report's analyses add to reading a trace: loads the trace, then builds the
 * report as gpuscope report does (the rank's summary with every analysis, then the report and
 * the verdict, no rendering), R times each, and prints the medians. Built by
 * bench/bench_analyses.sh against the project's core library. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "analysis/pipeline/summarise.h"
#include "analysis/pipeline/report.h"
#include "ingest/load.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: analysis_cost TRACE [RUNS]\n");
        return 2;
    }
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    if (runs < 1 || runs > 100)
        runs = 5;
    double *load = calloc((size_t)runs, sizeof *load), *analyse = calloc((size_t)runs, sizeof *analyse);
    for (int r = 0; r < runs; r++) {
        gs_error err;
        gs_trace *trace;
        double t0 = now();
        if (gs_load_trace(argv[1], NULL, &trace, &err) != 0) {
            fprintf(stderr, "analysis_cost: %s\n", err.msg);
            return 3;
        }
        double t1 = now();
        gs_rank_summary *rank = malloc(sizeof *rank);
        gs_report report;
        const gs_step_opts steps = {0};
        if (!rank || gs_rank_summarise(trace, &steps, true, rank, &err) != 0 ||
            gs_report_build(rank, 1, true, &report, &err) != 0) {
            fprintf(stderr, "analysis_cost: %s\n", err.msg);
            return 3;
        }
        double t2 = now();
        gs_report_free(&report);
        gs_trace_delete(trace);
        load[r] = t1 - t0;
        analyse[r] = t2 - t1;
    }
    qsort(load, (size_t)runs, sizeof *load, cmp_double);
    qsort(analyse, (size_t)runs, sizeof *analyse, cmp_double);
    double l = load[runs / 2], a = analyse[runs / 2];
    printf("| %s | %d | %.3f (%.3f-%.3f) | %.3f (%.3f-%.3f) | %.1f %% |\n", argv[1], runs, l,
           load[0], load[runs - 1], a, analyse[0], analyse[runs - 1], 100.0 * a / l);
    free(load);
    free(analyse);
    return 0;
}
