/* The committed monitor log is what the real sampler and writer produce from the fixture's fake
 * NVML (GS_UPDATE_GOLDEN=1 rewrites it), and replaying it gives back the same lines. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "monitor/jsonl.h"
#include "monitor/replay.h"
#include "monitor_fixture.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 20);
    *len = fread(buf, 1, 1 << 20, f);
    fclose(f);
    return buf;
}

/* Samples the fixture into `path` with the live source and the log writer. */
static void write_fixture(const char *path)
{
    gs_nvml_api api;
    gs_error err;
    fake_proc_init();
    fixture_gpus(&api);
    gs_nvml *n = NULL;
    CHECK(gs_nvml_open_api(&api, &n, &err) == 0);
    gs_live_opts o = {n, fake_proc_root, "node-7", 500000000, 0};
    gs_live *live = NULL;
    CHECK(gs_live_create(&o, &live, &err) == 0);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
    CHECK(fd >= 0);
    gs_snapshot s = {0};
    for (int k = 0; k < FIXTURE_SAMPLES; k++) {
        fixture_step(k);
        CHECK(gs_live_sample(live, fixture_ts_ms[k], &s, &err) == 0);
        CHECK(gs_jsonl_append(fd, &s, &err) == 0);
    }
    /* PCIe read on samples 1 and 3 only: 2 directions x 2 reads per GPU. */
    CHECK_INT(fake.gpu[0].pcie_calls, 4);
    CHECK_INT(gs_live_nvml_errors(live), 1);
    close(fd);
    gs_snapshot_free(&s);
    gs_live_destroy(live);
    gs_nvml_close(n);
    fake_proc_cleanup();
}

/* Replays `path` and writes every sample again into `copy`. */
static void replay_copy(const char *path, const char *copy)
{
    gs_replay *r = NULL;
    gs_error err;
    CHECK(gs_replay_open(path, &r, &err) == 0);
    int fd = open(copy, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
    gs_snapshot s = {0};
    int samples = 0, rc;
    while ((rc = gs_replay_next(r, &s, &err)) == 1) {
        CHECK_INT(s.ngpus, 2);
        CHECK(gs_jsonl_append(fd, &s, &err) == 0);
        samples++;
    }
    CHECK_INT(rc, 0);
    CHECK_INT(samples, FIXTURE_SAMPLES);
    close(fd);
    gs_snapshot_free(&s);
    gs_replay_close(r);
}

int main(void)
{
    const char *data = getenv("GS_TEST_DATA");
    char fixture[512], tmp[] = "/tmp/gs_monlog_XXXXXX", copy[] = "/tmp/gs_moncopy_XXXXXX";
    snprintf(fixture, sizeof fixture, "%s/monitor/two_gpus.jsonl", data ? data : "tests/data");
    close(mkstemp(tmp));
    close(mkstemp(copy));
    write_fixture(tmp);
    size_t n1 = 0, n2 = 0, n3 = 0;
    char *made = slurp(tmp, &n1);
    if (getenv("GS_UPDATE_GOLDEN")) {
        FILE *f = fopen(fixture, "wb");
        CHECK(f && fwrite(made, 1, n1, f) == n1);
        if (f)
            fclose(f);
        printf("updated %s\n", fixture);
    }
    char *committed = slurp(fixture, &n2);
    CHECK(committed && n1 == n2 && memcmp(made, committed, n1) == 0);
    replay_copy(fixture, copy);
    char *again = slurp(copy, &n3);
    CHECK(again && n3 == n2 && committed && memcmp(again, committed, n2) == 0);
    free(made);
    free(committed);
    free(again);
    unlink(tmp);
    unlink(copy);
    return check_done("test_monitor_log");
}
