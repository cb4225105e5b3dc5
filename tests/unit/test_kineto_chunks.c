/* Reading one trace in chunks on several threads gives exactly the model one thread gives: on
 * traces written here to trip the cut finder (text that looks like an event boundary inside a
 * name and inside an event, text pids, negative pids, broken files) and on the real traces of
 * ../shared/traces when present, each inflated and read with 1 to 8 chunks. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "check.h"
#include "common/log.h"
#include "common/strbuf.h"
#include "ingest/load.h"
#include "trace_same.h"

typedef struct loaded {
    int rc;
    gs_trace *t;
    gs_error err;
} loaded;

static loaded load(const char *data, size_t size, unsigned threads)
{
    loaded l = {0};
    const gs_load_opts opts = {.threads = threads};
    l.rc = gs_load_trace_buffer(data, size, "chunks_rank2.json", &opts, &l.t, &l.err);
    return l;
}

/* Reads data with one thread and with 2..8 chunks; each must match the one-thread result: the
 * same model, or the same error. Returns how many readings differed. */
static int same_with_chunks(const char *what, const char *data, size_t size)
{
    loaded one = load(data, size, 1);
    int differ = 0;
    for (unsigned n = 2; n <= 8; n++) {
        loaded many = load(data, size, n);
        const char *why = NULL;
        if (one.rc != many.rc)
            why = "one read fails, the other does not";
        else if (one.rc != 0 && strcmp(one.err.msg, many.err.msg) != 0)
            why = many.err.msg;
        else if (one.rc == 0)
            why = trace_difference(one.t, many.t);
        if (why) {
            fprintf(stderr, "%s, %u chunks: %s\n", what, n, why);
            differ++;
        }
        gs_trace_delete(many.t);
    }
    gs_trace_delete(one.t);
    return differ;
}

/* A trace of `events` events: operators with text and numeric pids, runtime calls, kernels,
 * copies, memory records, and (every `trap` events) something that looks like a cut. */
static void write_trace(gs_strbuf *b, int events, int trap, const char *tail)
{
    gs_strbuf_appendf(b, "{\"schemaVersion\": 1, \"traceEvents\": [\n");
    for (int i = 0; i < events; i++) {
        const char *sep = i ? ",\n" : "";
        long long ts = 1000 + 10LL * i;
        switch (i % 6) {
        case 0:
            gs_strbuf_appendf(b, "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::op%d\", "
                              "\"pid\": %s, \"tid\": 7, \"ts\": %lld, \"dur\": 8, \"args\": "
                              "{\"External id\": %d, \"Input Dims\": [[%d, 3]]}}",
                              sep, i % 17, i % 12 ? "100" : "\"Spans\"", ts, i, i % 5);
            break;
        case 1:
            gs_strbuf_appendf(b, "%s{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": "
                              "\"cudaLaunchKernel\", \"pid\": 100, \"tid\": \"stream 7 x%d\", "
                              "\"ts\": %lld, \"dur\": 3, \"args\": {\"correlation\": %d}}",
                              sep, i % 3, ts, i);
            break;
        case 2:
            gs_strbuf_appendf(b, "%s{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k%d\", "
                              "\"pid\": 0, \"tid\": 7, \"ts\": %lld, \"dur\": 5, \"args\": "
                              "{\"device\": 0, \"stream\": 7, \"correlation\": %d, "
                              "\"grid\": [1, 2, 3]}}",
                              sep, i % 29, ts + 4, i - 1);
            break;
        case 3:
            gs_strbuf_appendf(b, "%s{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": "
                              "\"Memcpy HtoD (Pinned -> Device)\", \"pid\": 0, \"tid\": 7, "
                              "\"ts\": %lld, \"dur\": 2, \"args\": {\"bytes\": 64}}",
                              sep, ts);
            break;
        case 4:
            gs_strbuf_appendf(b, "%s{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"name\": "
                              "\"[memory]\", \"pid\": 100, \"tid\": 7, \"ts\": %lld, \"s\": \"t\", "
                              "\"args\": {\"Device Type\": 1, \"Device Id\": 0, \"Addr\": %d, "
                              "\"Bytes\": 512, \"Total Allocated\": 1024}}",
                              sep, ts, i);
            break;
        default:
            if (trap && i % trap == 5) /* an array of objects inside an event: `}, {"` */
                gs_strbuf_appendf(b, "%s{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": "
                                  "\"x}, {\\\"y\", \"pid\": 100, \"tid\": 7, \"ts\": %lld, "
                                  "\"dur\": 1, \"args\": {\"list\": [{\"a\": 1}, {\"b\": 2}, "
                                  "{\"c\": 3}]}}",
                                  sep, ts);
            else
                gs_strbuf_appendf(b, "%s{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": "
                                  "\"ProfilerStep#%d\", \"pid\": 100, \"tid\": 7, \"ts\": %lld, "
                                  "\"dur\": 9}",
                                  sep, i, ts);
        }
    }
    gs_strbuf_appendf(b, "\n]%s", tail);
}

static void test_synthetic(void)
{
    static const struct {
        const char *what;
        int events, trap;
        const char *tail;
    } cases[] = {
        {"plain", 3000, 0, ", \"baseTimeNanoseconds\": 1700000000000000000}"},
        {"boundaries inside events", 3000, 1, ", \"deviceProperties\": [{\"id\": 0}, {\"id\": 1}]}"},
        {"tiny", 7, 1, "}"},
        {"truncated after the array", 3000, 0, ", \"traceName\": \"x"},
        {"no end", 3000, 0, ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gs_strbuf b;
        gs_strbuf_init(&b);
        write_trace(&b, cases[i].events, cases[i].trap, cases[i].tail);
        CHECK_INT(same_with_chunks(cases[i].what, b.data, b.len), 0);
        /* Cut short anywhere: the error, or the model, is the one-thread reader's. */
        for (size_t cut = b.len / 3; cut < b.len; cut += b.len / 5)
            CHECK_INT(same_with_chunks(cases[i].what, b.data, cut), 0);
        gs_strbuf_free(&b);
    }
}

static char last_chunk_line[512];

static void keep_chunk_line(void *ctx, const char *line)
{
    (void)ctx;
    if (strstr(line, "events read"))
        snprintf(last_chunk_line, sizeof last_chunk_line, "%s", line);
}

/* The cuts are used, not only checked: on a trace without traps every chunk is read on its
 * own thread; with an array of objects in every sixth event, some cuts fall inside events. */
static void test_cuts_used(void)
{
    gs_strbuf b;
    gs_strbuf_init(&b);
    write_trace(&b, 3000, 0, "}");
    gs_log_set(GS_LOG_INFO, keep_chunk_line, NULL);
    loaded l = load(b.data, b.len, 4);
    CHECK_STR(last_chunk_line, "chunks_rank2.json: events read in 4 chunk(s) on as many threads");
    gs_trace_delete(l.t);
    gs_log_set(GS_LOG_OFF, NULL, NULL);
    gs_strbuf_free(&b);
}

/* `count` small operators from timestamp ts on, each after a comma but the first when first. */
static void write_ops(gs_strbuf *b, int count, long long ts, bool first)
{
    for (int i = 0; i < count; i++)
        gs_strbuf_appendf(b, "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::op%d\", "
                          "\"pid\": 100, \"tid\": 7, \"ts\": %lld, \"dur\": 8}",
                          first && !i ? "" : ",\n", i % 13, ts + 10LL * i);
}

/* An annotation whose name is `len` bytes with no event boundary in them. */
static void write_long_event(gs_strbuf *b, size_t len, long long ts)
{
    gs_strbuf_appendf(b, ",\n{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"");
    for (size_t i = 0; i < len; i++)
        gs_strbuf_appendf(b, "%c", 'a' + (int)(i % 26));
    gs_strbuf_appendf(b, "\", \"pid\": 100, \"tid\": 7, \"ts\": %lld, \"dur\": 1}", ts);
}

/* The chunk line the reader logs on reading data with `threads` chunks. */
static const char *chunk_line(const char *data, size_t size, unsigned threads)
{
    last_chunk_line[0] = 0;
    gs_log_set(GS_LOG_INFO, keep_chunk_line, NULL);
    loaded l = load(data, size, threads);
    gs_log_set(GS_LOG_OFF, NULL, NULL);
    CHECK_INT(l.rc, 0);
    gs_trace_delete(l.t);
    return last_chunk_line;
}

/* A chunk whose part holds no event boundary (all inside one long event) finds no cut: the chunk
 * before it reads on to the next chunk that found one. Of 4 chunks, the second and third fall
 * inside the long event, so the first stops at the fourth's cut. */
static void test_chunk_without_cut(void)
{
    gs_strbuf b;
    gs_strbuf_init(&b);
    gs_strbuf_appendf(&b, "{\"traceEvents\": [\n");
    write_ops(&b, 200, 1000, true);
    write_long_event(&b, 200000, 5000);
    write_ops(&b, 400, 6000, false);
    gs_strbuf_appendf(&b, "\n]}");
    CHECK_STR(chunk_line(b.data, b.len, 4),
              "chunks_rank2.json: events read in 2 chunk(s) on as many threads");
    CHECK_INT(same_with_chunks("a chunk inside one event", b.data, b.len), 0);
    gs_strbuf_free(&b);
}

/* The only event boundary a chunk can find is cut in two by the end of its first read of 64 kB:
 * the '{' at the end of one read, spaces, the '"' in the next. The '{' is kept for the next read,
 * and the chunk starts there. The second of 2 chunks starts inside a long event that is followed
 * by the last one; what follows the array places the chunk's start 64 kB - 100 bytes before that
 * last event's '{', which 200 spaces follow. */
static void test_cut_across_reads(void)
{
    enum { READ = 64 << 10 };
    gs_strbuf b;
    gs_strbuf_init(&b);
    gs_strbuf_appendf(&b, "{\"traceEvents\": [\n");
    size_t start = b.len;
    write_ops(&b, 200, 1000, true);
    write_long_event(&b, 150000, 5000);
    gs_strbuf_appendf(&b, ",\n");
    size_t brace = b.len;
    gs_strbuf_appendf(&b, "{%200s\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"last\", "
                      "\"pid\": 100, \"tid\": 7, \"ts\": 6000, \"dur\": 8}\n], \"pad\": \"", "");
    size_t len = b.len + 2; /* with the closing `"}` */
    size_t want = brace + 100 - READ, pad = 0;
    while (start + (len + pad - start) / 2 < want)
        pad++;
    CHECK(start + (len + pad - start) / 2 == want);
    for (size_t i = 0; i < pad; i++)
        gs_strbuf_appendf(&b, "x");
    gs_strbuf_appendf(&b, "\"}");
    CHECK_STR(chunk_line(b.data, b.len, 2),
              "chunks_rank2.json: events read in 2 chunk(s) on as many threads");
    CHECK_INT(same_with_chunks("a cut across two reads", b.data, b.len), 0);
    gs_strbuf_free(&b);
}

/* A negative pid in the second half: chunks after it cannot be renumbered, so the rest is read
 * on one thread, and still the same. A broken event late in the file: the same error. */
static void test_fallbacks(void)
{
    gs_strbuf b;
    gs_strbuf_init(&b);
    write_trace(&b, 2000, 0, "}");
    char *late = strstr(b.data + b.len * 2 / 3, "\"pid\": 100");
    CHECK(late != NULL);
    if (late) {
        memcpy(late, "\"pid\": -99", 10);
        CHECK_INT(same_with_chunks("negative pid", b.data, b.len), 0);
        memcpy(late, "\"pid\": 1?0", 10);
        CHECK_INT(same_with_chunks("broken number", b.data, b.len), 0);
        loaded l = load(b.data, b.len, 4);
        CHECK(l.rc != 0 && strstr(l.err.msg, "chunks_rank2.json: byte "));
        gs_trace_delete(l.t);
    }
    gs_strbuf_free(&b);
}

/* Kernels, copies and syncs on a tid written as text that is not "stream N" take a stream
 * numbered from that text (a string id): a chunk numbers its strings on its own, so the merge
 * renumbers these streams too. New names and tids keep appearing, so every chunk's ids differ
 * from the trace's. */
static void test_text_streams(void)
{
    gs_strbuf b;
    gs_strbuf_init(&b);
    gs_strbuf_appendf(&b, "{\"traceEvents\": [\n");
    static const char *const cats[] = {"kernel", "gpu_memcpy", "cuda_sync"};
    for (int i = 0; i < 3000; i++)
        gs_strbuf_appendf(&b, "%s{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"k%d\", "
                          "\"pid\": 0, \"tid\": \"queue %d\", \"ts\": %d, \"dur\": 2, "
                          "\"args\": {\"correlation\": %d}}",
                          i ? ",\n" : "", cats[i % 3], i, i / 7, 1000 + 3 * i, i + 1);
    gs_strbuf_appendf(&b, "\n]}");
    CHECK_INT(same_with_chunks("streams named by text tids", b.data, b.len), 0);
    gs_strbuf_free(&b);
}

/* The inflated bytes of a .json.gz, or NULL. */
static char *inflate_file(const char *path, size_t *size)
{
    gzFile gz = gzopen(path, "rb");
    if (!gz)
        return NULL;
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap);
    int got;
    while (buf && (got = gzread(gz, buf + n, (unsigned)(cap - n))) > 0) {
        n += (size_t)got;
        if (n == cap)
            buf = realloc(buf, cap *= 2);
    }
    gzclose(gz);
    *size = n;
    return buf;
}

static int visit(const char *dir, int budget)
{
    DIR *d = opendir(dir);
    if (!d)
        return budget;
    struct dirent *e;
    while (budget > 0 && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = strlen(e->d_name);
        if (len > 8 && !strcmp(e->d_name + len - 8, ".json.gz")) {
            size_t size;
            char *data = inflate_file(path, &size);
            if (data && size < (64u << 20)) {
                CHECK_INT(same_with_chunks(path, data, size), 0);
                budget--;
            }
            free(data);
        } else if (e->d_type == DT_DIR) {
            budget = visit(path, budget);
        }
    }
    closedir(d);
    return budget;
}

static void test_shared_traces(void)
{
    const char *data = getenv("GS_TEST_DATA");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/../../../shared/traces", data ? data : "tests/data");
    DIR *d = opendir(dir);
    if (!d) {
        printf("skip: %s absent, chunked reading checked on the written traces only\n", dir);
        return;
    }
    closedir(d);
    int left = visit(dir, 12);
    printf("chunked reading checked on %d real trace(s)\n", 12 - left);
}

int main(void)
{
    test_synthetic();
    test_fallbacks();
    test_cuts_used();
    test_chunk_without_cut();
    test_cut_across_reads();
    test_text_streams();
    test_shared_traces();
    return check_done("test_kineto_chunks");
}
