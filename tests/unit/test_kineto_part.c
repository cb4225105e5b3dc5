/* One rank of a file of several (gpuscope's chrome export, src/ingest/kineto_part.c): each part
 * gets its entry's rank, clock, devices and losses, only its own events, and its pids, ids and
 * times moved back, every value checked; the file read whole, and a part it lacks, are refused. */
#include <string.h>

#include "check.h"
#include "ingest/load.h"

/* Rank 5 (part 0) on the file's clock B = 10^18, rank 7 (part 1) on its own, 1 ms later. Each has
 * a launch and its kernel with the same correlation id (77) and External id (2) before the export
 * moved them; part 1 also a stream's name, a GPU counter and an operator. One event is of no part
 * (pid 5). */
static const char two_ranks[] =
    "{\"gpuscopeRanks\": ["
    "{\"distributedInfo\": {\"rank\": 5, \"world_size\": 8}, \"baseTimeNanoseconds\": "
    "1000000000000000000, \"deviceProperties\": [{\"id\": 0, \"name\": \"A\", \"numSms\": 1}]},"
    "{\"distributedInfo\": {\"rank\": 7, \"world_size\": 8}, \"baseTimeNanoseconds\": "
    "1000000000001000000, \"deviceProperties\": [{\"id\": 1, \"name\": \"B\", \"numSms\": 2}], "
    "\"gpuscopeSkipped\": {\"dropped_by_collector\": 3}, \"gpuscopeTracingCostNs\": 900, "
    "\"gpuscopeRecordedBy\": \"gst\"}],"
    " \"deviceProperties\": [{\"id\": 0, \"name\": \"A\"}, {\"id\": 1, \"name\": \"B\"}],"
    " \"gpuscopeSkipped\": {\"dropped_by_collector\": 3},"
    " \"baseTimeNanoseconds\": 1000000000000000000, \"traceEvents\": ["
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 10000042, "
    "\"tid\": 3, \"ts\": 10.000, \"dur\": 2.000, \"args\": {\"External id\": 4294967298, "
    "\"correlation\": 4294967373}},"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k0\", \"pid\": 15000000, \"tid\": 7, "
    "\"ts\": 15.000, \"dur\": 10.000, \"args\": {\"External id\": 4294967298, \"device\": 0, "
    "\"stream\": 7, \"correlation\": 4294967373}},"
    "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 25000001, \"tid\": 7, \"ts\": 0, "
    "\"args\": {\"name\": \"stream 7 \"}},"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op1\", \"pid\": 20000043, \"tid\": 3, "
    "\"ts\": 1009.000, \"dur\": 5.000, \"args\": {\"External id\": 8589934594}},"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 20000043, "
    "\"tid\": 3, \"ts\": 1010.000, \"dur\": 2.000, \"args\": {\"External id\": 8589934594, "
    "\"correlation\": 8589934669}},"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k1\", \"pid\": 25000001, \"tid\": 7, "
    "\"ts\": 1020.000, \"dur\": 30.000, \"args\": {\"External id\": 8589934594, \"device\": 1, "
    "\"stream\": 7, \"correlation\": 8589934669}},"
    "{\"ph\": \"C\", \"cat\": \"gpu_counter\", \"name\": \"sm\", \"pid\": 25000001, \"tid\": 0, "
    "\"ts\": 1030.000, \"args\": {\"value\": 50}},"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"nobody\", \"pid\": 5, \"tid\": 7, "
    "\"ts\": 1.000, \"dur\": 1.000}"
    "]}";

static gs_trace *load_part(uint32_t part, gs_error *err)
{
    gs_trace *t = NULL;
    const gs_load_opts opts = {.part = part};
    memset(err, 0, sizeof *err);
    if (gs_load_trace_buffer(two_ranks, strlen(two_ranks), "two.json", &opts, &t, err) != 0)
        return NULL;
    return t;
}

static void test_first_part(void)
{
    gs_error err;
    gs_trace *t = load_part(1, &err);
    CHECK(t != NULL);
    if (!t) {
        CHECK_STR(err.msg, "");
        return;
    }
    CHECK_STR(t->id.path, "two.json (rank 5)");
    CHECK_INT(t->id.rank, 5);
    CHECK_INT(t->id.world_size, 8);
    CHECK_INT(t->id.source, GS_RANK_FROM_METADATA);
    CHECK(t->id.epoch_ns == 1000000000000000000);
    CHECK_INT(t->devices.n, 1);
    CHECK_STR(gs_trace_str(t, t->devices.v[0].name), "A");
    CHECK_INT(t->kernels.n, 1); /* not k1, not the kernel of no part */
    CHECK_INT(t->apis.n, 1);
    CHECK_INT(t->pid, 42);
    CHECK_INT(t->apis.v[0].pid, 42);
    CHECK(t->apis.v[0].correlation == 77);
    CHECK(t->apis.v[0].external_id == 2);
    CHECK(t->kernels.v[0].correlation == 77);
    CHECK(t->kernels.v[0].external_id == 2);
    CHECK(t->kernels.v[0].start == 15000 && t->kernels.v[0].end == 25000);
    CHECK_INT(t->kernels.v[0].api, 0); /* linked to its own launch */
    CHECK_INT(gs_loss_total(t->lost), 0); /* the top level's losses are rank 7's */
    CHECK(t->collector_overhead_ns < 0);
    gs_trace_delete(t);
}

static void test_second_part(void)
{
    gs_error err;
    gs_trace *t = load_part(2, &err);
    CHECK(t != NULL);
    if (!t) {
        CHECK_STR(err.msg, "");
        return;
    }
    CHECK_STR(t->id.path, "two.json (rank 7)");
    CHECK_INT(t->id.rank, 7);
    CHECK(t->id.epoch_ns == 1000000000001000000);
    CHECK_INT(t->devices.n, 1);
    CHECK_INT(t->devices.v[0].id, 1);
    CHECK_INT(t->devices.v[0].num_sms, 2);
    CHECK_INT(t->pid, 43);
    CHECK_INT(t->kernels.n, 1);
    CHECK_STR(gs_trace_str(t, t->kernels.v[0].name), "k1");
    CHECK_INT(t->kernels.v[0].device, 1);
    CHECK_INT(t->kernels.v[0].stream, 7);
    CHECK(t->kernels.v[0].correlation == 77);
    CHECK(t->kernels.v[0].external_id == 2);
    /* 1020 µs on the file's clock is 20 µs on its own, 1 ms later */
    CHECK(t->kernels.v[0].start == 20000 && t->kernels.v[0].end == 50000);
    CHECK_INT(t->kernels.v[0].api, 0);
    CHECK_INT(t->ranges.n, 1);
    CHECK(t->ranges.v[0].start == 9000 && t->ranges.v[0].external_id == 2);
    CHECK_INT(t->kernels.v[0].op, 0); /* op1 launched it */
    CHECK_INT(t->threads.n, 1);
    CHECK_INT(t->threads.v[0].pid, 1); /* a stream's name, on its device */
    CHECK_INT(t->threads.v[0].tid, 7);
    CHECK_INT(t->counters.n, 1);
    CHECK_INT(t->counters.v[0].device, 1);
    CHECK(t->counters.v[0].ts == 30000);
    CHECK(t->lost[GS_LOSS_DROPPED] == 3);
    CHECK(t->collector_overhead_ns == 900);
    CHECK_STR(gs_trace_str(t, t->recorded_by), "gst");
    gs_trace_delete(t);
}

static void test_refused(void)
{
    gs_error err;
    CHECK(load_part(0, &err) == NULL);
    CHECK(strstr(err.msg, "two.json: byte 1: a file of several ranks (gpuscopeRanks) read as one "
                          "trace") == err.msg);
    CHECK_INT(err.code, GS_EXIT_INPUT);
    CHECK(load_part(3, &err) == NULL);
    CHECK(strstr(err.msg, "traceEvents before gpuscopeRanks, or no entry 2 in it") != NULL);
}

int main(void)
{
    test_first_part();
    test_second_part();
    test_refused();
    return check_done("test_kineto_part");
}
