/* The monitor's capture triggers (src/monitor/trigger.h) and webhook checks (webhook.h):
 * conditions parsed or refused with a reason; a condition fed samples fires exactly when it has
 * held for its duration, against a fixed value or the median of the samples before; the
 * webhook's peer, token and notification checks; the step times read from a control folder. */
#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "common/ondemand.h"
#include "monitor/agents.h"
#include "monitor/trigger.h"
#include "monitor/webhook.h"
#include "probe/nvml.h"

static void parses(const char *text, double value, bool relative, int64_t for_ms)
{
    gs_trigger t;
    char err[512] = "";
    int rc = gs_trigger_parse(text, &t, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "'%s' refused: %s\n", text, err);
    CHECK_INT(rc, 0);
    CHECK(fabs(t.value - value) < 1e-9);
    CHECK_INT(t.relative, relative);
    CHECK_INT(t.for_ms, for_ms);
}

static void refused(const char *text, const char *why)
{
    gs_trigger t;
    char err[512] = "";
    CHECK_INT(gs_trigger_parse(text, &t, err, sizeof err), -1);
    if (!strstr(err, why))
        fprintf(stderr, "'%s': '%s', want '%s'\n", text, err, why);
    CHECK(strstr(err, why) != NULL);
    CHECK(strstr(err, "METRIC OP VALUE") != NULL); /* and says what is accepted */
}

static void test_parse(void)
{
    parses("step_time>1.2*baseline for 20s", 1.2, true, 20000);
    parses("step_time > 250ms", 250, false, 0);
    parses("step_time>=0.5s for 1m", 500, false, 60000);
    parses("step_time<800us", 0.8, false, 0);
    parses("gpu_util<30 for 2m", 30, false, 120000);
    parses("gpu_util<=30% for 1500ms", 30, false, 1500);
    parses("mem_used>=95%", 95, false, 0);
    parses("mem_used>2*baseline for 1h", 2, true, 3600000);
    /* A size in bytes is in GiB, the unit of the byte form of mem_used. */
    parses("mem_used>70GiB", 70, false, 0);
    parses("mem_used>=512MiB for 30s", 0.5, false, 30000);
    parses("mem_used>80GB", 80e9 / (1 << 30), false, 0);
    parses("mem_used<1TiB", 1024, false, 0);
    refused("", "no metric");
    refused("power>300", "no metric");
    refused("step_time=100", "no comparison");
    refused("step_time>", "no value");
    refused("step_time>100kg", "no value");
    refused("gpu_util>30ms", "no value");
    refused("gpu_util>30GiB", "no value");
    refused("step_time>30GiB", "no value");
    refused("mem_used>40GB%", "no value");
    refused("step_time>0*baseline", "above 0");
    refused("step_time>100 for 20", "a duration");
    refused("step_time>100 for 20s trailing", "unexpected text");
    refused("step_time>100 until 20s", "unexpected text");
}

static gs_snapshot at(int64_t s, double step_ms)
{
    return (gs_snapshot){.ts_ms = 1717000000000 + s * 1000,
                         .steps = {true, 1, (int64_t)(step_ms * 1e6)}};
}

/* Feeds step times, one a second from t=0; returns the second at which it first fired. */
static int first_fire(gs_trigger *t, const double *ms, int n)
{
    for (int s = 0; s < n; s++) {
        gs_snapshot snap = at(s, ms[s]);
        gs_trigger_eval e;
        CHECK_INT(gs_trigger_feed(t, &snap, &e), 0);
        if (e.fired)
            return s;
    }
    return -1;
}

static void test_fire(void)
{
    double ms[200];
    for (int s = 0; s < 200; s++)
        ms[s] = s < 60 ? 100 : 150;
    gs_trigger t;
    char err[512];
    /* Relative: the baseline is 100 ms; 150 holds from t=60, for 20 s: fires at t=80. */
    CHECK_INT(gs_trigger_parse("step_time>1.2*baseline for 20s", &t, err, sizeof err), 0);
    CHECK_INT(first_fire(&t, ms, 200), 80);
    gs_trigger_free(&t);
    /* No baseline before 5 samples: a jump at t=2 does not fire. */
    double early[10] = {100, 100, 300, 300, 300, 300, 300, 300, 300, 300};
    CHECK_INT(gs_trigger_parse("step_time>1.2*baseline", &t, err, sizeof err), 0);
    CHECK_INT(first_fire(&t, early, 10), -1);
    gs_trigger_free(&t);
    /* Absolute, no duration: the first sample above. */
    CHECK_INT(gs_trigger_parse("step_time>120ms", &t, err, sizeof err), 0);
    CHECK_INT(first_fire(&t, ms, 200), 60);
    /* After a capture it must hold for its duration again. */
    gs_trigger_free(&t);
    CHECK_INT(gs_trigger_parse("step_time>120ms for 10s", &t, err, sizeof err), 0);
    CHECK_INT(first_fire(&t, ms, 71), 70);
    gs_trigger_rearm(&t);
    gs_trigger_eval e;
    gs_snapshot s71 = at(71, 150), s81 = at(81, 150), gap = at(82, 0), s83 = at(83, 150);
    gs_trigger_feed(&t, &s71, &e);
    CHECK(e.holds && !e.fired);
    gs_trigger_feed(&t, &s81, &e);
    CHECK(e.fired);
    /* A sample without the metric breaks the run. */
    gs_trigger_feed(&t, &gap, &e);
    CHECK(!e.known && !e.fired);
    gs_trigger_feed(&t, &s83, &e);
    CHECK(e.holds && !e.fired);
    gs_trigger_free(&t);

    /* GPU metrics: the busiest GPU's utilization, the fullest one's memory. */
    gs_mon_gpu gpus[2] = {0};
    gpus[0].avail[GS_NVML_UTIL_GPU] = gpus[1].avail[GS_NVML_UTIL_GPU] = GS_NVML_OK;
    gpus[0].value[GS_NVML_UTIL_GPU] = 20;
    gpus[1].value[GS_NVML_UTIL_GPU] = 25;
    gpus[1].avail[GS_NVML_MEM_USED] = gpus[1].avail[GS_NVML_MEM_TOTAL] = GS_NVML_OK;
    gpus[1].value[GS_NVML_MEM_USED] = 96;
    gpus[1].value[GS_NVML_MEM_TOTAL] = 100;
    gs_snapshot g = {.ts_ms = 1, .gpus = gpus, .ngpus = 2};
    CHECK_INT(gs_trigger_parse("gpu_util<30", &t, err, sizeof err), 0);
    gs_trigger_feed(&t, &g, &e);
    CHECK(e.fired && e.value == 25);
    gs_trigger_free(&t);
    CHECK_INT(gs_trigger_parse("mem_used>=95%", &t, err, sizeof err), 0);
    gs_trigger_feed(&t, &g, &e);
    CHECK(e.fired && fabs(e.value - 96) < 1e-9);
    CHECK(!gs_trigger_needs_steps(&t));
    CHECK_STR(gs_trigger_unit(&t), "%");
    gs_trigger_free(&t);
    /* In bytes: the most any GPU uses, whatever its total (GPU 0's is unknown). */
    gpus[0].avail[GS_NVML_MEM_USED] = GS_NVML_OK;
    gpus[0].value[GS_NVML_MEM_USED] = 50.0 * (1ull << 30);
    gpus[1].value[GS_NVML_MEM_USED] = 40.0 * (1ull << 30);
    gpus[1].value[GS_NVML_MEM_TOTAL] = 80.0 * (1ull << 30);
    CHECK_INT(gs_trigger_parse("mem_used>45GiB", &t, err, sizeof err), 0);
    CHECK_STR(gs_trigger_unit(&t), "GiB");
    gs_trigger_feed(&t, &g, &e);
    CHECK(e.fired && fabs(e.value - 50) < 1e-9 && e.threshold == 45);
    gs_trigger_free(&t);
    /* ... and as a share it is the fullest GPU that has a total: 40 of 80 GiB. */
    CHECK_INT(gs_trigger_parse("mem_used>55", &t, err, sizeof err), 0);
    gs_trigger_feed(&t, &g, &e);
    CHECK(!e.fired && fabs(e.value - 50) < 1e-9);
    gs_trigger_free(&t);
    CHECK_INT(gs_trigger_parse("step_time>1.2*baseline", &t, err, sizeof err), 0);
    CHECK(gs_trigger_needs_steps(&t));
    gs_trigger_free(&t);
}

static void test_webhook(void)
{
    struct sockaddr_in v4 = {.sin_family = AF_INET};
    inet_pton(AF_INET, "127.0.0.1", &v4.sin_addr);
    CHECK(gs_webhook_loopback((struct sockaddr *)&v4));
    inet_pton(AF_INET, "127.9.8.7", &v4.sin_addr);
    CHECK(gs_webhook_loopback((struct sockaddr *)&v4));
    inet_pton(AF_INET, "10.0.0.1", &v4.sin_addr);
    CHECK(!gs_webhook_loopback((struct sockaddr *)&v4));
    struct sockaddr_in6 v6 = {.sin6_family = AF_INET6};
    inet_pton(AF_INET6, "::1", &v6.sin6_addr);
    CHECK(gs_webhook_loopback((struct sockaddr *)&v6));
    inet_pton(AF_INET6, "::ffff:127.0.0.1", &v6.sin6_addr);
    CHECK(gs_webhook_loopback((struct sockaddr *)&v6));
    inet_pton(AF_INET6, "fe80::1", &v6.sin6_addr);
    CHECK(!gs_webhook_loopback((struct sockaddr *)&v6));
    CHECK(!gs_webhook_loopback(NULL));

    CHECK(gs_webhook_authorized("Bearer s3cret", "s3cret"));
    CHECK(!gs_webhook_authorized("Bearer s3cre", "s3cret"));
    CHECK(!gs_webhook_authorized("Bearer s3cretX", "s3cret"));
    CHECK(!gs_webhook_authorized("Basic s3cret", "s3cret"));
    CHECK(!gs_webhook_authorized(NULL, "s3cret"));
    CHECK(!gs_webhook_authorized("Bearer ", "s3cret"));

    char names[GS_WEBHOOK_NAMES_MAX];
    static const char firing[] =
        "{\"version\":\"4\",\"groupKey\":\"{}:{}\",\"alerts\":[{\"status\":\"resolved\","
        "\"labels\":{\"alertname\":\"SlowSteps\"}}],\"status\":\"firing\",\"receiver\":\"g\"}";
    static const char resolved[] = "{\"receiver\":\"g\",\"status\":\"resolved\",\"alerts\":[]}";
    CHECK_INT(gs_webhook_alert_state(firing, strlen(firing), names), 1);
    CHECK_INT(gs_webhook_alert_state(resolved, strlen(resolved), names), 0);
    static const char scalars_first[] =
        "{\"truncatedAlerts\":0,\"x\":true,\"y\":null,\"z\":{\"status\":\"resolved\"},"
        "\"status\":\"firing\"}";
    CHECK_INT(gs_webhook_alert_state(scalars_first, strlen(scalars_first), names), 1);
    CHECK_INT(gs_webhook_alert_state("{}", 2, names), -1);
    CHECK_STR(names, "");

    /* The names of the firing alerts, each once, in order; a resolved alert's left out; a byte
     * a terminal could take as a command written '?'; a list too long ends "...". */
    static const char named[] =
        "{\"status\":\"firing\",\"alerts\":["
        "{\"status\":\"firing\",\"labels\":{\"severity\":\"page\",\"alertname\":\"SlowSteps\"},"
        "\"annotations\":{\"n\":[1,{\"alertname\":\"x\"}]}},"
        "{\"labels\":{\"alertname\":\"Unknown\"},\"status\":\"resolved\"},"
        "{\"status\":\"firing\",\"labels\":{\"alertname\":\"GPU\\u001b[2JIdle\"}},"
        "{\"status\":\"firing\",\"labels\":{\"alertname\":\"SlowSteps\"}},"
        "{\"status\":\"firing\",\"labels\":{\"alertname\":\"Slow\"}},"
        "{\"status\":\"firing\",\"labels\":{}}]}";
    CHECK_INT(gs_webhook_alert_state(named, strlen(named), names), 1);
    CHECK_STR(names, "SlowSteps, GPU??2JIdle, Slow");
    char many[8192] = "{\"status\":\"firing\",\"alerts\":[";
    for (int i = 0; i < 40; i++)
        snprintf(many + strlen(many), sizeof many - strlen(many),
                 "%s{\"status\":\"firing\",\"labels\":{\"alertname\":\"Alert%02d\"}}",
                 i ? "," : "", i);
    strcat(many, "]}");
    CHECK_INT(gs_webhook_alert_state(many, strlen(many), names), 1);
    CHECK(strlen(names) < GS_WEBHOOK_NAMES_MAX);
    CHECK(strncmp(names, "Alert00, Alert01, ", 18) == 0);
    CHECK(strcmp(names + strlen(names) - 5, ", ...") == 0);
    /* Every length of the names that fill it: the list ends "..." within its size. */
    for (int len = 1; len < GS_WEBHOOK_NAMES_MAX + 5; len++) {
        char edge[4096] = "{\"status\":\"firing\",\"alerts\":[";
        for (int i = 0; i < 3; i++) {
            snprintf(edge + strlen(edge), sizeof edge - strlen(edge),
                     "%s{\"status\":\"firing\",\"labels\":{\"alertname\":\"%c", i ? "," : "",
                     'a' + i);
            for (int k = 1; k < len; k++)
                strcat(edge, "x");
            strcat(edge, "\"}}");
        }
        strcat(edge, "]}");
        memset(names, 0x55, sizeof names);
        CHECK_INT(gs_webhook_alert_state(edge, strlen(edge), names), 1);
        CHECK(memchr(names, '\0', sizeof names) != NULL);
    }
    /* A resolved notification names nothing; a bad alert list is no notification. */
    static const char resolved_named[] =
        "{\"status\":\"resolved\",\"alerts\":[{\"status\":\"firing\",\"labels\":"
        "{\"alertname\":\"A\"}}]}";
    CHECK_INT(gs_webhook_alert_state(resolved_named, strlen(resolved_named), names), 0);
    CHECK_STR(names, "");
    static const char cut[] = "{\"status\":\"firing\",\"alerts\":[{\"labels\":{\"alertname\"";
    CHECK_INT(gs_webhook_alert_state(cut, strlen(cut), names), -1);
    CHECK_INT(gs_webhook_alert_state("[1,2]", 5, names), -1);
    CHECK_INT(gs_webhook_alert_state("{\"status\":3}", 12, names), -1);
    CHECK_INT(gs_webhook_alert_state("not json", 8, names), -1);
    CHECK_INT(gs_webhook_alert_state("", 0, names), -1);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The baseline is the median of the samples before, whatever their order and repeats: fed n
 * step times, the last sample's threshold (factor 1) is the median of the n - 1 before it. */
static void test_baseline_median(void)
{
    srand(7);
    for (int trial = 0; trial < 300; trial++) {
        int n = 6 + rand() % 590;
        int spread = trial % 3 == 0 ? 3 : 1000; /* many repeats, or few */
        double ms[600], sorted[600];
        for (int i = 0; i < n; i++)
            ms[i] = 1 + rand() % spread;
        if (trial % 5 == 1) /* already in order, or in reverse */
            qsort(ms, (size_t)n, sizeof ms[0], cmp_double);
        if (trial % 5 == 2)
            for (int i = 0; i < n / 2; i++) {
                double x = ms[i];
                ms[i] = ms[n - 1 - i];
                ms[n - 1 - i] = x;
            }
        for (int i = 0; i < n; i++)
            sorted[i] = ms[i];
        qsort(sorted, (size_t)n - 1, sizeof sorted[0], cmp_double);
        int m = n - 1;
        double want = m % 2 ? sorted[m / 2] : (sorted[m / 2 - 1] + sorted[m / 2]) / 2;
        gs_trigger t;
        char err[512];
        CHECK_INT(gs_trigger_parse("step_time>1*baseline", &t, err, sizeof err), 0);
        gs_trigger_eval e = {0};
        for (int i = 0; i < n; i++) {
            gs_snapshot snap = at(i, ms[i]);
            gs_trigger_feed(&t, &snap, &e);
        }
        if (e.threshold != want)
            fprintf(stderr, "trial %d: n %d: threshold %g, want %g\n", trial, n, e.threshold, want);
        CHECK(e.threshold == want);
        gs_trigger_free(&t);
    }
}

static void put_status(const char *dir, const char *host, long pid, int rank, int64_t step_ns)
{
    gs_od_status st = {.pid = pid, .rank = rank, .step = 10, .step_ns = step_ns, .steps_seen = 11};
    snprintf(st.host, sizeof st.host, "%s", host);
    char name[256], text[GS_OD_TEXT_MAX];
    CHECK_INT(gs_od_status_name(host, pid, name, sizeof name), 0);
    CHECK_INT(gs_od_status_format(&st, text, sizeof text), 0);
    CHECK_INT(gs_od_write_file(dir, name, text, strlen(text)), 0);
}

/* The slowest step of the agents whose process may still run: a status left by a process of this
 * machine that has ended (killed: it could not remove it) is not a step of the job. */
static void test_agents(void)
{
    char dir[] = "/tmp/test_monitor_agents.XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char host[GS_OD_HOST_MAX] = "";
    gethostname(host, sizeof host - 1);
    pid_t dead = fork();
    if (dead == 0)
        _exit(0);
    waitpid(dead, NULL, 0);
    put_status(dir, host, (long)getpid(), 0, 100000000);
    put_status(dir, host, (long)dead, 1, 900000000);
    put_status(dir, "another-node", 4242, 2, 150000000); /* elsewhere: cannot be checked */
    CHECK_INT(gs_od_write_file(dir, "junk.agent", "no status\n", 10), 0);
    gs_mon_steps steps;
    gs_mon_agents_read(dir, &steps);
    CHECK(steps.watched);
    CHECK_INT(steps.agents, 2);
    CHECK_INT(steps.step_ns, 150000000);
    CHECK_INT(steps.slowest_rank, 2); /* which process it is */
    CHECK_INT(steps.slowest_pid, 4242);
    CHECK_STR(steps.slowest_host, "another-node");
    gs_mon_agents_read("/nonexistent/folder", &steps);
    CHECK(steps.watched && steps.agents == 0 && steps.step_ns == 0);
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK_INT(system(cmd), 0);
}

int main(void)
{
    test_parse();
    test_fire();
    test_baseline_median();
    test_webhook();
    test_agents();
    return check_done("test_monitor_trigger");
}
