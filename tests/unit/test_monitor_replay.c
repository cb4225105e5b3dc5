/* The replay parser: what a good line gives, and a one-line error naming the line and the
 * problem for each kind of bad line. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "monitor/replay.h"

static int parse(const char *line, gs_snapshot *s, gs_error *err)
{
    return gs_replay_parse_line(line, strlen(line), "log: line 7", s, err);
}

static void good_line(void)
{
    gs_snapshot s = {0};
    gs_error err;
    CHECK(parse("{\"ts\":1717000000.25,\"hostname\":\"h\\u00e9\",\"gpu\":3,\"name\":\"A\","
                "\"gpu_util_pct\":50,\"gpu_power_w\":null,\"gpu_temp_c\":null,"
                "\"unavailable\":{\"gpu_power_w\":\"unsupported\",\"gpu_temp_c\":\"failed\"},"
                "\"processes\":[{\"pid\":9,\"name\":\"x\",\"gpu_memory_bytes\":null,\"new\":1}],"
                "\"future_key\":{\"a\":[1,2]},\"host_cpu_pct\":12.5}",
                &s, &err) == 0);
    CHECK_INT(s.ts_ms, 1717000000250LL);
    CHECK_STR(s.hostname, "h\xc3\xa9");
    CHECK_INT(s.ngpus, 1);
    CHECK_INT(s.gpus[0].index, 3);
    CHECK_INT(s.gpus[0].avail[GS_NVML_UTIL_GPU], GS_NVML_OK);
    CHECK(s.gpus[0].value[GS_NVML_UTIL_GPU] == 50);
    CHECK_INT(s.gpus[0].avail[GS_NVML_POWER_W], GS_NVML_UNSUPPORTED);
    CHECK_INT(s.gpus[0].avail[GS_NVML_TEMP_C], GS_NVML_FAILED);
    CHECK_INT(s.gpus[0].avail[GS_NVML_SM_CLOCK_MHZ], GS_NVML_NOT_READ); /* absent key */
    CHECK_INT(s.gpus[0].procs_avail, GS_NVML_OK);
    CHECK_INT(s.gpus[0].nprocs, 1);
    CHECK(!s.gpus[0].procs[0].known);
    CHECK(s.host.have_cpu && s.host.cpu_pct == 12.5);
    CHECK(!s.host.have_mem);
    CHECK_INT(gs_snapshot_failed_reads(&s), 1);
    /* A host line (no "gpu"): a sample with no GPU. */
    CHECK(parse("{\"ts\":5,\"hostname\":\"h\",\"host_mem_used_bytes\":1,"
                "\"host_mem_total_bytes\":2}", &s, &err) == 0);
    CHECK_INT(s.ngpus, 0);
    CHECK(s.host.have_mem && s.host.mem_total_bytes == 2);
    gs_snapshot_free(&s);
}

/* The writer escapes each invalid byte of a name to \ufffd (6 bytes): the longest hostname it
 * keeps (255 such bytes) is 1530 bytes in the log, and the reader takes it (found by
 * fuzz_monitor_live: "hostname" is longer than 511 bytes). */
static void escaped_names(void)
{
    char line[2048] = "{\"ts\":1,\"hostname\":\"";
    for (int i = 0; i < 255; i++)
        strcat(line, "\\ufffd");
    strcat(line, "\"}");
    gs_snapshot s = {0};
    gs_error err;
    CHECK_INT(parse(line, &s, &err), 0);
    CHECK_INT(strlen(s.hostname), 255); /* 85 whole U+FFFD of 3 bytes: cut at a character */
    gs_snapshot_free(&s);
}

static void bad_lines(void)
{
    static const struct {
        const char *line, *message;
    } cases[] = {
        {"", "a line must be one JSON object"},
        {"[1]", "a line must be one JSON object"},
        {"{\"ts\":1,\"gpu\":0,\"gpu_util_pct\":", "the line ends inside the object"},
        {"{\"ts\":1,\"gpu\":0,\"gpu_util_pct\":\"x\"}", "\"gpu_util_pct\" wants a number or null"},
        {"{\"ts\":\"now\"}", "\"ts\" wants seconds since the epoch"},
        {"{\"ts\":-1}", "\"ts\" wants seconds since the epoch"},
        {"{\"gpu\":0}", "no \"ts\""},
        {"{\"ts\":1,\"name\":\"A\"}", "GPU fields without \"gpu\""},
        {"{\"ts\":1,\"gpu\":1.5}", "\"gpu\" wants a whole number"},
        {"{\"ts\":1,\"gpu\":-1}", "\"gpu\" wants a whole number"},
        {"{\"ts\":1,\"gpu\":0,\"name\":7}", "\"name\" wants a string"},
        {"{\"ts\":1,\"gpu\":0,\"processes\":{}}", "\"processes\" wants an array or null"},
        {"{\"ts\":1,\"gpu\":0,\"processes\":[{\"name\":\"x\"}]}", "a process without \"pid\""},
        {"{\"ts\":1,\"gpu\":0,\"processes\":[{\"pid\":5000000000}]}", "\"pid\" wants a whole"},
        {"{\"ts\":1,\"gpu\":0,\"unavailable\":{\"gpu_temp_c\":\"hot\"}}",
         "\"unavailable\" values are"},
        {"{\"ts\":1} 2", "more after the object"},
        /* Numbers no metric reaches: they overflowed the conversions to integers before. */
        {"{\"ts\":1,\"gpu\":1e20}", "\"gpu\" wants a whole number"},
        {"{\"ts\":1,\"gpu\":0,\"gpu_mem_used_bytes\":4.3e20}",
         "\"gpu_mem_used_bytes\" is out of range (more than 9e18)"},
        {"{\"ts\":1,\"gpu\":0,\"processes\":[{\"pid\":1,\"gpu_memory_bytes\":4.3e20}]}",
         "\"gpu_memory_bytes\" is out of range"},
        {"{\"ts\":1,\"host_mem_used_bytes\":1e999}", "\"host_mem_used_bytes\" is out of range"},
        {"{\"ts\":1,\"host_cpu_pct\":-1e300}", "\"host_cpu_pct\" is out of range"},
        {"{\"ts\":1,\"gpu\":0,\"gpu_throttle_reasons\":-8}",
         "\"gpu_throttle_reasons\" wants a whole number (a bit mask)"},
        {"{\"ts\":1,\"gpu\":0,\"gpu_throttle_reasons\":4.5}", "wants a whole number"},
    };
    gs_snapshot s = {0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gs_error err = {0};
        CHECK(parse(cases[i].line, &s, &err) == -1);
        CHECK_INT(err.code, GS_EXIT_INPUT);
        if (!strstr(err.msg, cases[i].message) || strncmp(err.msg, "log: line 7: ", 13) != 0)
            fprintf(stderr, "case %zu: message '%s', want '%s'\n", i, err.msg, cases[i].message);
        CHECK(strstr(err.msg, cases[i].message) != NULL);
        CHECK(strncmp(err.msg, "log: line 7: ", 13) == 0);
    }
    gs_snapshot_free(&s);
}

/* Writes text to a temp file and replays it: the samples counted and the error of the end. */
static int replay(const char *text, int *samples, gs_error *err)
{
    char path[] = "/tmp/gs_replay_XXXXXX";
    int fd = mkstemp(path);
    if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
        abort();
    close(fd);
    gs_replay *r = NULL;
    int rc = gs_replay_open(path, &r, err);
    gs_snapshot s = {0};
    *samples = 0;
    if (rc == 0)
        while ((rc = gs_replay_next(r, &s, err)) == 1)
            (*samples)++;
    gs_snapshot_free(&s);
    gs_replay_close(r);
    unlink(path);
    return rc;
}

static void grouping(void)
{
    gs_error err;
    int n;
    /* Two GPUs at ts 1, a blank line, one at ts 2, a host-only sample at ts 3. */
    CHECK_INT(replay("{\"ts\":1,\"gpu\":0}\n{\"ts\":1,\"gpu\":1}\n\n{\"ts\":2,\"gpu\":0}\n"
                     "{\"ts\":3}", &n, &err), 0);
    CHECK_INT(n, 3);
    CHECK_INT(replay("{\"ts\":1,\"gpu\":0}\n{\"ts\":1,\"gpu\":0}\n", &n, &err), -1);
    CHECK(strstr(err.msg, ": line 2: GPU 0 twice in one sample") != NULL);
    CHECK_INT(replay("{\"ts\":1}\n{\"ts\":2}\n{\"ts\":3,\n", &n, &err), -1);
    CHECK_INT(n, 2); /* the good samples come out before the error */
    CHECK(strstr(err.msg, ": line 3: ") != NULL);
    CHECK_INT(replay("{\"ts\":1}\n\xff\n", &n, &err), -1);
    CHECK(strstr(err.msg, ": line 2: ") != NULL);
    /* A line longer than the bound is an error, not memory growth. */
    size_t big = GS_REPLAY_MAX_LINE + 10;
    char *text = malloc(big + 1);
    memset(text, ' ', big);
    text[0] = '{';
    text[big] = '\0';
    CHECK_INT(replay(text, &n, &err), -1);
    CHECK(strstr(err.msg, ": line 1: longer than") != NULL);
    free(text);
    CHECK_INT(replay("", &n, &err), 0);
    CHECK_INT(n, 0);
    gs_replay *r;
    CHECK(gs_replay_open("/nonexistent/log.jsonl", &r, &err) == -1);
    CHECK_INT(err.code, GS_EXIT_INPUT);
}

int main(void)
{
    good_line();
    escaped_names();
    bad_lines();
    grouping();
    return check_done("test_monitor_replay");
}
