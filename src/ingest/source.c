#include "ingest/source.h"

#include "ingest/inflate_thread.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
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
    bool fd_borrowed; /* a second reader of another source's file (gs_source_open_at): pread */
    gzFile gz; /* a gzip file or a pipe, inflated by `inflater` on another core */
    inflate_thread *inflater;
    bool is_gzip;
    uint64_t file_size; /* 0 for a pipe */
    const char *mem;
    size_t mem_size, mem_pos;
    uint64_t file_pos; /* bytes read from a plain file */
    char head[GS_SOURCE_PEEK_MAX]; /* bytes gs_source_peek took, handed out first */
    size_t head_len, head_pos;
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

/* What a path that is not a file or a pipe is, for the message that refuses it. */
static const char *file_kind(mode_t mode)
{
    if (S_ISCHR(mode))
        return "a character device, not a trace file";
    if (S_ISBLK(mode))
        return "a block device, not a trace file";
    if (S_ISSOCK(mode))
        return "a socket, not a trace file";
    return "not a regular file or a pipe";
}

/* Inflated on another core (ahead), or on this one as bytes are asked for; zlib passes bytes
 * that are not gzip through unchanged. */
static int start_inflater(gs_source *s, int fd, bool ahead, gs_error *err)
{
    s->gz = gzdopen(fd, "rb");
    if (!s->gz) {
        close(fd);
        return gs_fail_oom(err);
    }
    if (!ahead)
        return 0;
    gzbuffer(s->gz, 1 << 18);
    s->inflater = inflate_thread_start(s->gz);
    return s->inflater ? 0 : gs_fail_oom(err);
}

/* How long a FIFO may stay silent before it is taken for one no program writes to. */
#define FIFO_WAIT_MS 5000

/* A FIFO opened before its writer, or with none: wait a while for bytes (or a writer's end),
 * not forever. */
static const char *wait_for_writer(int fd)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int rc;
    do
        rc = poll(&p, 1, FIFO_WAIT_MS);
    while (rc < 0 && errno == EINTR);
    if (rc < 0)
        return strerror(errno);
    return rc == 0 ? "a FIFO nothing was written to in 5 s" : NULL;
}

static gs_source *open_source(const char *path, bool ahead, gs_error *err)
{
    /* One open, and one that cannot block: a FIFO with no writer opens at once instead of
     * hanging in open(), and a fed pipe is read once, through the same descriptor the format
     * is told from. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        gs_fail(err, GS_EXIT_INPUT, "%s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    int flags = fcntl(fd, F_GETFL);
    const char *refusal = NULL;
    if (fstat(fd, &st) != 0 || flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
        refusal = strerror(errno);
    else if (S_ISDIR(st.st_mode))
        refusal = "is a directory";
    else if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
        refusal = file_kind(st.st_mode);
    else if (S_ISFIFO(st.st_mode))
        refusal = wait_for_writer(fd);
    gs_source *s = refusal ? NULL : source_new(path, err);
    if (!s) {
        if (refusal)
            gs_fail(err, GS_EXIT_INPUT, "%s: %s", path, refusal);
        close(fd);
        return NULL;
    }
    unsigned char magic[2] = {0, 0};
    if (S_ISREG(st.st_mode)) {
        s->file_size = (uint64_t)st.st_size;
        s->is_gzip = pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    }
    /* Plain files are read straight into the scanner's window: no copy through zlib. A pipe
     * cannot be looked into without consuming it, so zlib reads it, gzip or not. */
    if (S_ISREG(st.st_mode) && !s->is_gzip) {
        s->fd = fd;
    } else if (start_inflater(s, fd, ahead, err) != 0) {
        gs_source_close(s);
        return NULL;
    }
    return s;
}

gs_source *gs_source_open(const char *path, gs_error *err)
{
    return open_source(path, true, err);
}

gs_source *gs_source_open_head(const char *path, gs_error *err)
{
    return open_source(path, false, err);
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
    if (s->fd >= 0 && !s->fd_borrowed)
        close(s->fd);
    free(s->name);
    free(s);
}

/* The bytes of the underlying stream, past what gs_source_peek keeps. */
static ssize_t read_stream(gs_source *s, char *buf, size_t n, gs_error *err);

ssize_t gs_source_read(gs_source *s, char *buf, size_t n, gs_error *err)
{
    if (s->head_pos < s->head_len) {
        size_t k = s->head_len - s->head_pos < n ? s->head_len - s->head_pos : n;
        memcpy(buf, s->head + s->head_pos, k);
        s->head_pos += k;
        return (ssize_t)k;
    }
    return read_stream(s, buf, n, err);
}

ssize_t gs_source_peek(gs_source *s, char *buf, size_t n, gs_error *err)
{
    if (n > GS_SOURCE_PEEK_MAX)
        n = GS_SOURCE_PEEK_MAX;
    while (s->head_len < n) {
        ssize_t got = read_stream(s, s->head + s->head_len, n - s->head_len, err);
        if (got < 0)
            return -1;
        if (got == 0)
            break;
        s->head_len += (size_t)got;
    }
    size_t k = s->head_len < n ? s->head_len : n;
    memcpy(buf, s->head, k);
    return (ssize_t)k;
}

static ssize_t read_stream(gs_source *s, char *buf, size_t n, gs_error *err)
{
    if (s->fd >= 0) {
        ssize_t got;
        do
            got = s->fd_borrowed ? pread(s->fd, buf, n, (off_t)s->file_pos) : read(s->fd, buf, n);
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
    int zerr = Z_OK;
    const char *msg;
    int got = s->inflater ? inflate_thread_read(s->inflater, buf, n, &zerr, &msg)
                          : gzread(s->gz, buf, (unsigned)n);
    if (got < 0 && !s->inflater)
        msg = gzerror(s->gz, &zerr);
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
                   (unsigned long long)gs_source_file_offset(s), msg);
}

bool gs_source_seekable(const gs_source *s)
{
    return !s->gz;
}

ssize_t gs_source_pread(const gs_source *s, char *buf, size_t n, uint64_t offset, gs_error *err)
{
    if (s->fd < 0) {
        size_t left = offset < s->mem_size ? s->mem_size - (size_t)offset : 0;
        if (n > left)
            n = left;
        memcpy(buf, s->mem + offset, n);
        return (ssize_t)n;
    }
    ssize_t got;
    do
        got = pread(s->fd, buf, n, (off_t)offset);
    while (got < 0 && errno == EINTR);
    if (got < 0)
        return gs_fail(err, GS_EXIT_INPUT, "%s: %s", s->name, strerror(errno));
    return got;
}

gs_source *gs_source_open_at(const gs_source *s, uint64_t offset, gs_error *err)
{
    gs_source *at = source_new(s->name, err);
    if (!at)
        return NULL;
    at->file_size = s->file_size;
    if (s->fd >= 0) {
        at->fd = s->fd;
        at->fd_borrowed = true;
        at->file_pos = offset;
    } else {
        at->mem = s->mem;
        at->mem_size = s->mem_size;
        at->mem_pos = offset < s->mem_size ? (size_t)offset : s->mem_size;
    }
    return at;
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
    if (s->gz)
        return (uint64_t)gzoffset(s->gz);
    return s->fd >= 0 ? s->file_pos : s->mem_pos;
}

uint64_t gs_source_file_size(const gs_source *s)
{
    return s->file_size;
}
