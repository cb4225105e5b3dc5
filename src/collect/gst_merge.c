#include "collect/gst_merge.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/gst_writer.h"

#define OUT_BUFFER (4u << 20)

/* One input's strings, kept only to resolve the text of its notes. */
typedef struct string_def {
    uint32_t id;
    size_t at, len; /* in `bytes` */
} string_def;

typedef struct note_ref {
    uint32_t text_id, source;
    uint64_t dropped;
    int64_t overhead_ns;
} note_ref;

typedef struct merge {
    gst_writer w;
    gs_merge_stats *stats;
    gs_error *err;
    const char *path; /* the input being read */
    uint32_t base;    /* added to this input's string ids */
    uint32_t max_id;  /* the largest string id this input uses */
    uint8_t *chunk;
    size_t chunk_cap;
    string_def *defs;
    size_t ndefs, defs_cap;
    char *bytes;
    size_t nbytes, bytes_cap;
    note_ref *notes;
    size_t nnotes, notes_cap;
    uint64_t torn_records; /* in this input's torn last chunk, as its header declares */
    bool torn;             /* this input ends inside a chunk of records, counted torn */
    bool has_process;      /* this input is a process's file: it has a PROCESS record */
    bool ended;            /* its last chunk so far is an end marker */
} merge;

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t cap2 = *cap ? *cap * 2 : 64;
    while (cap2 < need)
        cap2 *= 2;
    void *q = realloc(*p, cap2 * size);
    if (!q)
        return -1;
    *p = q;
    *cap = cap2;
    return 0;
}

static uint32_t renumber(merge *m, uint8_t *field)
{
    uint32_t id = gst_get_u32(field);
    if (id == 0)
        return 0;
    if (id > m->max_id)
        m->max_id = id;
    gst_put_u32(field, id + m->base);
    return id;
}

static int keep_string(merge *m, const uint8_t *payload, size_t payload_size)
{
    const gst_layout *l = gst_layout_of(GST_REC_STRING);
    uint32_t id = gst_get_u32(payload), len = gst_get_u32(payload + 8);
    if (len > payload_size - l->payload_size)
        return 0; /* malformed: copied, not kept */
    if (grow((void **)&m->defs, &m->defs_cap, m->ndefs + 1, sizeof *m->defs) != 0 ||
        grow((void **)&m->bytes, &m->bytes_cap, m->nbytes + len, 1) != 0)
        return gs_fail_oom(m->err);
    if (len) /* m->bytes is still NULL before the first non-empty string */
        memcpy(m->bytes + m->nbytes, payload + l->payload_size, len);
    m->defs[m->ndefs++] = (string_def){id, m->nbytes, len};
    m->nbytes += len;
    return 0;
}

static int keep_note(merge *m, const uint8_t *payload)
{
    gst_note n;
    gst_decode(gst_layout_of(GST_REC_NOTE), payload, &n);
    if (grow((void **)&m->notes, &m->notes_cap, m->nnotes + 1, sizeof *m->notes) != 0)
        return gs_fail_oom(m->err);
    m->notes[m->nnotes++] = (note_ref){n.text, n.source, n.records_dropped,
                                       n.overhead_ns > 0 ? n.overhead_ns : 0};
    return 0;
}

/* Renumbers the string ids of one record in place; keeps what notes need. */
static int rewrite_record(merge *m, uint8_t *rec, uint32_t type, size_t size)
{
    const gst_layout *l = gst_layout_of(type);
    if (!l || size - GST_RECORD_HEADER_SIZE < l->payload_size)
        return 0; /* a newer writer's type: copied as it is */
    uint8_t *payload = rec + GST_RECORD_HEADER_SIZE;
    if (type == GST_REC_STRING && keep_string(m, payload, size - GST_RECORD_HEADER_SIZE) != 0)
        return -1;
    if (type == GST_REC_NOTE && keep_note(m, payload) != 0)
        return -1;
    m->has_process |= type == GST_REC_PROCESS;
    uint8_t *field = payload;
    for (unsigned i = 0; i < l->nfields; i++) {
        if (l->fields[i].is_string)
            renumber(m, field);
        field += l->fields[i].width;
    }
    m->stats->records[type]++;
    return 0;
}

static int copy_records(merge *m, const gst_chunk_header *h, long at)
{
    for (size_t pos = 0; pos < h->payload_size;) {
        uint8_t *rec = m->chunk + pos;
        size_t left = h->payload_size - pos;
        uint32_t size = left >= GST_RECORD_HEADER_SIZE ? gst_get_u32(rec + 4) : 0;
        if (size < GST_RECORD_HEADER_SIZE || size > left || size % 8 != 0)
            return gs_fail(m->err, GS_EXIT_INPUT, "%s: byte %ld: corrupt .gst record", m->path,
                           at + (long)pos);
        if (rewrite_record(m, rec, gst_get_u16(rec), size) != 0)
            return -1;
        if (gst_writer_raw(&m->w, rec, size) != 0)
            return gs_fail(m->err, GS_EXIT_ENV, "cannot write the merged trace: %s",
                           strerror(-m->w.error ? -m->w.error : EMSGSIZE));
        pos += size;
    }
    return 0;
}

/* Returns 1 after a chunk, 0 at the end (or at a torn chunk), -1 on error. */
static int copy_chunk(merge *m, FILE *f)
{
    uint8_t hb[GST_CHUNK_HEADER_SIZE];
    long at = ftell(f);
    size_t got = fread(hb, 1, sizeof hb, f);
    if (got == 0)
        return 0;
    gst_chunk_header h;
    gst_decode_chunk_header(hb, &h);
    if (got < sizeof hb) {
        m->stats->torn_files++;
        return 0;
    }
    if (h.magic != GST_CHUNK_MAGIC || h.payload_size > GST_MAX_CHUNK_PAYLOAD)
        return gs_fail(m->err, GS_EXIT_INPUT, "%s: byte %ld: corrupt .gst chunk", m->path, at);
    if (grow((void **)&m->chunk, &m->chunk_cap, h.payload_size, 1) != 0)
        return gs_fail_oom(m->err);
    if (fread(m->chunk, 1, h.payload_size, f) < h.payload_size) {
        m->stats->torn_files++;
        m->torn_records = h.record_count;
        m->torn = h.record_count > 0; /* else (a torn end marker) nothing says it is cut */
        return 0;
    }
    /* An input's end markers are its own: the output gets one of its own at the end. */
    m->ended = h.type == GST_CHUNK_END;
    if (h.type != GST_CHUNK_RECORDS)
        return 1;
    return copy_records(m, &h, at + GST_CHUNK_HEADER_SIZE) == 0 ? 1 : -1;
}

/* Sums that a file may push past their type's range (a hostile or corrupt note): they stop at
 * the largest value instead of overflowing. */
static int64_t add_time(int64_t a, int64_t b)
{
    return b > 0 && a > INT64_MAX - b ? INT64_MAX : a + b;
}

static uint64_t add_count(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static int add_note(gs_merge_stats *st, const char *text, size_t len, const note_ref *n)
{
    for (size_t i = 0; i < st->nnotes; i++) {
        gs_merge_note *e = &st->notes[i];
        if (strlen(e->text) == len && memcmp(e->text, text, len) == 0 && e->source == n->source) {
            e->count++;
            e->records_dropped = add_count(e->records_dropped, n->dropped);
            e->overhead_ns = add_time(e->overhead_ns, n->overhead_ns); /* >= 0: keep_note */
            return 0;
        }
    }
    gs_merge_note *notes = realloc(st->notes, (st->nnotes + 1) * sizeof *notes);
    char *copy = malloc(len + 1);
    if (notes)
        st->notes = notes;
    if (!notes || !copy) {
        free(copy);
        return -1;
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    st->notes[st->nnotes++] = (gs_merge_note){copy, n->source, 1, n->dropped, n->overhead_ns};
    return 0;
}

static int resolve_notes(merge *m)
{
    for (size_t i = 0; i < m->nnotes; i++) {
        const char *text = "";
        size_t len = 0;
        for (size_t j = 0; j < m->ndefs; j++) {
            if (m->defs[j].id == m->notes[i].text_id) {
                text = m->bytes + m->defs[j].at;
                len = m->defs[j].len;
            }
        }
        if (add_note(m->stats, text, len, &m->notes[i]) != 0)
            return gs_fail_oom(m->err);
    }
    m->ndefs = m->nbytes = m->nnotes = 0;
    return 0;
}

static const char torn_text[] = "records of a chunk cut short (the process was killed while "
                                "writing)";

/* The records an input lost in its torn chunk, as a NOTE of the merged file (source MERGE): the
 * reader of the merged file, which sees no torn chunk, still counts them. */
static int note_torn_records(merge *m)
{
    if (!m->torn_records)
        return 0;
    uint32_t id = m->base + ++m->max_id;
    gst_note n = {0, m->torn_records, 0, GST_NOTE_MERGE, id};
    note_ref ref = {id, GST_NOTE_MERGE, m->torn_records};
    m->torn_records = 0;
    if (gst_writer_string(&m->w, id, 0, torn_text, sizeof torn_text - 1) != 0 ||
        gst_writer_add(&m->w, GST_REC_NOTE, &n) != 0)
        return gs_fail(m->err, GS_EXIT_ENV, "cannot write the merged trace: %s",
                       strerror(-m->w.error ? -m->w.error : EMSGSIZE));
    return add_note(m->stats, torn_text, sizeof torn_text - 1, &ref) == 0 ? 0
                                                                          : gs_fail_oom(m->err);
}

static const char cut_text[] = "a process ended before gpuscope finished its trace (killed, or "
                              "left through _exit or exec): what it recorded after its last "
                              "flush is missing";

/* A process's file of version 1.1 or later that stops at a chunk boundary without its end
 * marker, as a NOTE of the merged file (source CUT_SHORT), which itself ends whole: its reader
 * still says that a capture was cut short. The launcher's sampler file has no PROCESS record and
 * is finished before the merge, so only the agent's files are judged. */
static int note_cut_short(merge *m, uint16_t minor)
{
    if (minor < 1 || !m->has_process || m->ended || m->torn)
        return 0;
    uint32_t id = m->base + ++m->max_id;
    gst_note n = {0, 0, 0, GST_NOTE_CUT_SHORT, id};
    note_ref ref = {id, GST_NOTE_CUT_SHORT, 0, 0};
    m->stats->cut_files++;
    if (gst_writer_string(&m->w, id, 0, cut_text, sizeof cut_text - 1) != 0 ||
        gst_writer_add(&m->w, GST_REC_NOTE, &n) != 0)
        return gs_fail(m->err, GS_EXIT_ENV, "cannot write the merged trace: %s",
                       strerror(-m->w.error ? -m->w.error : EMSGSIZE));
    return add_note(m->stats, cut_text, sizeof cut_text - 1, &ref) == 0 ? 0
                                                                        : gs_fail_oom(m->err);
}

static int copy_file(merge *m, const char *path)
{
    m->path = path;
    FILE *f = fopen(path, "rb");
    if (!f)
        return gs_fail(m->err, GS_EXIT_INPUT, "%s: %s", path, strerror(errno));
    uint8_t hb[GST_FILE_HEADER_SIZE];
    int rc = 0;
    size_t got = fread(hb, 1, sizeof hb, f);
    size_t magic_part = got < GST_MAGIC_SIZE ? got : GST_MAGIC_SIZE;
    if (memcmp(hb, GST_MAGIC, magic_part) != 0) {
        rc = gs_fail(m->err, GS_EXIT_INPUT, "%s: not a .gst file", path);
    } else if (got < sizeof hb) {
        m->stats->torn_files++; /* killed before its header was written: nothing to take */
    } else {
        gst_file_header h;
        gst_decode_file_header(hb, &h);
        if (h.version_major != GST_VERSION_MAJOR || h.clock != GST_CLOCK_REALTIME ||
            h.header_size < GST_FILE_HEADER_SIZE || fseek(f, h.header_size, SEEK_SET) != 0)
            rc = gs_fail(m->err, GS_EXIT_INPUT,
                         "%s: a .gst version or clock this merge does not handle", path);
        m->max_id = 0;
        m->torn_records = 0;
        m->torn = m->has_process = m->ended = false;
        int more = rc == 0 ? 1 : -1;
        while (more == 1)
            more = copy_chunk(m, f);
        rc = more < 0 ? -1 : 0;
        if (rc == 0)
            rc = resolve_notes(m);
        if (rc == 0)
            rc = note_torn_records(m);
        if (rc == 0)
            rc = note_cut_short(m, h.version_minor);
        m->base += m->max_id;
    }
    fclose(f);
    return rc;
}

/* The output, opened as gs_gst_merge promises; -1 with err set. */
static int open_output(const char *output, bool replace, gs_error *err)
{
    int flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK;
    int fd = open(output, flags | (replace ? O_TRUNC : O_EXCL), 0644);
    int e = errno;
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        close(fd);
        return gs_fail(err, GS_EXIT_ENV, "%s: not a regular file", output);
    }
    if (fd >= 0 && fcntl(fd, F_SETFL, 0) == 0) /* O_NONBLOCK was against FIFOs only */
        return fd;
    if (fd >= 0) {
        e = errno;
        close(fd);
    }
    if (e == EEXIST)
        return gs_fail(err, GS_EXIT_ENV, "%s exists (--force overwrites it)", output);
    if (e == ELOOP)
        return gs_fail(err, GS_EXIT_ENV, "%s is a symbolic link: no trace is written through one",
                       output);
    return gs_fail(err, GS_EXIT_ENV, "%s: %s", output, strerror(e));
}

int gs_gst_merge(const char *const *inputs, size_t n, const char *output, bool replace,
                 gs_merge_stats *stats, gs_error *err)
{
    memset(stats, 0, sizeof *stats);
    merge m = {.stats = stats, .err = err};
    int fd = open_output(output, replace, err);
    if (fd < 0)
        return -1;
    uint8_t *buf = malloc(OUT_BUFFER);
    if (!buf) {
        close(fd);
        return gs_fail_oom(err);
    }
    int rc = gst_writer_open(&m.w, fd, buf, OUT_BUFFER, GST_CLOCK_REALTIME, 0) == 0 ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = copy_file(&m, inputs[i]);
    if (rc == 0 && gst_writer_end(&m.w) != 0)
        rc = -1;
    if (rc != 0 && m.w.error)
        gs_fail(err, GS_EXIT_ENV, "%s: %s", output, strerror(-m.w.error));
    off_t end = lseek(fd, 0, SEEK_END);
    stats->bytes_written = end > 0 ? (uint64_t)end : 0;
    if (close(fd) != 0 && rc == 0)
        rc = gs_fail(err, GS_EXIT_ENV, "%s: %s", output, strerror(errno));
    free(buf);
    free(m.chunk);
    free(m.defs);
    free(m.bytes);
    free(m.notes);
    return rc;
}

void gs_merge_stats_free(gs_merge_stats *stats)
{
    for (size_t i = 0; i < stats->nnotes; i++)
        free(stats->notes[i].text);
    free(stats->notes);
    stats->notes = NULL;
    stats->nnotes = 0;
}
