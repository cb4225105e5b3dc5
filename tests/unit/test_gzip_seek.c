/* A gzip file is a source that can be read at any offset (by inflating up to it) and in chunks
 * on several threads: members one after another, trailing bytes that are not gzip, a stream cut
 * or corrupt in a later member, reads backwards and forwards; and a trace read from a .json.gz in
 * 2 to 8 chunks is the model one thread reads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "common/log.h"
#include "common/strbuf.h"
#include "ingest/load.h"
#include "ingest/source.h"
#include "trace_same.h"

static char dir[] = "/tmp/gs-test-gzip-seek-XXXXXX";

static void append_member(FILE *f, const char *data, size_t n)
{
    unsigned char *out = malloc(n + 1024);
    z_stream z = {0};
    deflateInit2(&z, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY);
    z.next_in = (unsigned char *)data;
    z.avail_in = (unsigned)n;
    z.next_out = out;
    z.avail_out = (unsigned)(n + 1024);
    deflate(&z, Z_FINISH);
    fwrite(out, 1, z.total_out, f);
    deflateEnd(&z);
    free(out);
}

/* content[0..n) written as `members` gzip members, then `tail` (bytes that are not gzip). */
static void write_members(const char *path, const char *content, size_t n, int members,
                          const char *tail)
{
    FILE *f = fopen(path, "wb");
    size_t at = 0;
    for (int m = 0; m < members; m++) {
        size_t end = m + 1 == members ? n : n / (size_t)members * (size_t)(m + 1);
        append_member(f, content + at, end - at);
        at = end;
    }
    fputs(tail, f);
    fclose(f);
}

static char *make_content(size_t n)
{
    char *p = malloc(n);
    for (size_t i = 0; i < n; i++)
        p[i] = (char)('a' + (i * 7 + i / 1000) % 26);
    return p;
}

/* The content of s from `offset` on, up to cap bytes, read through a second source opened there;
 * -1 on an error. */
static long long read_at(gs_source *s, uint64_t offset, char *buf, size_t cap)
{
    gs_error err;
    gs_source *at = gs_source_open_at(s, offset, &err);
    if (!at)
        return -1;
    size_t total = 0;
    ssize_t got = 1;
    while (total < cap && (got = gs_source_read(at, buf + total, cap - total, &err)) > 0)
        total += (size_t)got;
    gs_source_close(at);
    return got < 0 ? -1 : (long long)total;
}

static void test_open_at(void)
{
    const size_t n = 3 << 20;
    char *content = make_content(n);
    char path[128];
    snprintf(path, sizeof path, "%s/m.json.gz", dir);
    write_members(path, content, n, 3, "trailing bytes that are not gzip");
    gs_error err;
    gs_source *s = gs_source_open(path, &err);
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK(gs_source_seekable(s));
    CHECK(gs_source_content_size(s) == 0); /* the trailer is not gzip's: no estimate */
    /* Across members, forwards and back, to the end and past it: each reader opened at an
     * offset reads the content from there, none of the trailing bytes. */
    const uint64_t offsets[] = {5, 1 << 20, (1 << 20) + 70000, n - 10, 300, n / 3 - 2, n / 2};
    char *buf = malloc(n);
    for (size_t i = 0; i < sizeof offsets / sizeof offsets[0]; i++) {
        CHECK_INT(read_at(s, offsets[i], buf, n), (long long)(n - offsets[i]));
        CHECK(memcmp(buf, content + offsets[i], n - offsets[i]) == 0);
    }
    CHECK_INT(read_at(s, n + 5, buf, n), 0);
    free(buf);
    /* The stream itself still reads from the start, all members, none of the trailing bytes. */
    char *whole = malloc(n + 64);
    size_t total = 0;
    ssize_t got;
    while ((got = gs_source_read(s, whole + total, n + 64 - total, &err)) > 0)
        total += (size_t)got;
    CHECK_INT(total, n);
    CHECK(memcmp(whole, content, n) == 0);
    free(whole);
    gs_source_close(s);
    unlink(path);
    free(content);
}

/* Reading on after the inflating thread is told to stop (gs_source_inflate_here): what it had
 * inflated ahead, then the rest inflated here, with no byte lost or repeated; paused before any
 * read, in the middle of the content, and after its end. */
static void test_inflate_here(void)
{
    const size_t n = 9 << 20; /* more than the thread's ring holds ahead */
    char *content = make_content(n);
    char path[128];
    snprintf(path, sizeof path, "%s/here.json.gz", dir);
    write_members(path, content, n, 2, "");
    const size_t pauses[] = {0, 100003, 5 << 20, n};
    char *back = malloc(n + 64);
    for (size_t i = 0; i < sizeof pauses / sizeof pauses[0]; i++) {
        gs_error err;
        gs_source *s = gs_source_open(path, &err);
        CHECK(s != NULL);
        if (!s)
            break;
        size_t total = 0;
        ssize_t got = 1;
        while (total < pauses[i] && got > 0) {
            size_t want = pauses[i] - total < 65536 ? pauses[i] - total : 65536;
            got = gs_source_read(s, back + total, want, &err);
            total += got > 0 ? (size_t)got : 0;
        }
        gs_source_inflate_here(s);
        while ((got = gs_source_read(s, back + total, n + 64 - total, &err)) > 0)
            total += (size_t)got;
        CHECK_INT(got, 0);
        CHECK_INT(total, n);
        CHECK(memcmp(back, content, n) == 0);
        gs_source_close(s);
    }
    free(back);
    unlink(path);
    free(content);
}

/* A member cut short after the cut a chunk starts at: the chunk's reader says so. */
static void test_cut_after_offset(void)
{
    const size_t n = 1 << 20;
    char *content = make_content(n);
    char whole[128], cut[128];
    snprintf(whole, sizeof whole, "%s/w.json.gz", dir);
    snprintf(cut, sizeof cut, "%s/cut.json.gz", dir);
    write_members(whole, content, n, 2, "");
    FILE *f = fopen(whole, "rb");
    char *z = malloc(n);
    size_t zn = fread(z, 1, n, f);
    fclose(f);
    f = fopen(cut, "wb");
    fwrite(z, 1, zn - 100, f);
    fclose(f);
    gs_error err;
    gs_source *w = gs_source_open(whole, &err);
    CHECK(w && gs_source_content_size(w) == n - n / 2); /* the trailer names the last member */
    gs_source_close(w);
    gs_source *s = gs_source_open(cut, &err);
    gs_source *at = s ? gs_source_open_at(s, n / 2 + 10, &err) : NULL;
    CHECK(at != NULL);
    if (at) {
        char buf[65536];
        ssize_t got;
        while ((got = gs_source_read(at, buf, sizeof buf, &err)) > 0)
            ;
        CHECK_INT(got, -1);
        char want[256];
        snprintf(want, sizeof want, "%s: byte %zu: truncated gzip stream", cut, zn - 100);
        CHECK_STR(err.msg, want);
    }
    gs_source_close(at);
    gs_source_close(s);
    unlink(whole);
    unlink(cut);
    free(z);
    free(content);
}

/* A trace of `events` kernels and operators, as Kineto writes it. */
static void write_trace(gs_strbuf *b, int events)
{
    gs_strbuf_appendf(b, "{\"schemaVersion\": 1, \"traceEvents\": [\n");
    for (int i = 0; i < events; i++)
        gs_strbuf_appendf(b, "%s{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"op_%d\", \"pid\": %d, "
                          "\"tid\": 7, \"ts\": %lld, \"dur\": 3, \"args\": {\"stream\": 7, "
                          "\"correlation\": %d}}",
                          i ? ",\n" : "", i % 2 ? "kernel" : "cpu_op", i % 13, i % 2 ? 0 : 100,
                          1000LL + 5LL * i, i);
    gs_strbuf_appendf(b, "\n], \"baseTimeNanoseconds\": 1700000000000000000}");
}

static char chunk_line[512];

static void keep_chunk_line(void *ctx, const char *line)
{
    (void)ctx;
    if (strstr(line, "events read"))
        snprintf(chunk_line, sizeof chunk_line, "%s", line);
}

static void test_chunked_trace(void)
{
    gs_strbuf b;
    gs_strbuf_init(&b);
    write_trace(&b, 40000);
    char path[128];
    snprintf(path, sizeof path, "%s/trace.json.gz", dir);
    write_members(path, b.data, b.len, 1, "");
    gs_trace *one = NULL;
    gs_error err;
    const gs_load_opts single = {.threads = 1};
    CHECK_INT(gs_load_trace(path, &single, &one, &err), 0);
    for (unsigned k = 2; k <= 8; k++) {
        gs_trace *many = NULL;
        const gs_load_opts chunked = {.threads = k};
        chunk_line[0] = 0;
        gs_log_set(GS_LOG_INFO, keep_chunk_line, NULL);
        CHECK_INT(gs_load_trace(path, &chunked, &many, &err), 0);
        gs_log_set(GS_LOG_OFF, NULL, NULL);
        char want[256];
        snprintf(want, sizeof want, "%s: events read in %u chunk(s) on as many threads", path, k);
        CHECK_STR(chunk_line, want);
        const char *why = one && many ? trace_difference(one, many) : "not read";
        if (why)
            fprintf(stderr, "%u chunks: %s\n", k, why);
        CHECK(why == NULL);
        gs_trace_delete(many);
    }
    gs_trace_delete(one);
    unlink(path);
    gs_strbuf_free(&b);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    test_open_at();
    test_cut_after_offset();
    test_chunked_trace();
    test_inflate_here();
    rmdir(dir);
    return check_done("test_gzip_seek");
}
