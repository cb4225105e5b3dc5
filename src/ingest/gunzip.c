#include "ingest/gunzip.h"

#include <errno.h>
#include <isa-l/igzip_lib.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { IN_BUF = 1 << 18 };

enum stream_mode {
    AT_MEMBER_START, /* the first member, or what follows one: gzip, plain bytes or the end */
    IN_MEMBER,
    PLAIN,           /* the stream was not gzip: its bytes as they are */
    ENDED,
    FAILED,
};

struct gs_gunzip {
    int fd;
    bool positional;
    bool input_ended;
    bool truncated;
    bool any_member;
    enum stream_mode mode;
    uint64_t in_pos;  /* bytes of fd read into `in` so far */
    uint64_t out_pos; /* bytes handed out */
    unsigned char *in, *in_next;
    size_t in_avail;
    const char *message;
    struct inflate_state state;
};

gs_gunzip *gs_gunzip_new(int fd, bool positional)
{
    gs_gunzip *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->in = malloc(IN_BUF);
    if (!g->in) {
        free(g);
        return NULL;
    }
    g->fd = fd;
    g->positional = positional;
    g->in_next = g->in;
    return g;
}

void gs_gunzip_free(gs_gunzip *g)
{
    if (!g)
        return;
    free(g->in);
    free(g);
}

static ssize_t fail(gs_gunzip *g, const char *message)
{
    g->mode = FAILED;
    g->message = message;
    return -1;
}

/* More input after what is left in the buffer; false at the end of the file or on an error. */
static bool refill(gs_gunzip *g)
{
    if (g->input_ended)
        return false;
    memmove(g->in, g->in_next, g->in_avail);
    g->in_next = g->in;
    ssize_t got;
    do
        got = g->positional
                  ? pread(g->fd, g->in + g->in_avail, IN_BUF - g->in_avail, (off_t)g->in_pos)
                  : read(g->fd, g->in + g->in_avail, IN_BUF - g->in_avail);
    while (got < 0 && errno == EINTR);
    if (got < 0) {
        g->message = strerror(errno);
        g->mode = FAILED;
        return false;
    }
    if (got == 0)
        g->input_ended = true;
    g->in_pos += (uint64_t)got;
    g->in_avail += (size_t)got;
    return got > 0;
}

/* What follows a member (or starts the stream): another member, plain bytes, or the end. */
static void next_member(gs_gunzip *g)
{
    while (g->in_avail < 2 && refill(g))
        ;
    if (g->mode == FAILED)
        return;
    bool magic = g->in_avail >= 2 && g->in_next[0] == 0x1f && g->in_next[1] == 0x8b;
    if (magic) {
        isal_inflate_init(&g->state);
        g->state.crc_flag = ISAL_GZIP;
        g->mode = IN_MEMBER;
        g->any_member = true;
    } else {
        g->mode = g->any_member || g->in_avail == 0 ? ENDED : PLAIN;
    }
}

static const char *inflate_error(int rc)
{
    switch (rc) {
    case ISAL_INVALID_WRAPPER: return "invalid gzip header";
    case ISAL_UNSUPPORTED_METHOD: return "unknown compression method";
    case ISAL_INCORRECT_CHECKSUM: return "incorrect data check";
    case ISAL_INVALID_LOOKBACK: return "invalid distance too far back";
    case ISAL_INVALID_SYMBOL: return "invalid code";
    default: return "invalid block";
    }
}

/* Inflates into buf from the current member: bytes out, or -1. */
static ssize_t inflate_some(gs_gunzip *g, char *buf, size_t n)
{
    for (;;) {
        if (g->in_avail == 0 && !refill(g) && g->mode == FAILED)
            return -1;
        struct inflate_state *s = &g->state;
        size_t in_before = g->in_avail;
        s->next_in = g->in_next;
        s->avail_in = (uint32_t)g->in_avail;
        s->next_out = (uint8_t *)buf;
        s->avail_out = (uint32_t)n;
        int rc = isal_inflate(s);
        size_t out = n - s->avail_out;
        g->in_next = s->next_in;
        g->in_avail = s->avail_in;
        if (rc < 0)
            return fail(g, inflate_error(rc));
        if (s->block_state == ISAL_BLOCK_FINISH)
            g->mode = AT_MEMBER_START;
        else if (out == 0 && g->in_avail == 0 && g->input_ended) {
            g->truncated = true;
            return fail(g, "unexpected end of file");
        } else if (out == 0 && g->in_avail > 0 && g->in_avail == in_before) {
            return fail(g, "invalid block"); /* neither input taken nor output made */
        }
        if (out > 0 || g->mode != IN_MEMBER)
            return (ssize_t)out;
    }
}

ssize_t gs_gunzip_read(gs_gunzip *g, char *buf, size_t n)
{
    if (n > (1u << 30))
        n = 1u << 30;
    for (;;) {
        switch (g->mode) {
        case AT_MEMBER_START:
            next_member(g);
            continue;
        case IN_MEMBER: {
            ssize_t got = inflate_some(g, buf, n);
            if (got != 0) {
                if (got > 0)
                    g->out_pos += (uint64_t)got;
                return got;
            }
            continue; /* the member ended without more output: what follows it */
        }
        case PLAIN: {
            if (g->in_avail == 0 && !refill(g))
                return g->mode == FAILED ? -1 : 0;
            size_t k = g->in_avail < n ? g->in_avail : n;
            memcpy(buf, g->in_next, k);
            g->in_next += k;
            g->in_avail -= k;
            g->out_pos += k;
            return (ssize_t)k;
        }
        case ENDED:
            return 0;
        case FAILED:
            return -1;
        }
    }
}

int gs_gunzip_skip_to(gs_gunzip *g, uint64_t offset)
{
    char drop[1 << 16];
    while (g->out_pos < offset) {
        uint64_t left = offset - g->out_pos;
        ssize_t got = gs_gunzip_read(g, drop, left < sizeof drop ? (size_t)left : sizeof drop);
        if (got <= 0)
            return got < 0 ? -1 : 1;
    }
    return 0;
}

const char *gs_gunzip_message(const gs_gunzip *g)
{
    return g->message ? g->message : "";
}

bool gs_gunzip_truncated(const gs_gunzip *g)
{
    return g->truncated;
}

uint64_t gs_gunzip_in_offset(const gs_gunzip *g)
{
    return g->in_pos - g->in_avail;
}
