#include "common/gst_writer.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

static int write_all(gst_writer *w, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t got = write(w->fd, p, n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            w->error = got < 0 ? -errno : -EIO;
            return w->error;
        }
        p += got;
        n -= (size_t)got;
    }
    return 0;
}

int gst_writer_open(gst_writer *w, int fd, void *buf, size_t cap, uint32_t clock,
                    int64_t epoch_ns)
{
    memset(w, 0, sizeof *w);
    w->fd = fd;
    w->buf = buf;
    w->cap = cap;
    w->used = GST_CHUNK_HEADER_SIZE;
    /* A chunk's size must fit its u32 field; a larger buffer would only waste memory. */
    if (!buf || cap < GST_WRITER_MIN_BUFFER || cap - GST_CHUNK_HEADER_SIZE > GST_MAX_CHUNK_PAYLOAD)
        return w->error = -EINVAL;
    gst_file_header h = {GST_VERSION_MAJOR, GST_VERSION_MINOR, GST_FILE_HEADER_SIZE, clock, 0,
                         epoch_ns};
    uint8_t out[GST_FILE_HEADER_SIZE];
    gst_encode_file_header(&h, out);
    return write_all(w, out, sizeof out);
}

int gst_writer_flush(gst_writer *w)
{
    if (w->error)
        return w->error;
    if (w->records == 0)
        return 0;
    int fd = w->fd_check ? w->fd_check(w->fd_check_ctx, w->fd) : w->fd;
    if (fd < 0) {
        w->records_dropped += w->records;
        w->used = GST_CHUNK_HEADER_SIZE;
        w->records = 0;
        return 0;
    }
    w->fd = fd;
    gst_chunk_header h = {GST_CHUNK_MAGIC, GST_CHUNK_RECORDS, 0,
                          (uint32_t)(w->used - GST_CHUNK_HEADER_SIZE), w->records};
    gst_encode_chunk_header(&h, w->buf);
    int rc = write_all(w, w->buf, w->used);
    /* The chunk is dropped even when the write failed: the file is broken from here on and
     * w->error keeps every later call from writing after a torn chunk. */
    if (rc == 0) {
        w->chunks_written++;
        w->records_written += w->records;
    }
    w->used = GST_CHUNK_HEADER_SIZE;
    w->records = 0;
    return rc;
}

int gst_writer_end(gst_writer *w)
{
    int rc = gst_writer_flush(w);
    if (rc != 0)
        return rc;
    uint8_t end[GST_CHUNK_HEADER_SIZE + GST_END_PAYLOAD_SIZE];
    gst_chunk_header h = {GST_CHUNK_MAGIC, GST_CHUNK_END, 0, GST_END_PAYLOAD_SIZE, 0};
    gst_encode_chunk_header(&h, end);
    gst_put_u64(end + GST_CHUNK_HEADER_SIZE, w->chunks_written);
    gst_put_u64(end + GST_CHUNK_HEADER_SIZE + 8, w->records_written);
    int fd = w->fd_check ? w->fd_check(w->fd_check_ctx, w->fd) : w->fd;
    if (fd < 0)
        return 0; /* the file is out of reach: it stays without its end, as a cut one */
    w->fd = fd;
    return write_all(w, end, sizeof end);
}

/* Room for a record of `size` bytes in the current chunk, flushing it first when full. */
static uint8_t *reserve(gst_writer *w, size_t size)
{
    if (w->error)
        return NULL;
    if (size > w->cap - GST_CHUNK_HEADER_SIZE)
        return NULL; /* too big for any chunk: refused, but the writer stays usable */
    if (w->used + size > w->cap && gst_writer_flush(w) != 0)
        return NULL;
    uint8_t *p = w->buf + w->used;
    w->used += size;
    w->records++;
    return p;
}

static void put_record_header(uint8_t *p, uint32_t type, size_t size)
{
    gst_put_u16(p, (uint16_t)type);
    gst_put_u16(p + 2, 0);
    gst_put_u32(p + 4, (uint32_t)size);
}

int gst_writer_add(gst_writer *w, uint32_t type, const void *rec)
{
    const gst_layout *l = gst_layout_of(type);
    if (!l || type == GST_REC_STRING || !rec)
        return w->error ? w->error : -EINVAL;
    size_t size = GST_RECORD_HEADER_SIZE + l->payload_size;
    uint8_t *p = reserve(w, size);
    if (!p)
        return w->error;
    put_record_header(p, type, size);
    gst_encode(l, rec, p + GST_RECORD_HEADER_SIZE);
    return 0;
}

int gst_writer_string(gst_writer *w, gst_strid id, gst_strid domain, const char *bytes,
                      size_t len)
{
    if (id == 0 || (len > 0 && !bytes))
        return w->error ? w->error : -EINVAL;
    const gst_layout *l = gst_layout_of(GST_REC_STRING);
    size_t fixed = GST_RECORD_HEADER_SIZE + l->payload_size;
    size_t size = (fixed + len + 7) & ~(size_t)7; /* keeps the next record 8-byte aligned */
    if (len > w->cap)
        return w->error ? w->error : -EMSGSIZE;
    uint8_t *p = reserve(w, size);
    if (!p)
        return w->error ? w->error : -EMSGSIZE;
    put_record_header(p, GST_REC_STRING, size);
    gst_string s = {id, domain, (uint32_t)len};
    gst_encode(l, &s, p + GST_RECORD_HEADER_SIZE);
    if (len)
        memcpy(p + fixed, bytes, len);
    memset(p + fixed + len, 0, size - fixed - len);
    return 0;
}

int gst_writer_raw(gst_writer *w, const uint8_t *record, size_t size)
{
    if (size < GST_RECORD_HEADER_SIZE || size % 8 != 0 || !record)
        return w->error ? w->error : -EINVAL;
    uint8_t *p = reserve(w, size);
    if (!p)
        return w->error ? w->error : -EMSGSIZE;
    memcpy(p, record, size);
    return 0;
}
