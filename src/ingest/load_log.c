#include "ingest/load_log.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "common/util.h"

/* Per-stream and per-device lines at -vv stop after this many; the ns digits are looked for in
 * the first NS_DIGITS_PROBE ranges and kernels. */
enum { DETAIL_LINES = 32, NS_DIGITS_PROBE = 10000 };

void gs_load_log_opened(const char *path, const gs_source *src, bool is_gst)
{
    uint64_t size = gs_source_file_size(src);
    GS_LOG(GS_LOG_INFO, "%s: opened: %.1f MB, %s%s", path, (double)size / 1e6,
           gs_source_is_gzip(src) ? "gzip" : "not compressed",
           is_gst ? ", a .gst trace (gst reader)" : "");
}

/* Times from 10^17 ns (1973) on are absolute, µs since 1970 in every Kineto file that has them;
 * times relative to the start of a profile or to baseTimeNanoseconds are far smaller. */
#define EPOCH_NS_FLOOR 100000000000000000LL

/* Whether any of the first timed events has a time that is not a whole µs: the ns digits
 * PyTorch 2.3 writes. */
static bool has_ns_digits(const gs_trace *t)
{
    for (size_t i = 0; i < t->ranges.n && i < NS_DIGITS_PROBE; i++)
        if (t->ranges.v[i].start % 1000 != 0)
            return true;
    for (size_t i = 0; i < t->kernels.n && i < NS_DIGITS_PROBE; i++)
        if (t->kernels.v[i].start % 1000 != 0)
            return true;
    return false;
}

/* The Kineto dialect, as far as the times and category names tell it (doc/FORMAT.md's table). */
static void describe_dialect(const gs_trace *t, char *buf, size_t cap)
{
    gs_ns first = 0;
    gs_trace_span(t, &first, NULL);
    const char *times = t->id.epoch_ns != 0 ? "µs relative to baseTimeNanoseconds (PyTorch >= 2.4)"
                        : first < EPOCH_NS_FLOOR
                            ? "µs from an unknown origin (no baseTimeNanoseconds, not since 1970)"
                        : has_ns_digits(t) ? "µs since the epoch with ns digits (PyTorch 2.3)"
                                           : "whole µs since the epoch (PyTorch <= 2.2)";
    snprintf(buf, cap, "%s%s", times,
             t->old_categories ? "; categories spelt Operator, Runtime, Kernel (PyTorch <= 1.9)"
                               : "");
}

static const char *reader_of(const char *format)
{
    static const struct {
        const char *format, *reader;
    } readers[] = {
        {"kineto", "kineto reader"},
        {"legacy", "legacy reader (autograd-profiler export: µs from the start of profiling)"},
        {"gst", "gst reader (gpuscope run)"},
    };
    for (size_t i = 0; i < COUNT_OF(readers); i++)
        if (!strcmp(format, readers[i].format))
            return readers[i].reader;
    return format;
}

static void log_reader(const gs_trace *t)
{
    const char *format = gs_trace_str(t, t->format);
    char dialect[256] = "";
    if (!strcmp(format, "kineto"))
        describe_dialect(t, dialect, sizeof dialect);
    GS_LOG(GS_LOG_INFO, "%s: %s%s%s", t->id.path, reader_of(format), *dialect ? ", dialect: " : "",
           dialect);
    static const char *const rank_from[] = {
        [GS_RANK_DEFAULT] = "by default: no distributedInfo, no rank in the file name",
        [GS_RANK_FROM_METADATA] = "from the trace's metadata",
        [GS_RANK_FROM_FILENAME] = "from the file name",
    };
    char world[32] = "unknown";
    if (t->id.world_size > 0)
        snprintf(world, sizeof world, "%" PRId32, t->id.world_size);
    GS_LOG(GS_LOG_INFO, "%s: rank %" PRId32 " (%s), world size %s, %zu device(s) described",
           t->id.path, t->id.rank, rank_from[t->id.source < 3 ? t->id.source : 0], world,
           t->devices.n);
}

static void log_counts(const gs_trace *t)
{
    size_t sets = 0, driver = 0, ranges[GS_RANGE__COUNT] = {0};
    for (size_t i = 0; i < t->memops.n; i++)
        sets += t->memops.v[i].kind == GS_MEMOP_MEMSET;
    for (size_t i = 0; i < t->apis.n; i++)
        driver += t->apis.v[i].kind == GS_API_DRIVER;
    for (size_t i = 0; i < t->ranges.n; i++)
        ranges[t->ranges.v[i].kind < GS_RANGE__COUNT ? t->ranges.v[i].kind : GS_RANGE_OTHER]++;
    GS_LOG(GS_LOG_INFO,
           "%s: kept %zu kernels, %zu copies, %zu sets, %zu GPU syncs, %zu API calls (%zu driver), "
           "%zu operators, %zu annotations, %zu NVTX ranges, %zu Python functions, %zu GPU "
           "annotations, %zu other ranges, %zu instants, %zu memory events, %zu counters, %zu "
           "collectives' args",
           t->id.path, t->kernels.n, t->memops.n - sets, sets, t->syncs.n, t->apis.n, driver,
           ranges[GS_RANGE_OP], ranges[GS_RANGE_ANNOTATION], ranges[GS_RANGE_NVTX],
           ranges[GS_RANGE_PYTHON], ranges[GS_RANGE_GPU_ANNOTATION], ranges[GS_RANGE_OTHER],
           t->instants.n, t->mem_events.n, t->counters.n, t->coll_args.n);
}

static void log_skipped(const gs_trace *t)
{
    static const char *const why[GS_SKIP__COUNT] = {
        [GS_SKIP_CATEGORY] = "of categories no view uses (flows, Trace spans, CUPTI overhead)",
        [GS_SKIP_PHASE] = "of phases no view uses (begin/end pairs, flow starts and ends)",
        [GS_SKIP_COUNTER] = "counters without a value",
        [GS_SKIP_UNKNOWN] = "of record types of a newer writer",
    };
    char buf[512] = "";
    for (int k = 0; k < GS_SKIP__COUNT; k++)
        if (t->skipped_why[k])
            gs_log_append(buf, sizeof buf, "%s%" PRIu64 " %s", *buf ? ", " : ": ",
                          t->skipped_why[k], why[k]);
    if (t->events_skipped)
        GS_LOG(GS_LOG_INFO, "%s: skipped %" PRIu64 " events%s", t->id.path, t->events_skipped, buf);
    else
        GS_LOG(GS_LOG_INFO, "%s: skipped no event", t->id.path);
    char lost[256];
    if (*gs_loss_note(t->lost, lost, sizeof lost))
        GS_LOG(GS_LOG_INFO, "%s: %s", t->id.path, lost);
}

typedef struct stream_count {
    int32_t device, stream;
    size_t kernels, memops;
} stream_count;

/* -vv: kernels and memory operations per (device, stream), the first DETAIL_LINES streams. */
static void log_streams(const gs_trace *t)
{
    stream_count s[DETAIL_LINES];
    size_t n = 0, more = 0;
    for (size_t i = 0; i < t->kernels.n + t->memops.n; i++) {
        bool kernel = i < t->kernels.n;
        int32_t dev = kernel ? t->kernels.v[i].device : t->memops.v[i - t->kernels.n].device;
        int32_t str = kernel ? t->kernels.v[i].stream : t->memops.v[i - t->kernels.n].stream;
        size_t k = 0;
        while (k < n && (s[k].device != dev || s[k].stream != str))
            k++;
        if (k == n) {
            if (n == DETAIL_LINES) {
                more++;
                continue;
            }
            s[n++] = (stream_count){dev, str, 0, 0};
        }
        *(kernel ? &s[k].kernels : &s[k].memops) += 1;
    }
    for (size_t k = 0; k < n; k++)
        GS_LOG(GS_LOG_DETAIL, "%s: device %" PRId32 " stream %" PRId32 ": %zu kernels, %zu copies "
               "and sets", t->id.path, s[k].device, s[k].stream, s[k].kernels, s[k].memops);
    if (more)
        GS_LOG(GS_LOG_DETAIL, "%s: %zu GPU activities on further streams", t->id.path, more);
    for (size_t d = 0; d < t->devices.n && d < DETAIL_LINES; d++) {
        const gs_device *dv = &t->devices.v[d];
        GS_LOG(GS_LOG_DETAIL, "%s: device %" PRId32 ": %s, %.1f GB, %" PRId32 " SMs, CC %" PRId32
               ".%" PRId32, t->id.path, dv->id, gs_trace_str(t, dv->name),
               (double)dv->total_memory / 1e9, dv->num_sms, dv->compute_major, dv->compute_minor);
    }
}

void gs_load_log_read(const gs_trace *t, double started, double parsed, double indexed)
{
    log_reader(t);
    log_counts(t);
    log_skipped(t);
    GS_LOG(GS_LOG_INFO, "%s: loaded in %.3f s (read %.3f s, index %.3f s), peak RSS %.1f MB",
           t->id.path, indexed - started, parsed - started, indexed - parsed, gs_log_peak_rss_mb());
    if (gs_log_on(GS_LOG_DETAIL))
        log_streams(t);
}

void gs_load_log_window(const gs_trace *t, const gs_trace *survey, const kwindow_plan *plan,
                        double fits)
{
    if (!gs_log_on(GS_LOG_INFO))
        return;
    if (plan->kept_steps)
        GS_LOG(GS_LOG_INFO, "%s: the memory budget holds about %.0f %% of the trace: read "
               "again keeping %zu of its %zu steps (%s to %s), %" PRIu64 " events left out",
               t->id.path, fits * 100, plan->kept_steps, plan->steps,
               gs_trace_str(survey, plan->first), gs_trace_str(survey, plan->last),
               t->lost[GS_LOSS_OUTSIDE_WINDOW]);
    else
        GS_LOG(GS_LOG_INFO, "%s: the memory budget holds about %.0f %% of the trace, which "
               "has no steps: read again keeping %.0f %% of its time, in the middle, %" PRIu64
               " events left out", t->id.path, fits * 100, plan->kept_share * 100,
               t->lost[GS_LOSS_OUTSIDE_WINDOW]);
}
