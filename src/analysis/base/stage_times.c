#include "analysis/base/stage_times.h"

#include <pthread.h>
#include <stdbool.h>

#include "common/log.h"

enum { TOP = -1 };

/* The table's rows: the name shown and the row it is part of. */
static const struct timed_row {
    const char *name;
    int parent;
} rows[GS_TIMED__COUNT] = {
    [GS_TIMED_LOAD] = {"load (read, index)", TOP},
    [GS_TIMED_CONTEXT] = {"trace context", TOP},
    [GS_TIMED_ANALYSES] = {"analyses (two threads)", TOP},
    [GS_TIMED_FACTS] = {"facts", GS_TIMED_ANALYSES},
    [GS_TIMED_BREAKDOWN] = {"breakdown", GS_TIMED_ANALYSES},
    [GS_TIMED_LAUNCH] = {"launch", GS_TIMED_ANALYSES},
    [GS_TIMED_SYNC] = {"sync", GS_TIMED_ANALYSES},
    [GS_TIMED_MEMORY] = {"memory", GS_TIMED_ANALYSES},
    [GS_TIMED_TEMPORAL] = {"temporal", GS_TIMED_ANALYSES},
    [GS_TIMED_IDLE] = {"idle", GS_TIMED_ANALYSES},
    [GS_TIMED_COMM] = {"comm", GS_TIMED_ANALYSES},
    [GS_TIMED_KERNELS] = {"kernels", GS_TIMED_ANALYSES},
    [GS_TIMED_OPS] = {"ops", GS_TIMED_ANALYSES},
    [GS_TIMED_COPIES] = {"copies", GS_TIMED_ANALYSES},
    [GS_TIMED_TRACE_FACTS] = {"trace facts (replay, verdict)", GS_TIMED_ANALYSES},
    [GS_TIMED_ROOFLINE] = {"roofline", GS_TIMED_ANALYSES},
    [GS_TIMED_REPLAY] = {"replay (expected gains)", GS_TIMED_ANALYSES},
    [GS_TIMED_DIAGNOSIS] = {"diagnosis inputs", GS_TIMED_ANALYSES},
    [GS_TIMED_COMPUTE] = {"compute (FLOPs, MFU)", GS_TIMED_ANALYSES},
    [GS_TIMED_SUMMARY] = {"summary", TOP},
    [GS_TIMED_SERIES] = {"series", GS_TIMED_SUMMARY},
    [GS_TIMED_STRAGGLERS] = {"stragglers (collectives)", TOP},
    [GS_TIMED_DROP] = {"drop (trace, analyses freed)", TOP},
    [GS_TIMED_VIEW] = {"the view's analysis", TOP},
    [GS_TIMED_FINISH] = {"the view's finish", TOP},
    [GS_TIMED_MERGE] = {"merge", TOP},
    [GS_TIMED_VERDICT] = {"verdict", TOP},
    [GS_TIMED_RENDER] = {"render", TOP},
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static double began;
static double seconds[GS_TIMED__COUNT];
static bool timed[GS_TIMED__COUNT];

void gs_stage_times_begin(void)
{
    began = gs_stage_clock();
}

double gs_stage_clock(void)
{
    return gs_log_clock(GS_LOG_INFO);
}

void gs_stage_time_add(enum gs_timed what, double since)
{
    if (!gs_log_on(GS_LOG_INFO))
        return;
    double took = gs_stage_clock() - since;
    pthread_mutex_lock(&lock);
    seconds[what] += took;
    timed[what] = true;
    pthread_mutex_unlock(&lock);
}

static int depth_of(int row)
{
    int depth = 0;
    while ((row = rows[row].parent) != TOP)
        depth++;
    return depth;
}

static void log_row(int depth, const char *name, double ms, double all_ms)
{
    GS_LOG(GS_LOG_INFO, "%*s%-*s %9.1f %5.1f %%", 2 + 2 * depth, "", 30 - 2 * depth, name, ms,
           all_ms > 0 ? ms * 100 / all_ms : 0);
}

void gs_stage_times_log(void)
{
    if (!gs_log_on(GS_LOG_INFO))
        return;
    double all_ms = (gs_stage_clock() - began) * 1e3, rest_ms = all_ms;
    pthread_mutex_lock(&lock);
    bool any = false;
    for (int i = 0; i < GS_TIMED__COUNT; i++)
        any |= timed[i];
    if (any) {
        GS_LOG(GS_LOG_INFO, "stage times: %.1f ms in all (ms, %% of it); the analyses run on "
               "two threads, each on its own, and add up to more than their row", all_ms);
        for (int i = 0; i < GS_TIMED__COUNT; i++) {
            if (!timed[i])
                continue;
            log_row(depth_of(i), rows[i].name, seconds[i] * 1e3, all_ms);
            if (rows[i].parent == TOP)
                rest_ms -= seconds[i] * 1e3;
        }
        log_row(0, "other (options, inputs listed)", rest_ms, all_ms);
    }
    pthread_mutex_unlock(&lock);
}
