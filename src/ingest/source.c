#include "ingest/source.h"

#include "ingest/gunzip.h"
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

struct gs_source {
    char *name;
    int fd;    /* a plain or gzip file, or a pipe; -1 for memory */
    bool fd_borrowed; /* a second reader of another source's file (gs_source_open_at): pread */
    bool regular;     /* fd is a regular file: it can be read at any offset */
    gs_gunzip *gz;    /* a gzip file or a pipe, inflated by `inflater` on another core or here */
    inflate_thread *inflater;
    uint64_t skip_to;    /* a gzip reader opened at an offset: inflate up to it before reading */
    bool is_gzip;
    uint64_t file_size; /* 0 for a pipe */
    uint64_t content_size; /* gzip: what the file says it inflates to (its last member's size) */
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

/* Inflated on another core (ahead), or on this one as bytes are asked for; bytes that are not
 * gzip pass through unchanged (a pipe of plain JSON). */
static int start_inflater(gs_source *s, bool ahead, gs_error *err)
{
    s->gz = gs_gunzip_new(s->fd, s->regular);
    if (!s->gz)
        return gs_fail_oom(err);
    if (!ahead)
        return 0;
    s->inflater = inflate_thread_start(s->gz);
    return s->inflater ? 0 : gs_fail_oom(err);
}

/* A gzip file's ISIZE trailer: the size of its last member's content modulo 2^32, which is the
 * whole content for the usual single member under 4 GiB; 0 (unknown) where deflate could not
 * have made the file from it (more than 1032 bytes from one, or fewer than it takes: bytes after
 * the last member). An estimate, used only to place the chunks' cuts: a wrong one costs balance,
 * not correctness. */
static uint64_t gzip_content_size(int fd, uint64_t file_size)
{
    unsigned char t[4];
    if (file_size < 18 || pread(fd, t, 4, (off_t)file_size - 4) != 4)
        return 0;
    uint64_t size =
        (uint64_t)t[0] | (uint64_t)t[1] << 8 | (uint64_t)t[2] << 16 | (uint64_t)t[3] << 24;
    return size / 1032 <= file_size && size + 18 >= file_size / 2 ? size : 0;
}

static int open_gzip_file(gs_source *s, bool ahead, gs_error *err)
{
    s->content_size = gzip_content_size(s->fd, s->file_size);
    return start_inflater(s, ahead, err);
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
    s->fd = fd;
    s->regular = S_ISREG(st.st_mode);
    if (s->regular) {
        s->file_size = (uint64_t)st.st_size;
        s->content_size = s->file_size;
        s->is_gzip = pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    }
    /* Plain files are read straight into the scanner's window: no copy through the inflater. A
     * pipe cannot be looked into without consuming it, so the inflater reads it, gzip or not. */
    int rc = 0;
    if (s->is_gzip)
        rc = open_gzip_file(s, ahead, err);
    else if (!s->regular)
        rc = start_inflater(s, ahead, err);
    if (rc != 0) {
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
        s->content_size = size;
    }
    return s;
}

void gs_source_close(gs_source *s)
{
    if (!s)
        return;
    inflate_thread_stop(s->inflater);
    gs_gunzip_free(s->gz);
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

static ssize_t gzip_failed(const gs_source *s, bool truncated, const char *message,
                           gs_error *err)
{
    if (truncated)
        return gs_fail(err, GS_EXIT_INPUT, "%s: byte %llu: truncated gzip stream", s->name,
                       (unsigned long long)s->file_size);
    return gs_fail(err, GS_EXIT_INPUT, "%s: byte %llu: gzip: %s", s->name,
                   (unsigned long long)gs_source_file_offset(s), message);
}

static ssize_t read_gzip(gs_source *s, char *buf, size_t n, gs_error *err)
{
    if (s->inflater) {
        bool truncated = false;
        const char *message = "";
        ssize_t got = inflate_thread_read(s->inflater, buf, n, &truncated, &message);
        if (got != INFLATE_DRAINED)
            return got >= 0 ? got : gzip_failed(s, truncated, message, err);
        inflate_thread_stop(s->inflater); /* paused and read: on with gz, here */
        s->inflater = NULL;
    }
    if (s->skip_to) {
        int rc = gs_gunzip_skip_to(s->gz, s->skip_to);
        s->skip_to = 0;
        if (rc > 0)
            return 0;
        if (rc < 0)
            return gzip_failed(s, gs_gunzip_truncated(s->gz), gs_gunzip_message(s->gz), err);
    }
    ssize_t got = gs_gunzip_read(s->gz, buf, n);
    if (got >= 0)
        return got;
    return gzip_failed(s, gs_gunzip_truncated(s->gz), gs_gunzip_message(s->gz), err);
}

static ssize_t read_stream(gs_source *s, char *buf, size_t n, gs_error *err)
{
    if (s->gz)
        return read_gzip(s, buf, n, err);
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
    size_t left = s->mem_size - s->mem_pos;
    if (n > left)
        n = left;
    memcpy(buf, s->mem + s->mem_pos, n);
    s->mem_pos += n;
    return (ssize_t)n;
}

bool gs_source_seekable(const gs_source *s)
{
    return s->regular || !s->gz;
}

void gs_source_inflate_here(gs_source *s)
{
    if (s->inflater)
        inflate_thread_pause(s->inflater);
}

gs_source *gs_source_open_at(const gs_source *s, uint64_t offset, gs_error *err)
{
    gs_source *at = source_new(s->name, err);
    if (!at)
        return NULL;
    at->file_size = s->file_size;
    at->content_size = s->content_size;
    at->is_gzip = s->is_gzip;
    if (s->fd >= 0) {
        at->fd = s->fd;
        at->fd_borrowed = true;
        at->regular = true;
        at->file_pos = offset;
    } else {
        at->mem = s->mem;
        at->mem_size = s->mem_size;
        at->mem_pos = offset < s->mem_size ? (size_t)offset : s->mem_size;
    }
    if (s->is_gzip) { /* inflated from byte 0 up to `offset` by its first read */
        at->gz = gs_gunzip_new(at->fd, true);
        at->skip_to = offset;
        if (!at->gz) {
            gs_source_close(at);
            gs_fail_oom(err);
            return NULL;
        }
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
        return gs_gunzip_in_offset(s->gz);
    return s->fd >= 0 ? s->file_pos : s->mem_pos;
}

uint64_t gs_source_file_size(const gs_source *s)
{
    return s->file_size;
}

uint64_t gs_source_content_size(const gs_source *s)
{
    return s->content_size;
}
