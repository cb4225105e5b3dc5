/* The model's bounds on times (gs_trace_check) through both readers: events whose times are out
 * of range, negative or not numbers are skipped and counted by reason, never overflowed; the
 * note that tells the user about them; a trace whose durations add up past the bound fails. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/gst_format.h"
#include "ingest/load.h"

#define I64_MAX INT64_MAX
#define I64_MIN INT64_MIN

static gs_trace *load_json(const char *json, gs_error *err)
{
    gs_trace *t = NULL;
    memset(err, 0, sizeof *err);
    if (gs_load_trace_buffer(json, strlen(json), "t.json", NULL, &t, err) != 0)
        return NULL;
    return t;
}

/* A .gst file of one chunk holding the given records (type, host struct) in memory. */
typedef struct gst_rec {
    uint32_t type;
    const void *host;
} gst_rec;

static gs_trace *load_gst(int64_t epoch, const gst_rec *recs, size_t n, gs_error *err)
{
    static uint8_t buf[4096];
    gst_file_header fh = {GST_VERSION_MAJOR, 0, GST_FILE_HEADER_SIZE, GST_CLOCK_REALTIME, 0,
                          epoch};
    gst_encode_file_header(&fh, buf);
    size_t at = GST_FILE_HEADER_SIZE + GST_CHUNK_HEADER_SIZE;
    for (size_t i = 0; i < n; i++) {
        const gst_layout *l = gst_layout_of(recs[i].type);
        gst_put_u16(buf + at, (uint16_t)recs[i].type);
        gst_put_u16(buf + at + 2, 0);
        gst_put_u32(buf + at + 4, GST_RECORD_HEADER_SIZE + l->payload_size);
        gst_encode(l, recs[i].host, buf + at + GST_RECORD_HEADER_SIZE);
        at += GST_RECORD_HEADER_SIZE + l->payload_size;
    }
    gst_chunk_header ch = {GST_CHUNK_MAGIC, GST_CHUNK_RECORDS, 0,
                           (uint32_t)(at - GST_FILE_HEADER_SIZE - GST_CHUNK_HEADER_SIZE),
                           (uint32_t)n};
    gst_encode_chunk_header(&ch, buf + GST_FILE_HEADER_SIZE);
    gs_trace *t = NULL;
    memset(err, 0, sizeof *err);
    if (gs_load_trace_buffer((const char *)buf, at, "t.gst", NULL, &t, err) != 0)
        return NULL;
    return t;
}

/* Kineto: ts + dur near INT64_MAX (undefined behaviour before), 1e999, text, negative. */
static void test_kineto_times(void)
{
    static const char json[] =
        "{\"traceEvents\": ["
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ok\", \"pid\": 0, \"tid\": 7, \"ts\": 1, "
        "\"dur\": 2},"
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"sum\", \"pid\": 0, \"tid\": 7, "
        "\"ts\": 9223372036854775.807, \"dur\": 5},"
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"big_ts\", \"pid\": 0, \"tid\": 7, "
        "\"ts\": 1e999, \"dur\": 5},"
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"big_dur\", \"pid\": 0, \"tid\": 7, "
        "\"ts\": 10, \"dur\": 1e999},"
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"edge\", \"pid\": 0, \"tid\": 7, "
        "\"ts\": 4611686018427387.903, \"dur\": 0},"
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"past\", \"pid\": 0, \"tid\": 7, "
        "\"ts\": 4611686018427387.903, \"dur\": 0.001},"
        "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"neg\", \"pid\": 1, \"tid\": 1, \"ts\": 5, "
        "\"dur\": -1},"
        "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"text\", \"pid\": 1, \"tid\": 1, "
        "\"ts\": \"soon\", \"dur\": 1},"
        "{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"name\": \"no_ts\", \"pid\": 1, "
        "\"tid\": 1},"
        "{\"ph\": \"f\", \"cat\": \"ac2g\", \"name\": \"flow\", \"pid\": 1, \"tid\": 1, \"ts\": 1}"
        "]}";
    gs_error err;
    gs_trace *t = load_json(json, &err);
    CHECK(t != NULL);
    if (!t)
        return;
    CHECK_INT(t->kernels.n, 2); /* ok, and edge: exactly GS_TIME_MAX */
    CHECK_INT(t->lost[GS_LOSS_TIME_RANGE], 4);
    CHECK_INT(t->lost[GS_LOSS_NEGATIVE_DURATION], 1);
    CHECK_INT(t->lost[GS_LOSS_NO_TIME], 2);
    CHECK_INT(t->lost[GS_LOSS_DROPPED], 0);
    CHECK_INT(t->events_skipped, 1); /* the flow: not a loss */
    char note[256];
    CHECK_STR(gs_loss_note(t->lost, note, sizeof note),
              "7 events skipped (2 without a time, 4 with a time out of range, 1 with a negative "
              "duration)");
    gs_trace_delete(t);
}

/* .gst: an end before its start, ends at the int64 extremes (end - start overflowed in the
 * index), API calls overlapping inside a range (its self time overflowed). */
static void test_gst_times(void)
{
    gst_nvtx_range reversed = {I64_MAX, I64_MIN, 1, 1, 0, 0, 0};
    gst_nvtx_range wide = {I64_MIN, I64_MAX, 1, 1, 0, 0, 0};
    gst_nvtx_range backwards = {10, 5, 1, 1, 0, 0, 0};
    gst_nvtx_range outer = {0, GS_TIME_MAX, 1, 1, 0, 0, 0};
    gst_api a1 = {0, GS_TIME_MAX, 1, 1, 0, -1, 0, 0};
    gst_api a2 = {1, GS_TIME_MAX, 1, 1, 0, -1, 0, 0};
    gst_kernel k = {I64_MIN, 5, 0, 0, 0, 7, 0, {1, 1, 1}, {1, 1, 1}, -1, -1};
    gst_nvtx_mark mark = {I64_MAX, 1, 1, 0, 0};
    gst_rec recs[] = {{GST_REC_NVTX_RANGE, &reversed}, {GST_REC_NVTX_RANGE, &wide},
                      {GST_REC_NVTX_RANGE, &backwards}, {GST_REC_KERNEL, &k},
                      {GST_REC_NVTX_MARK, &mark}};
    gs_error err;
    gs_trace *t = load_gst(0, recs, sizeof recs / sizeof recs[0], &err);
    CHECK(t != NULL);
    if (t) {
        CHECK_INT(t->ranges.n + t->kernels.n + t->instants.n, 0);
        CHECK_INT(t->lost[GS_LOSS_TIME_RANGE], 4);
        CHECK_INT(t->lost[GS_LOSS_NEGATIVE_DURATION], 1);
    }
    gs_trace_delete(t);
    /* Calls of 2^62 ns inside a range of 2^62 ns: each fits, their sum would not (the range's
     * self time overflowed): the trace is refused. */
    gst_rec nested[] = {{GST_REC_NVTX_RANGE, &outer}, {GST_REC_API, &a1}, {GST_REC_API, &a2}};
    t = load_gst(0, nested, 3, &err);
    CHECK(t == NULL);
    CHECK_STR(err.msg, "t.gst: the events' durations add up to more than 2.28 years (2^56 ns): "
                       "more than any totals gpuscope keeps can hold");
    /* The ranges and the calls are checked on two threads: 3/4 of the bound each, past it
     * together. */
    gst_nvtx_range three_quarters = {0, (gs_ns)3 << 54, 1, 1, 0, 0, 0};
    gst_api call_of_as_long = {0, (gs_ns)3 << 54, 1, 1, 0, -1, 0, 0};
    gst_rec halves[] = {{GST_REC_NVTX_RANGE, &three_quarters}, {GST_REC_API, &call_of_as_long}};
    t = load_gst(0, halves, 2, &err);
    CHECK(t == NULL);
    CHECK(strstr(err.msg, "durations add up to more than 2.28 years") != NULL);
    t = load_gst(0, halves, 1, &err);
    CHECK(t != NULL && t->ranges.n == 1);
    gs_trace_delete(t);
    gst_nvtx_range r = {0, 1000, 1, 1, 0, 0, 0};
    gst_api c1 = {0, 900, 1, 1, 0, -1, 0, 0};
    gst_api c2 = {100, 1000, 1, 1, 0, -1, 0, 0};
    /* Overlapping calls in a range: a negative self time, as before, within bounds. */
    gst_rec overlapping[] = {{GST_REC_NVTX_RANGE, &r}, {GST_REC_API, &c1}, {GST_REC_API, &c2}};
    t = load_gst(0, overlapping, 3, &err);
    CHECK(t && t->ranges.n == 1);
    if (t && t->ranges.n == 1)
        CHECK_INT(t->ranges.v[0].self_ns, 1000 - 900 - 900);
    gs_trace_delete(t);
    /* Times are bounded with the clock origin added: 2^61 past an origin of 2^62 - 1 is not. */
    gst_nvtx_range late = {(gs_ns)1 << 61, ((gs_ns)1 << 61) + 1, 1, 1, 0, 0, 0};
    gst_rec one[] = {{GST_REC_NVTX_RANGE, &late}};
    t = load_gst(GS_TIME_MAX, one, 1, &err);
    CHECK(t && t->ranges.n == 0 && t->lost[GS_LOSS_TIME_RANGE] == 1);
    gs_trace_delete(t);
    t = load_gst(I64_MAX, one, 1, &err);
    CHECK(t == NULL && err.code == GS_EXIT_INPUT);
    CHECK(strstr(err.msg, "clock origin 9223372036854775807 ns is out of range") != NULL);
}

/* A trace of `count` events of 1 PiB each: copies, then allocator records from the
 * `copies`-th on. */
static char *events_json(int count, int copies)
{
    size_t cap = (size_t)count * 160 + 64, n = 0;
    char *json = malloc(cap);
    if (!json)
        abort();
    n += (size_t)snprintf(json + n, cap - n, "{\"traceEvents\": [");
    static const char copy[] = "%s{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"c\", "
                               "\"ts\": %d, \"dur\": 1, \"args\": {\"bytes\": 1125899906842624}}";
    static const char record[] = "%s{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"name\": "
                                 "\"[memory]\", \"ts\": %d, \"args\": {\"Bytes\": "
                                 "1125899906842624}}";
    for (int i = 0; i < count; i++)
        n += (size_t)snprintf(json + n, cap - n, i < copies ? copy : record, i ? "," : "", i);
    snprintf(json + n, cap - n, "]}");
    return json;
}

/* Sizes: allocations, allocator totals and copies within +-2^50 bytes are kept (sums of them
 * overflowed the memory view), beyond it skipped; a GPU's memory beyond it becomes unknown; sizes
 * adding up past 2^60 refuse the trace. */
static void test_sizes(void)
{
    static const char json[] =
        "{\"traceEvents\": ["
        "{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"name\": \"[memory]\", \"pid\": 1, "
        "\"tid\": 1, \"ts\": 1, \"args\": {\"Bytes\": 1125899906842624, \"Total Allocated\": "
        "1125899906842624}},"
        "{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"name\": \"[memory]\", \"pid\": 1, "
        "\"tid\": 1, \"ts\": 2, \"args\": {\"Bytes\": 1125899906842625}},"
        "{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"name\": \"[memory]\", \"pid\": 1, "
        "\"tid\": 1, \"ts\": 3, \"args\": {\"Bytes\": -5, \"Total Reserved\": "
        "9223372036854775807}},"
        "{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD\", \"pid\": 0, \"tid\": 7, "
        "\"ts\": 1, \"dur\": 1, \"args\": {\"bytes\": 9223372036854775807}},"
        "{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy DtoH\", \"pid\": 0, \"tid\": 7, "
        "\"ts\": 3, \"dur\": 1, \"args\": {\"bytes\": 1125899906842624}}"
        "], \"deviceProperties\": [{\"id\": 0, \"totalGlobalMem\": 9223372036854775807}]}";
    gs_error err;
    gs_trace *t = load_json(json, &err);
    CHECK(t != NULL);
    if (!t)
        return;
    CHECK_INT(t->mem_events.n, 1);
    CHECK_INT(t->memops.n, 1);
    CHECK_INT(t->lost[GS_LOSS_SIZE_RANGE], 3);
    CHECK(t->devices.n == 1 && t->devices.v[0].total_memory == 0);
    gs_trace_delete(t);
    /* 1025 copies of 1 PiB: each fits, not their sum. */
    char *many = events_json(1025, 1025);
    t = load_json(many, &err);
    CHECK(t == NULL);
    CHECK_STR(err.msg, "t.json: the allocations and copies add up to more than 1 EiB (2^60 bytes): "
                       "more than any totals gpuscope keeps can hold");
    free(many);
    /* Copies and allocator records are checked on two threads: 600 PiB each, past 1 EiB
     * together. */
    many = events_json(1200, 600);
    t = load_json(many, &err);
    CHECK(t == NULL);
    CHECK(strstr(err.msg, "add up to more than 1 EiB") != NULL);
    free(many);
}

static void test_note(void)
{
    char buf[256];
    uint64_t none[GS_LOSS__COUNT] = {0};
    CHECK_STR(gs_loss_note(none, buf, sizeof buf), "");
    uint64_t one[GS_LOSS__COUNT] = {[GS_LOSS_TORN_CHUNK] = 1};
    CHECK_STR(gs_loss_note(one, buf, sizeof buf), "1 event skipped (1 in a torn .gst chunk)");
    uint64_t two[GS_LOSS__COUNT] = {[GS_LOSS_DROPPED] = 10, [GS_LOSS_TIME_RANGE] = 2};
    CHECK_STR(gs_loss_note(two, buf, sizeof buf),
              "12 events skipped (10 dropped by the collector, 2 with a time out of range)");
    CHECK_STR(gs_loss_note(two, buf, 12), "12 events s");
    uint64_t huge[GS_LOSS__COUNT] = {UINT64_MAX, 5};
    CHECK(gs_loss_total(huge) == UINT64_MAX);
    CHECK_STR(gs_loss_key(GS_LOSS_NEGATIVE_DURATION), "negative_duration");
}

int main(void)
{
    test_kineto_times();
    test_gst_times();
    test_sizes();
    test_note();
    return check_done("test_trace_check");
}
