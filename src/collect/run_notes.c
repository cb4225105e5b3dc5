#include "collect/run_notes.h"
#include "common/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What CUPTI's overhead records say its time went to (the agent names each record by its kind,
 * cupti_decode.c), in words a CUDA user knows. */
enum cost { COST_PREPARE, COST_COMPILE, COST_BUFFERS, COST_SETUP, COST_OTHER, COST__COUNT };

static const char *const cost_words[COST__COUNT] = {
    [COST_PREPARE] = "preparing kernels for tracing as CUDA loaded them",
    [COST_COMPILE] = "compiling kernels",
    [COST_BUFFERS] = "handing its record buffers over",
    [COST_SETUP] = "setting up for new CUDA contexts and streams",
    [COST_OTHER] = "other work",
};

static const struct {
    const char *kind;
    enum cost cost;
} overhead_kinds[] = {
    {"lazy function loading", COST_PREPARE},
    {"runtime-triggered module loading", COST_PREPARE},
    {"CUPTI instrumentation", COST_PREPARE},
    {"UVM activity init", COST_PREPARE},
    {"driver compiler", COST_COMPILE},
    {"activity buffer request", COST_BUFFERS},
    {"CUPTI buffer flush", COST_BUFFERS},
    {"command buffer full", COST_BUFFERS},
    {"CUPTI resource", COST_SETUP},
    {"CUPTI overhead", COST_OTHER},
};

/* An overhead record's note: CUPTI's, timed, named by a kind (the kind decides the words). */
static int overhead_cost(const gs_merge_note *n)
{
    if (n->source != GST_NOTE_CUPTI || n->overhead_ns <= 0)
        return -1;
    for (size_t i = 0; i < COUNT_OF(overhead_kinds); i++)
        if (strcmp(n->text, overhead_kinds[i].kind) == 0)
            return (int)overhead_kinds[i].cost;
    return COST_OTHER;
}

static void put_time(char *buf, size_t cap, int64_t ns)
{
    if (ns >= 1000000000)
        snprintf(buf, cap, "%.2f s", (double)ns / 1e9);
    else
        snprintf(buf, cap, "%.1f ms", (double)ns / 1e6);
}

static int add_line(gs_run_notes *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int add_line(gs_run_notes *out, const char *fmt, ...)
{
    char **lines = realloc(out->lines, (out->n + 1) * sizeof *lines);
    if (!lines)
        return -1;
    out->lines = lines;
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *line = len >= 0 ? malloc((size_t)len + 1) : NULL;
    if (!line)
        return -1;
    va_start(ap, fmt);
    vsnprintf(line, (size_t)len + 1, fmt, ap);
    va_end(ap);
    out->lines[out->n++] = line;
    return 0;
}

/* "CUDA tracing cost the program 34.4 ms (1.6 % of its 2.14 s run): 10.7 ms preparing ..." */
static int add_cost_line(gs_run_notes *out, const int64_t *cost, int64_t run_ns)
{
    char total[32], run[32], parts[512] = "";
    put_time(total, sizeof total, out->overhead_ns);
    size_t len = 0;
    for (int c = 0; c < COST__COUNT; c++) {
        if (cost[c] <= 0 || len >= sizeof parts)
            continue;
        char t[32];
        put_time(t, sizeof t, cost[c]);
        len += (size_t)snprintf(parts + len, sizeof parts - len, "%s%s %s", len ? ", " : "", t,
                                cost_words[c]);
    }
    if (run_ns <= 0)
        return add_line(out, "CUDA tracing cost the program %s: %s", total, parts);
    put_time(run, sizeof run, run_ns);
    return add_line(out, "CUDA tracing cost the program %s (%.1f %% of its %s run): %s", total,
                    100.0 * (double)out->overhead_ns / (double)run_ns, run, parts);
}

int gs_run_notes_make(const gs_merge_stats *st, int64_t run_ns, gs_run_notes *out,
                      gs_error *err)
{
    memset(out, 0, sizeof *out);
    int64_t cost[COST__COUNT] = {0};
    for (size_t i = 0; i < st->nnotes; i++) {
        int c = overhead_cost(&st->notes[i]);
        if (c >= 0) {
            cost[c] += st->notes[i].overhead_ns;
            out->overhead_ns += st->notes[i].overhead_ns;
        }
    }
    int rc = out->overhead_ns > 0 ? add_cost_line(out, cost, run_ns) : 0;
    for (size_t i = 0; i < st->nnotes && rc == 0; i++) {
        const gs_merge_note *n = &st->notes[i];
        if (overhead_cost(n) >= 0)
            continue;
        if (n->source == GST_NOTE_MERGE) /* the merge's own note: the count is not in its text */
            rc = add_line(out, "%llu records were lost: a process was killed while writing its "
                          "trace (the end of its file was cut short)",
                          (unsigned long long)n->records_dropped);
        else if (n->count > 1)
            rc = add_line(out, "%s (%llu times)", n->text, (unsigned long long)n->count);
        else
            rc = add_line(out, "%s", n->text);
    }
    if (rc != 0) {
        gs_run_notes_free(out);
        return gs_fail_oom(err);
    }
    return 0;
}

void gs_run_notes_free(gs_run_notes *n)
{
    for (size_t i = 0; i < n->n; i++)
        free(n->lines[i]);
    free(n->lines);
    memset(n, 0, sizeof *n);
}
