/* Merging .gst files (src/collect/gst_merge.h): files written by the real writer, each numbering
 * its strings from 1, merged and read back with gs_load_trace. Every name resolves to its own
 * file's text, counts and notes are exact, a file cut anywhere contributes its complete chunks,
 * and bad inputs and outputs fail with the documented exit classes. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "collect/gst_merge.h"
#include "common/gst_writer.h"
#include "ingest/load.h"

static char dir[64];

static const char *path_of(const char *name)
{
    static char paths[8][128];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, sizeof paths[0], "%s/%s", dir, name);
    return p;
}

static int str(gst_writer *w, gst_strid id, gst_strid domain, const char *s)
{
    return gst_writer_string(w, id, domain, s, strlen(s));
}

/* File A: the launched program (pid 100). Some strings before their use, most after. */
static int fill_a(gst_writer *w)
{
    int rc = 0;
    gst_process p = {100, 0, 2, 1, 2};
    gst_thread th = {100, 101, 9};
    rc |= gst_writer_add(w, GST_REC_PROCESS, &p) | gst_writer_add(w, GST_REC_THREAD, &th);
    rc |= str(w, 1, 0, "hostA") | str(w, 2, 0, "python train.py") |
          str(w, 8, 0, "cudaLaunchKernel") | str(w, 9, 0, "threadA");
    gst_device d = {0, 108, 42949672960ull, 8, 0, 2048, 11, 12};
    gst_api a = {1000, 1100, 100, 101, 1, 211, 8, GST_API_RUNTIME};
    gst_kernel k = {1200, 1500, 1, 0, 0, 7, 3, {4, 1, 1}, {128, 1, 1}, 32, 0};
    gst_memcpy c = {1600, 1700, 4096, 2, 0, 7, GST_COPY_HTOD, GST_LOC_PINNED, GST_LOC_DEVICE};
    gst_nvtx_range g = {900, 2000, 100, 101, 4, 5, GST_NVTX_PUSH_POP};
    gst_nvtx_mark m = {950, 100, 101, 10, 5};
    gst_counter n = {1000, 50.0, 0, 6};
    gst_note o = {2000, 3, 700, GST_NOTE_CUPTI, 7};
    rc |= gst_writer_add(w, GST_REC_DEVICE, &d) | gst_writer_add(w, GST_REC_API, &a);
    rc |= gst_writer_add(w, GST_REC_KERNEL, &k) | gst_writer_add(w, GST_REC_MEMCPY, &c);
    rc |= gst_writer_add(w, GST_REC_NVTX_RANGE, &g) | gst_writer_add(w, GST_REC_NVTX_MARK, &m);
    rc |= gst_writer_add(w, GST_REC_COUNTER, &n) | gst_writer_add(w, GST_REC_NOTE, &o);
    rc |= str(w, 3, 0, "kernA") | str(w, 4, 0, "rangeA") | str(w, 5, 0, "domA") |
          str(w, 6, 0, "util") | str(w, 7, 0, "CUPTI buffer full");
    rc |= str(w, 10, 5, "registered") | str(w, 11, 0, "GPU A") | str(w, 12, 0, "GPU-a-uuid");
    return rc ? -1 : gst_writer_end(w);
}

/* File B: a child process (pid 200). The same ids, other texts; one note text as A's. */
static int fill_b(gst_writer *w)
{
    int rc = 0;
    gst_process p = {200, 1, 2, 5, 0};
    gst_kernel k = {3200, 3300, 7, 0, 0, 9, 1, {1, 1, 1}, {32, 1, 1}, 16, 0};
    gst_api a = {3000, 3100, 200, 201, 7, 307, 0, GST_API_DRIVER}; /* id 0: the empty name */
    gst_nvtx_range g = {2900, 4000, 200, 201, 2, 3, GST_NVTX_START_END};
    gst_note o1 = {4000, 5, 0, GST_NOTE_CUPTI, 4};
    gst_note o2 = {4000, 1, 0, GST_NOTE_AGENT, 7};
    gst_thread th = {200, 201, 6};
    rc |= gst_writer_add(w, GST_REC_PROCESS, &p) | gst_writer_add(w, GST_REC_KERNEL, &k);
    rc |= gst_writer_add(w, GST_REC_API, &a) | gst_writer_add(w, GST_REC_NVTX_RANGE, &g);
    rc |= gst_writer_add(w, GST_REC_NOTE, &o1) | gst_writer_add(w, GST_REC_NOTE, &o2);
    rc |= gst_writer_add(w, GST_REC_THREAD, &th);
    rc |= str(w, 1, 0, "kernB") | str(w, 2, 0, "rangeB") | str(w, 3, 0, "domB") |
          str(w, 4, 0, "CUPTI buffer full") | str(w, 5, 0, "hostB") | str(w, 6, 0, "threadB") |
          str(w, 7, 0, "other note");
    return rc ? -1 : gst_writer_end(w);
}

/* File C: the launcher's sampler. No PROCESS record. */
static int fill_c(gst_writer *w)
{
    int rc = 0;
    gst_counter u = {1000, 87.5, 0, 1}, cpu = {1000, 140.25, -1, 2};
    gst_note o = {5000, 0, 0, GST_NOTE_SAMPLER, 3};
    gst_note o2 = {5000, 2, 0, GST_NOTE_SAMPLER, 4}; /* B's text, another source */
    rc |= gst_writer_add(w, GST_REC_COUNTER, &u) | gst_writer_add(w, GST_REC_COUNTER, &cpu);
    rc |= gst_writer_add(w, GST_REC_NOTE, &o) | gst_writer_add(w, GST_REC_NOTE, &o2);
    rc |= str(w, 1, 0, "gpu_util_pct") | str(w, 2, 0, "cpu_pct") | str(w, 3, 0, "sampler note") |
          str(w, 4, 0, "other note");
    return rc ? -1 : gst_writer_end(w);
}

static uint8_t wbuf[1 << 16];

/* Writes a file with `fill` through a writer of `cap` bytes on `clock`. */
static const char *write_gst(const char *name, int (*fill)(gst_writer *), size_t cap,
                             uint32_t clock)
{
    const char *path = path_of(name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    CHECK(fd >= 0);
    gst_writer w;
    CHECK_INT(gst_writer_open(&w, fd, wbuf, cap, clock, 0), 0);
    CHECK_INT(fill(&w), 0);
    close(fd);
    return path;
}

static size_t read_all(const char *path, uint8_t **out)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (!f)
        return 0;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    *out = malloc(n > 0 ? (size_t)n : 1);
    size_t got = fread(*out, 1, n > 0 ? (size_t)n : 0, f);
    fclose(f);
    CHECK_INT(got, n);
    return got;
}

static void write_bytes(const char *path, const void *data, size_t n)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    CHECK(fd >= 0);
    CHECK_INT(write(fd, data, n), n);
    close(fd);
}

/* ---- an independent reader of the raw layout ---------------------------------------------- */

typedef struct chunk_info {
    size_t end;                        /* file offset just after the chunk */
    uint64_t counts[GST_REC__COUNT];   /* records by type */
} chunk_info;

/* Splits a well-formed file into its chunks (an end marker is one, with no records); returns
 * how many. */
static size_t scan_chunks(const uint8_t *d, size_t n, chunk_info *out, size_t max)
{
    size_t k = 0;
    for (size_t at = GST_FILE_HEADER_SIZE; at + GST_CHUNK_HEADER_SIZE <= n && k < max;) {
        CHECK_INT(gst_get_u32(d + at), GST_CHUNK_MAGIC);
        uint32_t payload = gst_get_u32(d + at + 8);
        chunk_info *c = &out[k++];
        memset(c, 0, sizeof *c);
        bool records = gst_get_u16(d + at + 4) == GST_CHUNK_RECORDS;
        for (size_t pos = 0; records && pos < payload;) {
            const uint8_t *r = d + at + GST_CHUNK_HEADER_SIZE + pos;
            uint32_t type = gst_get_u16(r), size = gst_get_u32(r + 4);
            if (type < GST_REC__COUNT)
                c->counts[type]++;
            CHECK(size >= GST_RECORD_HEADER_SIZE);
            if (size < GST_RECORD_HEADER_SIZE)
                return k;
            pos += size;
        }
        at += GST_CHUNK_HEADER_SIZE + payload;
        c->end = at;
    }
    return k;
}

/* The merged file's STRING records: no id defined twice, and each registered string's domain
 * id names `want_domain` when its text is `registered`. Returns how many strings. */
static size_t check_string_table(const char *path, const char *registered, const char *want_domain)
{
    uint8_t *d;
    size_t n = read_all(path, &d);
    enum { MAXS = 256 };
    uint32_t ids[MAXS], domains[MAXS];
    const char *texts[MAXS];
    size_t lens[MAXS], ns = 0;
    size_t found_registered = 0;
    for (size_t at = GST_FILE_HEADER_SIZE; d && at + GST_CHUNK_HEADER_SIZE <= n;) {
        uint32_t payload = gst_get_u32(d + at + 8);
        for (size_t pos = 0; pos < payload;) {
            const uint8_t *r = d + at + GST_CHUNK_HEADER_SIZE + pos;
            uint32_t type = gst_get_u16(r), size = gst_get_u32(r + 4);
            if (type == GST_REC_STRING && ns < MAXS) {
                ids[ns] = gst_get_u32(r + 8);
                domains[ns] = gst_get_u32(r + 12);
                lens[ns] = gst_get_u32(r + 16);
                texts[ns] = (const char *)r + 20;
                for (size_t j = 0; j < ns; j++)
                    if (ids[j] == ids[ns]) {
                        fprintf(stderr, "string id %u defined twice\n", ids[ns]);
                        CHECK(false);
                    }
                ns++;
            }
            pos += size ? size : payload;
        }
        at += GST_CHUNK_HEADER_SIZE + payload;
    }
    for (size_t i = 0; i < ns; i++) {
        if (lens[i] != strlen(registered) || memcmp(texts[i], registered, lens[i]) != 0)
            continue;
        found_registered++;
        bool ok = false;
        for (size_t j = 0; j < ns; j++)
            if (ids[j] == domains[i] && lens[j] == strlen(want_domain) &&
                memcmp(texts[j], want_domain, lens[j]) == 0)
                ok = true;
        CHECK(ok);
    }
    CHECK_INT(found_registered, 1);
    free(d);
    return ns;
}

/* ---- helpers over the loaded trace -------------------------------------------------------- */

static gs_trace *load(const char *path)
{
    gs_error err = {0};
    gs_trace *t = NULL;
    int rc = gs_load_trace(path, NULL, &t, &err);
    if (rc != 0)
        fprintf(stderr, "load %s: %s\n", path, err.msg);
    CHECK_INT(rc, 0);
    return rc == 0 ? t : NULL;
}

/* The note with this text and source; exactly one must exist. */
static const gs_merge_note *find_note(const gs_merge_stats *st, const char *text, uint32_t source)
{
    const gs_merge_note *found = NULL;
    for (size_t i = 0; i < st->nnotes; i++) {
        if (strcmp(st->notes[i].text, text) == 0 && st->notes[i].source == source) {
            CHECK(found == NULL);
            found = &st->notes[i];
        }
    }
    return found;
}

static int merge(const char *const *inputs, size_t n, const char *out, gs_merge_stats *st,
                 gs_error *err)
{
    memset(err, 0, sizeof *err);
    return gs_gst_merge(inputs, n, out, true, st, err);
}

/* ---- tests -------------------------------------------------------------------------------- */

static void test_merge_three(void)
{
    /* Small buffers: A spans many chunks. */
    const char *a = write_gst("a.gst", fill_a, GST_WRITER_MIN_BUFFER, GST_CLOCK_REALTIME);
    const char *b = write_gst("b.gst", fill_b, 4096, GST_CLOCK_REALTIME);
    const char *c = write_gst("c.gst", fill_c, 4096, GST_CLOCK_REALTIME);
    const char *out = path_of("merged.gst");
    /* The launcher's order: the sampler, then the processes. */
    const char *inputs[] = {c, a, b};
    gs_merge_stats st;
    gs_error err;
    int rc = merge(inputs, 3, out, &st, &err);
    if (rc != 0)
        fprintf(stderr, "merge: %s\n", err.msg);
    CHECK_INT(rc, 0);
    CHECK_INT(st.records[GST_REC_PROCESS], 2);
    CHECK_INT(st.records[GST_REC_DEVICE], 1);
    CHECK_INT(st.records[GST_REC_STRING], 12 + 7 + 4);
    CHECK_INT(st.records[GST_REC_KERNEL], 2);
    CHECK_INT(st.records[GST_REC_MEMCPY], 1);
    CHECK_INT(st.records[GST_REC_MEMSET], 0);
    CHECK_INT(st.records[GST_REC_API], 2);
    CHECK_INT(st.records[GST_REC_SYNC], 0);
    CHECK_INT(st.records[GST_REC_NVTX_RANGE], 2);
    CHECK_INT(st.records[GST_REC_NVTX_MARK], 1);
    CHECK_INT(st.records[GST_REC_MEMORY], 0);
    CHECK_INT(st.records[GST_REC_COUNTER], 3);
    CHECK_INT(st.records[GST_REC_NOTE], 5);
    CHECK_INT(st.records[GST_REC_THREAD], 2);
    CHECK_INT(st.torn_files, 0);
    struct stat sb;
    CHECK_INT(stat(out, &sb), 0);
    CHECK_INT(st.bytes_written, sb.st_size);

    /* Notes: resolved against their own file's strings, aggregated by text and source. */
    CHECK_INT(st.nnotes, 4);
    const gs_merge_note *full = find_note(&st, "CUPTI buffer full", GST_NOTE_CUPTI);
    const gs_merge_note *other = find_note(&st, "other note", GST_NOTE_AGENT);
    const gs_merge_note *other_s = find_note(&st, "other note", GST_NOTE_SAMPLER);
    const gs_merge_note *samp = find_note(&st, "sampler note", GST_NOTE_SAMPLER);
    CHECK(full && other && other_s && samp);
    if (full) {
        CHECK_INT(full->count, 2);
        CHECK_INT(full->records_dropped, 8);
    }
    if (other) {
        CHECK_INT(other->count, 1);
        CHECK_INT(other->records_dropped, 1);
    }
    if (other_s) {
        CHECK_INT(other_s->count, 1);
        CHECK_INT(other_s->records_dropped, 2);
    }
    if (samp) {
        CHECK_INT(samp->count, 1);
        CHECK_INT(samp->records_dropped, 0);
    }
    gs_merge_stats_free(&st);
    CHECK_INT(st.nnotes, 0);
    CHECK(st.notes == NULL);

    CHECK_INT(check_string_table(out, "registered", "domA"), 23);

    gs_trace *t = load(out);
    if (!t)
        return;
    /* The first PROCESS record (A's: the sampler has none) names the trace. */
    CHECK_INT(t->pid, 100);
    CHECK_STR(gs_trace_str(t, t->hostname), "hostA");
    CHECK_INT(t->id.rank, 0);
    CHECK_INT(t->id.world_size, 2);
    CHECK_INT(t->lost[GS_LOSS_DROPPED], 3 + 5 + 1 + 2);
    CHECK_INT(t->kernels.n, 2);
    if (t->kernels.n == 2) {
        CHECK_INT(t->kernels.v[0].start, 1200);
        CHECK_STR(gs_trace_str(t, t->kernels.v[0].name), "kernA");
        CHECK_INT(t->kernels.v[1].start, 3200);
        CHECK_STR(gs_trace_str(t, t->kernels.v[1].name), "kernB");
        CHECK_INT(t->kernels.v[1].stream, 9);
    }
    CHECK_INT(t->apis.n, 2);
    if (t->apis.n == 2) {
        CHECK_INT(t->apis.v[0].pid, 100);
        CHECK_STR(gs_trace_str(t, t->apis.v[0].name), "cudaLaunchKernel");
        CHECK_INT(t->apis.v[1].pid, 200);
        CHECK_STR(gs_trace_str(t, t->apis.v[1].name), ""); /* id 0 stays the empty string */
        CHECK_INT(t->apis.v[1].cbid, 307);
    }
    CHECK_INT(t->ranges.n, 2);
    if (t->ranges.n == 2) {
        CHECK_INT(t->ranges.v[0].start, 900);
        CHECK_STR(gs_trace_str(t, t->ranges.v[0].name), "rangeA");
        CHECK_STR(gs_trace_str(t, t->ranges.v[0].domain), "domA");
        CHECK_INT(t->ranges.v[1].start, 2900);
        CHECK_INT(t->ranges.v[1].pid, 200);
        CHECK_STR(gs_trace_str(t, t->ranges.v[1].name), "rangeB");
        CHECK_STR(gs_trace_str(t, t->ranges.v[1].domain), "domB");
    }
    CHECK_INT(t->instants.n, 1);
    if (t->instants.n == 1)
        CHECK_STR(gs_trace_str(t, t->instants.v[0].name), "registered");
    CHECK_INT(t->counters.n, 3);
    int counters_ok = 0;
    for (size_t i = 0; i < t->counters.n; i++) {
        const gs_counter *n = &t->counters.v[i];
        const char *name = gs_trace_str(t, n->name);
        counters_ok += (n->value == 50.0 && strcmp(name, "util") == 0 && n->device == 0) +
                       (n->value == 87.5 && strcmp(name, "gpu_util_pct") == 0) +
                       (n->value == 140.25 && strcmp(name, "cpu_pct") == 0 && n->device == -1);
    }
    CHECK_INT(counters_ok, 3);
    CHECK_INT(t->devices.n, 1);
    if (t->devices.n == 1) {
        CHECK_STR(gs_trace_str(t, t->devices.v[0].name), "GPU A");
        CHECK_STR(gs_trace_str(t, t->devices.v[0].uuid), "GPU-a-uuid");
    }
    CHECK_INT(t->threads.n, 2);
    int threads_ok = 0;
    for (size_t i = 0; i < t->threads.n; i++) {
        const gs_thread *th = &t->threads.v[i];
        const char *name = gs_trace_str(t, th->name);
        threads_ok += (th->tid == 101 && strcmp(name, "threadA") == 0) +
                      (th->tid == 201 && strcmp(name, "threadB") == 0);
    }
    CHECK_INT(threads_ok, 2);
    /* Every string resolved: none shows as an undefined "<string N>". */
    for (uint32_t i = 0; i < t->strings.n; i++)
        CHECK(strncmp(gs_trace_str(t, i), "<string", 7) != 0);
    gs_trace_delete(t);

    /* The other order: B's PROCESS comes first and names the trace. */
    const char *inputs2[] = {b, a};
    CHECK_INT(merge(inputs2, 2, out, &st, &err), 0);
    CHECK_INT(st.records[GST_REC_PROCESS], 2);
    CHECK_INT(st.records[GST_REC_STRING], 19);
    CHECK_INT(st.nnotes, 2);
    gs_merge_stats_free(&st);
    t = load(out);
    if (t) {
        CHECK_INT(t->pid, 200);
        CHECK_STR(gs_trace_str(t, t->hostname), "hostB");
        CHECK_INT(t->id.rank, 1);
        CHECK_INT(t->kernels.n, 2);
        if (t->kernels.n == 2) {
            CHECK_STR(gs_trace_str(t, t->kernels.v[0].name), "kernA");
            CHECK_STR(gs_trace_str(t, t->kernels.v[1].name), "kernB");
        }
        gs_trace_delete(t);
    }

    /* One input: a copy of it, its own names. The same input twice: counted twice. */
    const char *one[] = {a};
    CHECK_INT(merge(one, 1, out, &st, &err), 0);
    CHECK_INT(st.records[GST_REC_STRING], 12);
    gs_merge_stats_free(&st);
    const char *twice[] = {a, a};
    CHECK_INT(merge(twice, 2, out, &st, &err), 0);
    CHECK_INT(st.records[GST_REC_KERNEL], 2);
    CHECK_INT(st.nnotes, 1);
    if (st.nnotes == 1) {
        CHECK_INT(st.notes[0].count, 2);
        CHECK_INT(st.notes[0].records_dropped, 6);
    }
    gs_merge_stats_free(&st);
    t = load(out);
    if (t) {
        CHECK_INT(t->kernels.n, 2);
        for (size_t i = 0; i < t->kernels.n; i++)
            CHECK_STR(gs_trace_str(t, t->kernels.v[i].name), "kernA");
        for (size_t i = 0; i < t->ranges.n; i++)
            CHECK_STR(gs_trace_str(t, t->ranges.v[i].domain), "domA");
        gs_trace_delete(t);
    }
    /* No input: a valid empty trace. */
    CHECK_INT(merge(NULL, 0, out, &st, &err), 0);
    CHECK_INT(st.bytes_written, GST_FILE_HEADER_SIZE + GST_CHUNK_HEADER_SIZE + GST_END_PAYLOAD_SIZE);
    gs_merge_stats_free(&st);
    t = load(out);
    if (t) {
        CHECK_INT(t->kernels.n, 0);
        gs_trace_delete(t);
    }
}

/* File D: a note whose text was never written (lost with its chunk). */
static int fill_d(gst_writer *w)
{
    gst_note o = {6000, 4, 0, GST_NOTE_SAMPLER, 3};
    gst_counter n = {6000, 1.0, -1, 1};
    int rc = gst_writer_add(w, GST_REC_NOTE, &o) | gst_writer_add(w, GST_REC_COUNTER, &n) |
             str(w, 1, 0, "d_counter");
    return rc ? -1 : gst_writer_end(w);
}

/* A note's text comes from its own file only: an id another file defined does not lend it one. */
static void test_unresolved_note(void)
{
    const char *c = write_gst("c.gst", fill_c, 4096, GST_CLOCK_REALTIME);
    const char *d = write_gst("d.gst", fill_d, 4096, GST_CLOCK_REALTIME);
    const char *out = path_of("merged.gst");
    const char *inputs[] = {c, d};
    gs_merge_stats st;
    gs_error err;
    CHECK_INT(merge(inputs, 2, out, &st, &err), 0);
    CHECK_INT(st.records[GST_REC_NOTE], 3);
    CHECK_INT(st.nnotes, 3);
    const gs_merge_note *samp = find_note(&st, "sampler note", GST_NOTE_SAMPLER);
    CHECK(samp != NULL);
    if (samp) {
        CHECK_INT(samp->count, 1);
        CHECK_INT(samp->records_dropped, 0);
    }
    size_t with_four = 0;
    for (size_t i = 0; i < st.nnotes; i++)
        with_four += st.notes[i].records_dropped == 4 && st.notes[i].count == 1 &&
                     strcmp(st.notes[i].text, "sampler note") != 0 &&
                     strcmp(st.notes[i].text, "other note") != 0;
    CHECK_INT(with_four, 1);
    gs_merge_stats_free(&st);
    gs_trace *t = load(out);
    if (t) {
        size_t found = 0;
        for (size_t i = 0; i < t->counters.n; i++)
            found += strcmp(gs_trace_str(t, t->counters.v[i].name), "d_counter") == 0;
        CHECK_INT(found, 1);
        gs_trace_delete(t);
    }
}

/* A cut anywhere in A: its complete chunks come through, B is untouched. */
static void test_torn(void)
{
    const char *a = write_gst("a.gst", fill_a, GST_WRITER_MIN_BUFFER, GST_CLOCK_REALTIME);
    const char *b = write_gst("b.gst", fill_b, 4096, GST_CLOCK_REALTIME);
    const char *cut = path_of("cut.gst");
    const char *out = path_of("merged.gst");
    uint8_t *data;
    size_t n = read_all(a, &data);
    chunk_info chunks[64];
    size_t nchunks = scan_chunks(data, n, chunks, 64);
    CHECK(nchunks >= 4);
    CHECK_INT(chunks[nchunks - 1].end, n);
    int failures_before = check_failures;
    for (size_t keep = 0; keep <= n && check_failures == failures_before; keep++) {
        write_bytes(cut, data, keep);
        uint64_t want[GST_REC__COUNT] = {0}, want_torn = 0;
        bool at_boundary = keep == GST_FILE_HEADER_SIZE;
        size_t k = 0;
        for (; k < nchunks && chunks[k].end <= keep; k++) {
            for (int ty = 0; ty < GST_REC__COUNT; ty++)
                want[ty] += chunks[k].counts[ty];
            at_boundary |= chunks[k].end == keep;
        }
        /* The torn chunk's records, when its header made it: counted, not silently gone. */
        size_t torn_at = k ? chunks[k - 1].end : GST_FILE_HEADER_SIZE;
        if (k < nchunks && keep >= torn_at + GST_CHUNK_HEADER_SIZE)
            for (int ty = 0; ty < GST_REC__COUNT; ty++)
                want_torn += chunks[k].counts[ty];
        /* A cut after A's PROCESS record and before the end of its end marker, where no torn
         * chunk's records say it already: a process's capture cut short, said by a note of the
         * merged file. */
        uint64_t want_cut = keep >= chunks[0].end && keep < n && want_torn == 0;
        /* B's records on top. */
        want[GST_REC_PROCESS] += 1;
        want[GST_REC_KERNEL] += 1;
        want[GST_REC_API] += 1;
        want[GST_REC_NVTX_RANGE] += 1;
        want[GST_REC_NOTE] += 2;
        want[GST_REC_THREAD] += 1;
        want[GST_REC_STRING] += 7;
        const char *inputs[] = {cut, b};
        gs_merge_stats st;
        gs_error err;
        int rc = merge(inputs, 2, out, &st, &err);
        if (rc != 0)
            fprintf(stderr, "cut at %zu: %s\n", keep, err.msg);
        CHECK_INT(rc, 0);
        CHECK_INT(st.torn_files, at_boundary ? 0 : 1);
        for (int ty = 1; ty < GST_REC__COUNT; ty++)
            CHECK_INT(st.records[ty], want[ty]);
        /* B's note texts are resolved whatever A lost. */
        const gs_merge_note *other = find_note(&st, "other note", GST_NOTE_AGENT);
        CHECK(other && other->count == 1);
        const gs_merge_note *torn = find_note(
            &st, "records of a chunk cut short (the process was killed while writing)",
            GST_NOTE_MERGE);
        CHECK(want_torn ? torn && torn->records_dropped == want_torn : torn == NULL);
        CHECK_INT(st.cut_files, want_cut);
        const gs_merge_note *cut_note = find_note(
            &st, "a process ended before gpuscope finished its trace (killed, or left through "
                 "_exit or exec): what it recorded after its last flush is missing",
            GST_NOTE_CUT_SHORT);
        CHECK(want_cut ? cut_note && cut_note->count == 1 : cut_note == NULL);
        gs_merge_stats_free(&st);
        gs_trace *t = load(out);
        if (!t)
            continue;
        /* B's names, after A's surviving ids, are B's own. */
        bool found_b = false;
        for (size_t i = 0; i < t->kernels.n; i++)
            if (t->kernels.v[i].start == 3200) {
                found_b = true;
                CHECK_STR(gs_trace_str(t, t->kernels.v[i].name), "kernB");
            }
        CHECK(found_b);
        for (size_t i = 0; i < t->ranges.n; i++)
            if (t->ranges.v[i].start == 2900) {
                CHECK_STR(gs_trace_str(t, t->ranges.v[i].name), "rangeB");
                CHECK_STR(gs_trace_str(t, t->ranges.v[i].domain), "domB");
            }
        /* A's PROCESS record is in its first chunk: once that is whole, A names the trace. */
        CHECK_INT(t->pid, keep >= chunks[0].end ? 100 : 200);
        CHECK_INT(t->kernels.n, want[GST_REC_KERNEL]);
        CHECK_INT(t->lost[GS_LOSS_TORN_CHUNK], want_torn);
        CHECK_INT(t->lost[GS_LOSS_CUT_SHORT], want_cut);
        gs_trace_delete(t);
    }
    free(data);
}

static void test_bad_inputs(void)
{
    const char *a = write_gst("a.gst", fill_a, 4096, GST_CLOCK_REALTIME);
    const char *out = path_of("merged.gst");
    gs_merge_stats st;
    gs_error err;

    /* Not a .gst file: a JSON trace. */
    const char *json = path_of("trace.json");
    const char text[] = "{\"traceEvents\": [{\"name\": \"k\", \"ph\": \"X\", \"ts\": 1}]}\n";
    write_bytes(json, text, sizeof text - 1);
    const char *in1[] = {a, json};
    CHECK_INT(merge(in1, 2, out, &st, &err), -1);
    CHECK_INT(err.code, GS_EXIT_INPUT);
    CHECK(strstr(err.msg, "trace.json") != NULL);
    gs_merge_stats_free(&st);

    /* KNOWN BUG (not fixed here): a file shorter than a .gst header is taken for a .gst whose
     * writer died before writing its header, whatever its bytes, so a short text file is merged
     * as an empty torn input. Only a prefix of a .gst header can be that; the rest is not .gst. */
    const char *tiny = path_of("tiny.txt");
    write_bytes(tiny, "hello\n", 6);
    const char *in_tiny[] = {a, tiny};
    CHECK_INT(merge(in_tiny, 2, out, &st, &err), -1);
    CHECK_INT(err.code, GS_EXIT_INPUT);
    gs_merge_stats_free(&st);
    /* ... while a real prefix of a header is still a torn input. */
    write_bytes(tiny, GST_MAGIC, 5);
    CHECK_INT(merge(in_tiny, 2, out, &st, &err), 0);
    CHECK_INT(st.torn_files, 1);
    gs_merge_stats_free(&st);

    /* Missing. */
    const char *in2[] = {path_of("missing.gst")};
    CHECK_INT(merge(in2, 1, out, &st, &err), -1);
    CHECK_INT(err.code, GS_EXIT_INPUT);
    CHECK(strstr(err.msg, "missing.gst") != NULL);
    gs_merge_stats_free(&st);

    /* A clock other than CLOCK_REALTIME cannot be merged with the others' times. */
    const char *raw = write_gst("raw.gst", fill_b, 4096, GST_CLOCK_MONOTONIC_RAW);
    const char *in3[] = {a, raw};
    CHECK_INT(merge(in3, 2, out, &st, &err), -1);
    CHECK_INT(err.code, GS_EXIT_INPUT);
    CHECK(strstr(err.msg, "raw.gst") != NULL);
    gs_merge_stats_free(&st);

    /* Another major version. */
    uint8_t *data;
    size_t n = read_all(a, &data);
    const char *v2 = path_of("v2.gst");
    if (data) {
        data[8] = 2;
        write_bytes(v2, data, n);
        const char *in4[] = {v2};
        CHECK_INT(merge(in4, 1, out, &st, &err), -1);
        CHECK_INT(err.code, GS_EXIT_INPUT);
        gs_merge_stats_free(&st);
        data[8] = 1;
        /* A corrupt chunk magic, and a corrupt record size. */
        data[GST_FILE_HEADER_SIZE] ^= 0xff;
        write_bytes(v2, data, n);
        CHECK_INT(merge(in4, 1, out, &st, &err), -1);
        CHECK_INT(err.code, GS_EXIT_INPUT);
        CHECK(strstr(err.msg, "corrupt") != NULL);
        gs_merge_stats_free(&st);
        data[GST_FILE_HEADER_SIZE] ^= 0xff;
        gst_put_u32(data + GST_FILE_HEADER_SIZE + GST_CHUNK_HEADER_SIZE + 4, 12);
        write_bytes(v2, data, n);
        CHECK_INT(merge(in4, 1, out, &st, &err), -1);
        CHECK_INT(err.code, GS_EXIT_INPUT);
        gs_merge_stats_free(&st);
    }
    free(data);

    /* An output that cannot be written: a missing folder, a folder. */
    const char *in5[] = {a};
    CHECK_INT(merge(in5, 1, path_of("no/such/dir/out.gst"), &st, &err), -1);
    CHECK_INT(err.code, GS_EXIT_ENV);
    CHECK(strstr(err.msg, "out.gst") != NULL);
    gs_merge_stats_free(&st);
    CHECK_INT(merge(in5, 1, dir, &st, &err), -1);
    CHECK_INT(err.code, GS_EXIT_ENV);
    gs_merge_stats_free(&st);
    /* A full device, where there is one: the write fails, not the inputs. */
    if (access("/dev/full", W_OK) == 0) {
        CHECK_INT(merge(in5, 1, "/dev/full", &st, &err), -1);
        CHECK_INT(err.code, GS_EXIT_ENV);
        gs_merge_stats_free(&st);
    }
}

/* The output: a new file, or with `replace` an existing regular file; never through a symbolic
 * link (a dangling one created its target elsewhere) and never into a FIFO (open blocked). */
static void test_output(void)
{
    const char *a = write_gst("a.gst", fill_a, 4096, GST_CLOCK_REALTIME);
    const char *in[] = {a};
    const char *out = path_of("merged.gst"), *link = path_of("link.gst");
    const char *target = path_of("target.gst"), *fifo = path_of("fifo.gst");
    gs_merge_stats st;
    gs_error err;
    unlink(out);
    CHECK_INT(gs_gst_merge(in, 1, out, false, &st, &err), 0);
    gs_merge_stats_free(&st);
    CHECK_INT(gs_gst_merge(in, 1, out, false, &st, &err), -1);
    CHECK(strstr(err.msg, "merged.gst exists (--force overwrites it)") != NULL);
    gs_merge_stats_free(&st);
    CHECK_INT(gs_gst_merge(in, 1, out, true, &st, &err), 0);
    gs_merge_stats_free(&st);
    unlink(target);
    CHECK(symlink(target, link) == 0);
    for (int replace = 0; replace < 2; replace++) {
        CHECK_INT(gs_gst_merge(in, 1, link, replace, &st, &err), -1);
        CHECK_INT(err.code, GS_EXIT_ENV);
        CHECK(access(target, F_OK) != 0);
        gs_merge_stats_free(&st);
    }
    CHECK(strstr(err.msg, "link.gst is a symbolic link: no trace is written through one") != NULL);
    CHECK(mkfifo(fifo, 0644) == 0);
    CHECK_INT(gs_gst_merge(in, 1, fifo, true, &st, &err), -1);
    CHECK_INT(err.code, GS_EXIT_ENV);
    gs_merge_stats_free(&st);
}

static void cleanup(void)
{
    static const char *const names[] = {"a.gst", "b.gst", "c.gst", "merged.gst", "cut.gst",
                                        "trace.json", "raw.gst", "v2.gst", "d.gst", "tiny.txt",
                                        "link.gst", "fifo.gst"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        unlink(path_of(names[i]));
    rmdir(dir);
}

/* Notes whose counts would overflow when summed (what fuzz_gst_merge found: two overheads of
 * 6.7e18 ns of one text): the sums stop at the largest value. */
static int fill_huge_notes(gst_writer *w)
{
    gst_note a = {.ts = 1000, .records_dropped = UINT64_MAX - 5,
                  .overhead_ns = 6721239955537932000, .source = GST_NOTE_CUPTI, .text = 1};
    gst_note b = {.ts = 2000, .records_dropped = 10, .overhead_ns = 6721239955537932000,
                  .source = GST_NOTE_CUPTI, .text = 1};
    int rc = gst_writer_add(w, GST_REC_NOTE, &a) | gst_writer_add(w, GST_REC_NOTE, &b) |
             str(w, 1, 0, "huge");
    return rc ? -1 : gst_writer_end(w);
}

static void test_note_sums_saturate(void)
{
    const char *in = write_gst("huge.gst", fill_huge_notes, 4096, GST_CLOCK_REALTIME);
    const char *inputs[] = {in};
    gs_merge_stats st;
    gs_error err;
    CHECK_INT(merge(inputs, 1, path_of("huge-merged.gst"), &st, &err), 0);
    CHECK_INT(st.nnotes, 1);
    if (st.nnotes == 1) {
        CHECK_INT(st.notes[0].count, 2);
        CHECK(st.notes[0].overhead_ns == INT64_MAX);
        CHECK(st.notes[0].records_dropped == UINT64_MAX);
    }
    gs_merge_stats_free(&st);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/test_gst_merge_XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_merge_three();
    test_unresolved_note();
    test_torn();
    test_bad_inputs();
    test_output();
    test_note_sums_saturate();
    cleanup();
    return check_done("test_gst_merge");
}
