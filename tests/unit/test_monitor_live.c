/* The live source never makes its readers wait on NVML: with a fake NVML whose calls hang for
 * several intervals, waiting for a sample returns within one interval (stale), the exporter's
 * text is rendered at once, and sampling resumes when NVML does. PCIe is read at most 1 Hz. */
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include "fake_nvml.h"
#include "monitor/live.h"

#define MS 1000000LL
#define INTERVAL (100 * MS)
/* Scheduling noise on a loaded 2-core machine under sanitizers: generous, since what is proven
 * is that nothing waits for a hung NVML call (HANG_MS, many times SLACK). */
#define SLACK (300 * MS)
#define HANG_MS 2000

static atomic_int slow_ms;

static nvmlReturn_t slow_util(nvmlDevice_t d, nvmlUtilization_t *u)
{
    int ms = atomic_load(&slow_ms);
    if (ms) {
        struct timespec ts = {ms / 1000, (long)(ms % 1000) * MS};
        nanosleep(&ts, NULL);
    }
    return fake_util(d, u);
}

static void pcie_rate(gs_feed *feed)
{
    uint64_t seq = 0;
    gs_snapshot s = {0};
    int samples = 0;
    int64_t t0 = gs_mono_ns();
    int pcie0 = fake.gpu[0].pcie_calls;
    while (gs_mono_ns() - t0 < 1200 * MS)
        samples += gs_feed_wait(feed, &seq, gs_mono_ns() + 2 * INTERVAL, &s) == GS_FEED_NEW;
    int reads = (fake.gpu[0].pcie_calls - pcie0) / 2;
    printf("PCIe: %d reads in %d samples over 1.2 s\n", reads, samples);
    CHECK(samples >= 4);
    CHECK(reads >= 1 && reads <= 2);
    CHECK(s.gpus[0].avail[GS_NVML_PCIE_TX] == GS_NVML_OK); /* carried between reads */
    CHECK(s.gpus[0].value[GS_NVML_PCIE_TX] == 4 * 1024);
    gs_snapshot_free(&s);
}

static void hung_nvml(gs_feed *feed)
{
    uint64_t seq = 0;
    gs_snapshot s = {0};
    CHECK_INT(gs_feed_wait(feed, &seq, gs_mono_ns() + 10 * INTERVAL, &s), GS_FEED_NEW);
    atomic_store(&slow_ms, HANG_MS); /* twenty intervals per call */
    int timeouts = 0;
    int64_t worst_wait = 0, worst_render = 0;
    int64_t end = gs_mono_ns() + (HANG_MS + 500) * MS;
    while (gs_mono_ns() < end) {
        int64_t t0 = gs_mono_ns();
        int rc = gs_feed_wait(feed, &seq, t0 + INTERVAL, &s);
        int64_t t1 = gs_mono_ns();
        size_t len = 0;
        char *text = gs_feed_metrics(feed, &len);
        int64_t t2 = gs_mono_ns();
        CHECK(text && strstr(text, "gpuscope_exporter_up 1\n"));
        free(text);
        timeouts += rc == GS_FEED_TIMEOUT;
        worst_wait = t1 - t0 > worst_wait ? t1 - t0 : worst_wait;
        worst_render = t2 - t1 > worst_render ? t2 - t1 : worst_render;
    }
    printf("NVML hung %d ms per call: %d waits ended stale, longest wait %.1f ms, longest "
           "render %.2f ms (interval 100 ms)\n", HANG_MS, timeouts, worst_wait / 1e6, worst_render / 1e6);
    CHECK(timeouts >= 5);
    CHECK(worst_wait <= INTERVAL + SLACK);
    CHECK(worst_render <= SLACK);
    atomic_store(&slow_ms, 0);
    /* Sampling resumes once NVML answers again. */
    int rc = GS_FEED_TIMEOUT;
    for (int i = 0; i < 2 * HANG_MS / 100 && rc != GS_FEED_NEW; i++)
        rc = gs_feed_wait(feed, &seq, gs_mono_ns() + INTERVAL, &s);
    CHECK_INT(rc, GS_FEED_NEW);
    gs_snapshot_free(&s);
}

static void count_closes(gs_nvml *n)
{
    gs_feed *feed = NULL;
    gs_feed_opts fo = {-1, false};
    gs_error err;
    CHECK(gs_feed_create(&fo, &feed, &err) == 0);
    gs_live_opts o = {n, "/nonexistent", "h", 10 * MS, 3};
    gs_live *live = NULL;
    CHECK(gs_live_create(&o, &live, &err) == 0);
    CHECK(gs_live_start(live, feed, &err) == 0);
    uint64_t seq = 0;
    gs_snapshot s = {0};
    int news = 0, rc;
    while ((rc = gs_feed_wait(feed, &seq, gs_mono_ns() + 1000 * MS, &s)) != GS_FEED_CLOSED &&
           rc >= 0)
        news += rc == GS_FEED_NEW;
    CHECK(news >= 1 && news <= 3);
    CHECK_INT(seq, 3); /* --count 3: three samples, then the feed closes */
    CHECK(!s.host.have_mem); /* an unreadable /proc leaves host metrics absent */
    CHECK(gs_live_stop(live, GS_LIVE_STOP_WAIT_NS, &err) == 0);
    gs_snapshot_free(&s);
    gs_live_destroy(live);
    gs_feed_destroy(feed);
}

int main(void)
{
    gs_nvml_api api;
    fake_reset(1, &api);
    api.get_util = slow_util;
    fake.gpu[0].name = "Fake";
    fake.gpu[0].tx_kbps = 4;
    gs_nvml *n = NULL;
    gs_error err;
    CHECK(gs_nvml_open_api(&api, &n, &err) == 0);

    gs_feed *feed = NULL;
    gs_feed_opts fo = {-1, false};
    CHECK(gs_feed_create(&fo, &feed, &err) == 0);
    gs_live_opts o = {n, "/proc", "h", INTERVAL, 0};
    gs_live *live = NULL;
    CHECK(gs_live_create(&o, &live, &err) == 0);
    CHECK(gs_live_start(live, feed, &err) == 0);
    pcie_rate(feed);
    hung_nvml(feed);
    int64_t t0 = gs_mono_ns();
    CHECK(gs_live_stop(live, GS_LIVE_STOP_WAIT_NS, &err) == 0);
    CHECK(gs_mono_ns() - t0 < INTERVAL + SLACK); /* stop wakes the thread between samples */
    gs_live_destroy(live);
    gs_feed_destroy(feed);
    count_closes(n);
    gs_nvml_close(n);
    return check_done("test_monitor_live");
}
