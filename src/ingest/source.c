#include "ingest/source.h"

#include "ingest/inflate_thread.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

struct gs_source {
    char *name;
    int fd;    /* a plain file, -1 otherwise */
    gzFile gz; /* a gzip file, inflated by `inflater` on another core */
    inflate_thread *inflater;
    bool is_gzip;
    uint64_t file_size;
    const char *mem;
    size_t mem_size, mem_pos;
    uint64_t file_pos; /* bytes read from a plain file */
};

static gs_source *source_new(const char *name, gs_error *err)
{
    gs_source *s = calloc(1, sizeof *s);
    if (s) {
        s->name = strdup(name);
        s->fd = -1;
    }
    if (!s || !s->name) {
        free(s);
        gs_fail_oom(err);
        return NULL;
    }
    return s;
}

gs_source *gs_source_open(const char *path, gs_error *err)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        gs_fail(err, GS_EXIT_INPUT, "%s: %s", path, strerror(errno));
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        gs_fail(err, GS_EXIT_INPUT, "%s: is a directory", path);
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        gs_fail(err, GS_EXIT_INPUT, "%s: %s", path, strerror(errno));
        return NULL;
    }
    unsigned char magic[2] = {0, 0};
    size_t got = fread(magic, 1, 2, f);
    fclose(f);
    gs_source *s = source_new(path, err);
    if (!s)
        return NULL;
    s->is_gzip = got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    s->file_size = (uint64_t)st.st_size;
    /* Plain files are read straight into the scanner's window: no copy through zlib. */
    if (s->is_gzip) {
        s->gz = gzopen(path, "rb");
        if (s->gz) {
            gzbuffer(s->gz, 1 << 18);
            s->inflater = inflate_thread_start(s->gz);
            if (!s->inflater) {
                gs_fail_oom(err);
                gs_source_close(s);
                return NULL;
            }
        }
    } else {
        s->fd = open(path, O_RDONLY | O_CLOEXEC);
    }
    if (!s->gz && s->fd < 0) {
        gs_fail(err, GS_EXIT_INPUT, "%s: %s", path, errno ? strerror(errno) : "cannot open");
        gs_source_close(s);
        return NULL;
    }
    return s;
}

gs_source *gs_source_memory(const char *data, size_t size, const char *name, gs_error *err)
{
    gs_source *s = source_new(name, err);
    if (s) {
        s->mem = data;
        s->mem_size = size;
        s->file_size = size;
    }
    return s;
}

void gs_source_close(gs_source *s)
{
    if (!s)
        return;
    inflate_thread_stop(s->inflater);
    if (s->gz)
        gzclose(s->gz);
    if (s->fd >= 0)
        close(s->fd);
    free(s->name);
    free(s);
}

ssize_t gs_source_read(gs_source *s, char *buf, size_t n, gs_error *err)
{
    if (s->fd >= 0) {
        ssize_t got;
        do
            got = read(s->fd, buf, n);
        while (got < 0 && errno == EINTR);
        if (got < 0)
            return gs_fail(err, GS_EXIT_INPUT, "%s: %s", s->name, strerror(errno));
        s->file_pos += (uint64_t)got;
        return got;
    }
    if (!s->gz) {
        size_t left = s->mem_size - s->mem_pos;
        if (n > left)
            n = left;
        memcpy(buf, s->mem + s->mem_pos, n);
        s->mem_pos += n;
        return (ssize_t)n;
    }
    if (n > (1u << 30))
        n = 1u << 30;
    int zerr;
    const char *msg;
    int got = inflate_thread_read(s->inflater, buf, n, &zerr, &msg);
    if (got >= 0)
        return got;
    /* zlib reports a gzip stream that stops early as Z_BUF_ERROR "unexpected end of file". */
    if (zerr == Z_BUF_ERROR)
        return gs_fail(err, GS_EXIT_INPUT, "%s: byte %llu: truncated gzip stream", s->name,
                       (unsigned long long)s->file_size);
    size_t name_len = strlen(s->name); /* zlib's message repeats the path: drop it */
    if (!strncmp(msg, s->name, name_len) && !strncmp(msg + name_len, ": ", 2))
        msg += name_len + 2;
    return gs_fail(err, GS_EXIT_INPUT, "%s: byte %llu: gzip: %s", s->name,
                   (unsigned long long)inflate_thread_file_offset(s->inflater), msg);
}

const char *gs_source_name(const gs_source *s)
{
    return s->name;
}

bool gs_source_is_gzip(const gs_source *s)
{
    return s->is_gzip;
}

uint64_t gs_source_file_offset(const gs_source *s)
{
    if (s->inflater)
        return inflate_thread_file_offset(s->inflater);
    return s->fd >= 0 ? s->file_pos : s->mem_pos;
}

uint64_t gs_source_file_size(const gs_source *s)
{
    return s->file_size;
}
