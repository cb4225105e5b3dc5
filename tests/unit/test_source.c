/* Byte sources: plain and gzip files (inflated on a second thread) give the same bytes; a cut or
 * corrupt gzip stream is an error naming the file and offset. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "ingest/source.h"

static char dir[] = "/tmp/gs-test-source-XXXXXX";

static char *make_content(size_t n)
{
    char *p = malloc(n);
    for (size_t i = 0; i < n; i++)
        p[i] = (char)('a' + (i * 7 + i / 1000) % 26);
    return p;
}

static void write_file(const char *path, const char *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    fwrite(data, 1, n, f);
    fclose(f);
}

static void write_gzip(const char *path, const char *data, size_t n)
{
    gzFile gz = gzopen(path, "wb6");
    gzwrite(gz, data, (unsigned)n);
    gzclose(gz);
}

/* Reads the whole source in odd-sized pieces; returns bytes read or -1. */
static long long read_all(gs_source *s, char *out, size_t cap, gs_error *err)
{
    size_t total = 0;
    for (;;) {
        size_t want = 777777;
        if (want > cap - total)
            want = cap - total;
        ssize_t got = gs_source_read(s, out + total, want, err);
        if (got < 0)
            return -1;
        if (got == 0)
            return (long long)total;
        total += (size_t)got;
    }
}

static void test_roundtrip(void)
{
    size_t n = 5u << 20; /* several of the inflater's 1 MB blocks */
    char *data = make_content(n), *back = malloc(n + 16);
    char plain[128], gz[128];
    snprintf(plain, sizeof plain, "%s/a.json", dir);
    snprintf(gz, sizeof gz, "%s/a.json.gz", dir);
    write_file(plain, data, n);
    write_gzip(gz, data, n);

    const char *paths[] = {plain, gz};
    for (int i = 0; i < 2; i++) {
        gs_error err = {0};
        gs_source *s = gs_source_open(paths[i], &err);
        CHECK(s != NULL);
        if (!s)
            continue;
        CHECK_INT(gs_source_is_gzip(s), i == 1);
        CHECK_INT(read_all(s, back, n + 16, &err), n);
        CHECK(memcmp(back, data, n) == 0);
        CHECK(gs_source_file_offset(s) == gs_source_file_size(s));
        gs_source_close(s);
    }
    unlink(plain);
    unlink(gz);
    free(data);
    free(back);
}

static void test_bad_gzip(void)
{
    size_t n = 3u << 20;
    char *data = make_content(n), *back = malloc(n);
    char gz[128], cut[128], bad[128];
    snprintf(gz, sizeof gz, "%s/b.json.gz", dir);
    snprintf(cut, sizeof cut, "%s/cut.json.gz", dir);
    snprintf(bad, sizeof bad, "%s/bad.json.gz", dir);
    write_gzip(gz, data, n);
    FILE *f = fopen(gz, "rb");
    char *z = malloc(n);
    size_t zn = fread(z, 1, n, f);
    fclose(f);
    write_file(cut, z, zn / 2);
    char want[256];
    snprintf(want, sizeof want, "%s: byte %zu: truncated gzip stream", cut, zn / 2);
    gs_error err = {0};
    gs_source *s = gs_source_open(cut, &err);
    CHECK_INT(read_all(s, back, n, &err), -1);
    CHECK_STR(err.msg, want);
    CHECK_INT(err.code, GS_EXIT_INPUT);
    gs_source_close(s);

    z[3] = 0x40; /* reserved flag bits: zlib rejects the header */
    z[2] = 99;   /* unknown compression method */
    write_file(bad, z, zn);
    s = gs_source_open(bad, &err);
    CHECK_INT(read_all(s, back, n, &err), -1);
    CHECK(strstr(err.msg, "bad.json.gz: byte ") != NULL);
    CHECK(strstr(err.msg, ": gzip: ") != NULL);
    gs_source_close(s);

    unlink(gz);
    unlink(cut);
    unlink(bad);
    free(z);
    free(data);
    free(back);
}

static void test_missing(void)
{
    gs_error err = {0};
    CHECK(gs_source_open("/nonexistent/x.json", &err) == NULL);
    CHECK_STR(err.msg, "/nonexistent/x.json: No such file or directory");
    CHECK(gs_source_open(dir, &err) == NULL);
    char want[128];
    snprintf(want, sizeof want, "%s: is a directory", dir);
    CHECK_STR(err.msg, want);
}

/* Pipes are read once, gzip or not, through the descriptor they were opened on (the same pipe
 * opened again would be empty); devices are refused rather than read forever. */
static void test_pipes_and_devices(void)
{
    static const char text[] = "{\"traceEvents\": []}";
    gzFile gz = NULL;
    for (int zipped = 0; zipped < 2; zipped++) {
        int p[2];
        CHECK(pipe(p) == 0);
        if (zipped) {
            gz = gzdopen(dup(p[1]), "wb");
            gzwrite(gz, text, sizeof text - 1);
            gzclose(gz);
        } else {
            CHECK(write(p[1], text, sizeof text - 1) == (ssize_t)(sizeof text - 1));
        }
        close(p[1]);
        char path[64], back[64] = "";
        snprintf(path, sizeof path, "/proc/self/fd/%d", p[0]);
        gs_error err = {0};
        gs_source *s = gs_source_open(path, &err);
        CHECK(s != NULL);
        close(p[0]);
        if (!s)
            continue;
        char head[4];
        CHECK_INT(gs_source_peek(s, head, sizeof head, &err), 4);
        CHECK(memcmp(head, "{\"tr", 4) == 0);
        CHECK_INT(read_all(s, back, sizeof back, &err), sizeof text - 1);
        CHECK(memcmp(back, text, sizeof text - 1) == 0);
        gs_source_close(s);
    }
    gs_error err = {0};
    CHECK(gs_source_open("/dev/null", &err) == NULL);
    CHECK_STR(err.msg, "/dev/null: a character device, not a trace file");
    CHECK_INT(err.code, GS_EXIT_INPUT);
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_roundtrip();
    test_bad_gzip();
    test_missing();
    test_pipes_and_devices();
    rmdir(dir);
    return check_done("test_source");
}
