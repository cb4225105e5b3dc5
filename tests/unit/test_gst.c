/* The .gst format end to end: the writer's records read back field by field through
 * gs_load_trace, every truncation of a file, corrupt headers, chunks and records, and the
 * compatibility rules (unknown types skipped, longer records and headers accepted). */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "common/gst_writer.h"
#include "ingest/load.h"
#include "../gen/gst_sample.h"

#define MAX_FILE (1 << 16)

static char tmp_path[64];

/* Runs `fill` on a writer over a fresh temp file and reads the file back into `out`. */
static size_t write_file(int (*fill)(gst_writer *), size_t bufcap, uint8_t *out)
{
    snprintf(tmp_path, sizeof tmp_path, "/tmp/test_gst_XXXXXX");
    int fd = mkstemp(tmp_path);
    CHECK(fd >= 0);
    static uint8_t buf[1 << 16];
    gst_writer w;
    CHECK_INT(gst_writer_open(&w, fd, buf, bufcap, GST_CLOCK_MONOTONIC_RAW, 1700000000000000000),
              0);
    CHECK_INT(fill(&w), 0);
    ssize_t n = pread(fd, out, MAX_FILE, 0);
    close(fd);
    CHECK(n > 0);
    return n > 0 ? (size_t)n : 0;
}

static int fill_one_of_each(gst_writer *w)
{
    int rc = 0;
    gst_process p = {77, 3, 8, 1, 2};
    gst_device d = {1, 108, 42949672960ull, 8, 0, 2048, 3, 4};
    gst_kernel k = {1000, 3000, 55, 9, 1, 13, 5, {10, 20, 30}, {32, 4, 2}, 40, 2048};
    gst_memcpy c = {1500, 2500, 123456789012ull, 56, 1, 14, GST_COPY_HTOD, GST_LOC_PINNED,
                    GST_LOC_DEVICE};
    gst_memset s = {4000, 4100, 4096, 57, 1, 15, 0, GST_LOC_MANAGED};
    gst_api a = {900, 1100, 77, 78, 55, 211, 6, GST_API_DRIVER};
    gst_sync y = {5000, 6000, 58, 1, 16, GST_SYNC_EVENT};
    gst_nvtx_range g = {800, 7000, 77, 79, 7, 8, GST_NVTX_START_END};
    gst_nvtx_mark m = {850, 77, 79, 9, 8};
    gst_memory e = {950, 77, 78, 0xdeadbeef000ull, -65536, 1 << 20, 4 << 20, 1, GST_LOC_DEVICE};
    gst_counter n = {1200, 0.125, 1, 10};
    gst_note o = {7000, 17, 3000, GST_NOTE_AGENT, 11};
    gst_thread t = {77, 79, 12};
    /* The STRING record for the kernel's name comes after the kernel: ids resolve at the end. */
    rc |= gst_writer_add(w, GST_REC_PROCESS, &p) | gst_writer_add(w, GST_REC_DEVICE, &d);
    rc |= gst_writer_add(w, GST_REC_KERNEL, &k) | gst_writer_add(w, GST_REC_MEMCPY, &c);
    rc |= gst_writer_add(w, GST_REC_MEMSET, &s) | gst_writer_add(w, GST_REC_API, &a);
    rc |= gst_writer_add(w, GST_REC_SYNC, &y) | gst_writer_add(w, GST_REC_NVTX_RANGE, &g);
    rc |= gst_writer_add(w, GST_REC_NVTX_MARK, &m) | gst_writer_add(w, GST_REC_MEMORY, &e);
    rc |= gst_writer_add(w, GST_REC_COUNTER, &n) | gst_writer_add(w, GST_REC_NOTE, &o);
    rc |= gst_writer_add(w, GST_REC_THREAD, &t);
    static const char *const names[] = {NULL, "host-a", "python x.py", "A100", "GPU-uuid",
                                        "my_kernel", "cuLaunchKernel", "phase", "dom", "tick",
                                        "sm_clock_mhz", "note", "worker"};
    for (gst_strid id = 1; id <= 12; id++)
        rc |= sample_str(w, id, id == 9 ? 8 : 0, names[id]);
    return rc ? -1 : gst_writer_flush(w);
}

static gs_trace *load_bytes(const uint8_t *data, size_t n, gs_error *err)
{
    gs_trace *t = NULL;
    if (gs_load_trace_buffer((const char *)data, n, "mem.gst", NULL, &t, err) != 0)
        return NULL;
    return t;
}

static void test_round_trip(void)
{
    static uint8_t file[MAX_FILE];
    size_t n = write_file(fill_one_of_each, 4096, file);
    gs_error err;
    gs_trace *t = NULL;
    CHECK_INT(gs_load_trace(tmp_path, NULL, &t, &err), 0);
    unlink(tmp_path);
    CHECK(n > 32);
    if (!t)
        return;
    CHECK_STR(gs_trace_str(t, t->format), "gst");
    CHECK_INT(t->pid, 77);
    CHECK_INT(t->id.rank, 3);
    CHECK_INT(t->id.world_size, 8);
    CHECK_INT(t->id.source, GS_RANK_FROM_METADATA);
    CHECK_STR(gs_trace_str(t, t->hostname), "host-a");
    CHECK_INT(t->id.epoch_ns, 1700000000000000000);
    CHECK_INT(t->lost[GS_LOSS_DROPPED], 17);
    CHECK_INT(t->devices.n, 1);
    const gs_device *d = &t->devices.v[0];
    CHECK_INT(d->id, 1);
    CHECK_STR(gs_trace_str(t, d->name), "A100");
    CHECK_STR(gs_trace_str(t, d->uuid), "GPU-uuid");
    CHECK_INT(d->total_memory, 42949672960ull);
    CHECK_INT(d->num_sms, 108);
    CHECK_INT(d->compute_major, 8);
    CHECK_INT(d->compute_minor, 0);
    CHECK_INT(d->max_threads_per_sm, 2048);
    CHECK_INT(t->kernels.n, 1);
    const gs_kernel *k = &t->kernels.v[0];
    CHECK_INT(k->start, 1000);
    CHECK_INT(k->end, 3000);
    CHECK_STR(gs_trace_str(t, k->name), "my_kernel");
    CHECK_INT(k->correlation, 55);
    CHECK_INT(k->graph_id, 9);
    CHECK_INT(k->device, 1);
    CHECK_INT(k->stream, 13);
    CHECK_INT(k->grid[0], 10);
    CHECK_INT(k->grid[1], 20);
    CHECK_INT(k->grid[2], 30);
    CHECK_INT(k->block[0], 32);
    CHECK_INT(k->block[1], 4);
    CHECK_INT(k->block[2], 2);
    CHECK_INT(k->registers_per_thread, 40);
    CHECK_INT(k->shared_memory, 2048);
    CHECK(k->blocks_per_sm > 55.55f && k->blocks_per_sm < 55.56f); /* 6000 blocks / 108 SMs */
    CHECK(k->warps_per_sm > 444.44f && k->warps_per_sm < 444.45f); /* 8 warps per block */
    CHECK(k->occupancy_pct < 0);
    CHECK_INT(t->apis.n, 1);
    const gs_api *a = &t->apis.v[0];
    CHECK_INT(a->start, 900);
    CHECK_INT(a->end, 1100);
    CHECK_INT(a->pid, 77);
    CHECK_INT(a->tid, 78);
    CHECK_INT(a->correlation, 55);
    CHECK_INT(a->cbid, 211);
    CHECK_INT(a->kind, GS_API_DRIVER);
    CHECK_STR(gs_trace_str(t, a->name), "cuLaunchKernel");
    CHECK_INT(a->gpu_class, GS_GPU_KERNEL); /* the index linked the launch by correlation */
    CHECK_INT(t->memops.n, 2);
    const gs_memop *c = &t->memops.v[0], *s = &t->memops.v[1];
    CHECK_INT(c->start, 1500);
    CHECK_INT(c->end, 2500);
    CHECK_INT(c->bytes, 123456789012ull);
    CHECK_INT(c->correlation, 56);
    CHECK_INT(c->device, 1);
    CHECK_INT(c->stream, 14);
    CHECK_INT(c->kind, GS_MEMOP_HTOD);
    CHECK_INT(c->src, GS_LOC_PINNED);
    CHECK_INT(c->dst, GS_LOC_DEVICE);
    CHECK_STR(gs_trace_str(t, c->name), "Memcpy HtoD (Pinned -> Device)");
    CHECK_INT(s->start, 4000);
    CHECK_INT(s->end, 4100);
    CHECK_INT(s->bytes, 4096);
    CHECK_INT(s->correlation, 57);
    CHECK_INT(s->stream, 15);
    CHECK_INT(s->kind, GS_MEMOP_MEMSET);
    CHECK_INT(s->dst, GS_LOC_MANAGED);
    CHECK_STR(gs_trace_str(t, s->name), "Memset (Managed)");
    CHECK_INT(t->syncs.n, 1);
    CHECK_INT(t->syncs.v[0].start, 5000);
    CHECK_INT(t->syncs.v[0].end, 6000);
    CHECK_INT(t->syncs.v[0].correlation, 58);
    CHECK_INT(t->syncs.v[0].stream, 16);
    CHECK_STR(gs_trace_str(t, t->syncs.v[0].name), "Event Sync");
    CHECK_INT(t->ranges.n, 1);
    const gs_range *g = &t->ranges.v[0];
    CHECK_INT(g->start, 800);
    CHECK_INT(g->end, 7000);
    CHECK_INT(g->kind, GS_RANGE_NVTX);
    CHECK_INT(g->pid, 77);
    CHECK_INT(g->tid, 79);
    CHECK_STR(gs_trace_str(t, g->name), "phase");
    CHECK_STR(gs_trace_str(t, g->domain), "dom");
    CHECK_INT(t->instants.n, 1);
    CHECK_INT(t->instants.v[0].ts, 850);
    CHECK_INT(t->instants.v[0].tid, 79);
    CHECK_STR(gs_trace_str(t, t->instants.v[0].name), "tick");
    CHECK_INT(t->mem_events.n, 1);
    const gs_mem_event *e = &t->mem_events.v[0];
    CHECK_INT(e->ts, 950);
    CHECK_INT(e->pid, 77);
    CHECK_INT(e->tid, 78);
    CHECK_INT(e->device_type, 1);
    CHECK_INT(e->device, 1);
    CHECK_INT(e->addr, 0xdeadbeef000ull);
    CHECK_INT(e->bytes, -65536);
    CHECK_INT(e->total_allocated, 1 << 20);
    CHECK_INT(e->total_reserved, 4 << 20);
    CHECK_INT(t->counters.n, 1);
    CHECK_INT(t->counters.v[0].ts, 1200);
    CHECK_INT(t->counters.v[0].device, 1);
    CHECK(t->counters.v[0].value == 0.125);
    CHECK_STR(gs_trace_str(t, t->counters.v[0].name), "sm_clock_mhz");
    CHECK_INT(t->threads.n, 1);
    CHECK_INT(t->threads.v[0].tid, 79);
    CHECK_STR(gs_trace_str(t, t->threads.v[0].name), "worker");
    gs_trace_delete(t);
}

static int fill_sample(gst_writer *w)
{
    return gst_write_sample(w);
}

/* Every prefix of a many-chunk file loads (header complete) or fails with exit 3; the events
 * kept grow with the prefix and the full file has them all. A prefix that is not the whole file
 * says it is cut: its torn chunk's records, or, cut at a chunk boundary, a capture cut short (the
 * end marker is missing); a file of version 1.0, written before end markers, says neither at a
 * boundary. */
static void test_truncation(void)
{
    static uint8_t file[MAX_FILE];
    size_t n = write_file(fill_sample, GST_WRITER_MIN_BUFFER, file);
    unlink(tmp_path);
    size_t last_kernels = 0, loaded = 0;
    bool monotone = true, clean = true, cut_said = true, old_quiet = true;
    for (size_t len = 0; len <= n; len++) {
        gs_error err = {0};
        gs_trace *t = load_bytes(file, len, &err);
        if (!t) {
            clean &= err.code == GS_EXIT_INPUT && len < GST_FILE_HEADER_SIZE;
            continue;
        }
        loaded++;
        bool torn = t->lost[GS_LOSS_TORN_CHUNK] > 0, cut = t->lost[GS_LOSS_CUT_SHORT] == 1;
        cut_said &= len == n ? !torn && t->lost[GS_LOSS_CUT_SHORT] == 0 : torn != cut;
        gs_trace_delete(t);
        /* The same bytes as version 1.0: no end marker is expected, none is missed. */
        uint8_t minor[2];
        memcpy(minor, file + 10, 2);
        gst_put_u16(file + 10, 0);
        t = load_bytes(file, len, &err);
        old_quiet &= t && t->lost[GS_LOSS_CUT_SHORT] == 0;
        gs_trace_delete(t);
        memcpy(file + 10, minor, 2);
        t = load_bytes(file, len, &err);
        monotone &= t->kernels.n >= last_kernels;
        last_kernels = t->kernels.n;
        if (len == n) {
            CHECK_INT(t->kernels.n, 6);
            CHECK_INT(t->apis.n, 12);
            CHECK_INT(t->ranges.n, 4);
            CHECK_INT(t->memops.n, 6);
            CHECK_INT(t->lost[GS_LOSS_DROPPED], 3);
        }
        gs_trace_delete(t);
    }
    CHECK(clean);
    CHECK(monotone);
    CHECK(cut_said);
    CHECK(old_quiet);
    CHECK_INT(loaded, n + 1 - GST_FILE_HEADER_SIZE);
}

/* Header + one chunk holding one record of `type` and `size` bytes (payload zero). */
static size_t build(uint8_t *out, uint16_t type, uint32_t size)
{
    gst_file_header h = {GST_VERSION_MAJOR, 0, GST_FILE_HEADER_SIZE, GST_CLOCK_REALTIME, 0, 0};
    gst_encode_file_header(&h, out);
    gst_chunk_header c = {GST_CHUNK_MAGIC, GST_CHUNK_RECORDS, 0, size, 1};
    gst_encode_chunk_header(&c, out + 32);
    memset(out + 48, 0, size);
    gst_put_u16(out + 48, type);
    gst_put_u32(out + 52, size);
    return 48 + size;
}

static void expect_error(const uint8_t *data, size_t n, const char *want)
{
    gs_error err = {0};
    gs_trace *t = load_bytes(data, n, &err);
    CHECK(t == NULL);
    gs_trace_delete(t);
    CHECK_INT(err.code, GS_EXIT_INPUT);
    if (!strstr(err.msg, want)) {
        check_failures++;
        fprintf(stderr, "error \"%s\" lacks \"%s\"\n", err.msg, want);
    }
}

/* The end marker: whole after it, cut short when records follow it without another, corrupt
 * when its counts are not what the file holds. */
static void test_end_marker(void)
{
    static uint8_t file[MAX_FILE];
    size_t n = write_file(fill_sample, GST_WRITER_MIN_BUFFER, file);
    unlink(tmp_path);
    const size_t end_size = GST_CHUNK_HEADER_SIZE + GST_END_PAYLOAD_SIZE;
    CHECK_INT(gst_get_u16(file + n - end_size + 4), GST_CHUNK_END);
    CHECK_INT(gst_get_u32(file + n - end_size + 12), 0); /* a 1.0 reader skips no record */
    gs_error err;
    gs_trace *t = load_bytes(file, n, &err);
    CHECK(t && t->lost[GS_LOSS_CUT_SHORT] == 0);
    gs_trace_delete(t);
    /* Flushed at a signal, then more: the marker in the middle, the file whole at its end. */
    static uint8_t twice[MAX_FILE];
    size_t chunk = GST_CHUNK_HEADER_SIZE + gst_get_u32(file + GST_FILE_HEADER_SIZE + 8);
    size_t m = 0;
    memcpy(twice, file, GST_FILE_HEADER_SIZE + chunk);
    m = GST_FILE_HEADER_SIZE + chunk;
    uint8_t *end = twice + m;
    gst_chunk_header h = {GST_CHUNK_MAGIC, GST_CHUNK_END, 0, GST_END_PAYLOAD_SIZE, 0};
    gst_encode_chunk_header(&h, end);
    gst_put_u64(end + GST_CHUNK_HEADER_SIZE, 1);
    gst_put_u64(end + GST_CHUNK_HEADER_SIZE + 8, gst_get_u32(file + GST_FILE_HEADER_SIZE + 12));
    m += end_size;
    memcpy(twice + m, file + GST_FILE_HEADER_SIZE + chunk, n - GST_FILE_HEADER_SIZE - chunk);
    m += n - GST_FILE_HEADER_SIZE - chunk;
    t = load_bytes(twice, m, &err);
    CHECK(t && t->lost[GS_LOSS_CUT_SHORT] == 0 && t->kernels.n == 6);
    gs_trace_delete(t);
    t = load_bytes(twice, m - end_size, &err);
    CHECK(t && t->lost[GS_LOSS_CUT_SHORT] == 1 && t->kernels.n == 6);
    gs_trace_delete(t);
    /* A chunk gone from the middle: the counts say so. */
    gst_put_u64(file + n - GST_END_PAYLOAD_SIZE, gst_get_u64(file + n - GST_END_PAYLOAD_SIZE) + 1);
    expect_error(file, n, "corrupt .gst file: the end marker counts");
    gst_put_u64(file + n - GST_END_PAYLOAD_SIZE, gst_get_u64(file + n - GST_END_PAYLOAD_SIZE) - 1);
    gst_put_u32(file + n - end_size + 8, 8);
    expect_error(file, n - 8, "end marker smaller than its two counts");
}

static void test_corrupt(void)
{
    uint8_t f[256];
    size_t n = build(f, GST_REC_COUNTER, 32);
    gs_error err;
    gs_trace *t = load_bytes(f, n, &err);
    CHECK(t && t->counters.n == 1);
    gs_trace_delete(t);
    f[5] = 'x';
    expect_error(f, n, "byte 0: corrupt .gst file: bad magic");
    n = build(f, GST_REC_COUNTER, 32);
    gst_put_u16(f + 8, 2);
    expect_error(f, n, "byte 8: .gst version 2.0");
    n = build(f, GST_REC_COUNTER, 32);
    gst_put_u32(f + 12, 8);
    expect_error(f, n, "byte 12: corrupt .gst file: header size");
    n = build(f, GST_REC_COUNTER, 32);
    f[32] ^= 1;
    expect_error(f, n, "byte 32: corrupt .gst file: bad chunk magic");
    n = build(f, GST_REC_COUNTER, 32);
    gst_put_u32(f + 40, GST_MAX_CHUNK_PAYLOAD + 1);
    expect_error(f, n, "byte 40: corrupt .gst file: chunk larger");
    n = build(f, GST_REC_COUNTER, 32);
    gst_put_u32(f + 44, 2);
    expect_error(f, n, "byte 32: corrupt .gst file: record count");
    n = build(f, GST_REC_COUNTER, 32);
    gst_put_u32(f + 52, 4);
    expect_error(f, n, "byte 48: corrupt .gst file: record size");
    n = build(f, GST_REC_COUNTER, 32);
    gst_put_u32(f + 52, 40);
    expect_error(f, n, "byte 48: corrupt .gst file: record size");
    n = build(f, GST_REC_KERNEL, 32);
    expect_error(f, n, "byte 48: corrupt .gst file: record smaller than its type");
    n = build(f, GST_REC_STRING, 24);
    gst_put_u32(f + 56, 1);
    gst_put_u32(f + 64, 5); /* 5 bytes claimed, 4 present */
    expect_error(f, n, "byte 48: corrupt .gst file: string longer");
    n = build(f, GST_REC_STRING, 24);
    expect_error(f, n, "string id out of range");
    n = build(f, GST_REC_STRING, 24);
    gst_put_u32(f + 56, 0x80000000u);
    expect_error(f, n, "string id out of range");
    n = build(f, GST_REC_COUNTER, 32);
    expect_error(f, 20, "byte 20: truncated .gst header");
}

static void test_compatibility(void)
{
    uint8_t f[256];
    gs_error err;
    /* An unknown record type is skipped by its size. */
    size_t n = build(f, 999, 16);
    gs_trace *t = load_bytes(f, n, &err);
    CHECK(t != NULL);
    CHECK_INT(t ? t->events_skipped : 0, 1);
    gs_trace_delete(t);
    /* A counter with 16 appended bytes (a newer minor version) keeps its known fields. */
    n = build(f, GST_REC_COUNTER, 48);
    gst_put_u64(f + 56, 42);
    gst_put_u32(f + 76, 7); /* name: never defined */
    t = load_bytes(f, n, &err);
    CHECK(t && t->counters.n == 1);
    if (t) {
        CHECK_INT(t->counters.v[0].ts, 42);
        CHECK_STR(gs_trace_str(t, t->counters.v[0].name), "<string 7>");
    }
    gs_trace_delete(t);
    /* An unknown chunk type is skipped; a longer header is skipped to its declared size. */
    n = build(f, GST_REC_COUNTER, 32);
    gst_put_u16(f + 36, 9);
    t = load_bytes(f, n, &err);
    CHECK(t && t->counters.n == 0 && t->events_skipped == 1);
    gs_trace_delete(t);
    uint8_t g[256];
    n = build(f, GST_REC_COUNTER, 32);
    memcpy(g, f, 32);
    memset(g + 32, 0xee, 8);
    memcpy(g + 40, f + 32, n - 32);
    gst_put_u32(g + 12, 40);
    t = load_bytes(g, n + 8, &err);
    CHECK(t && t->counters.n == 1);
    gs_trace_delete(t);
    /* A chunk claiming 60 MiB in a tiny file: torn, and read without allocating 60 MiB. */
    n = build(f, GST_REC_COUNTER, 32);
    gst_put_u32(f + 40, 60u << 20);
    t = load_bytes(f, n, &err);
    CHECK(t && t->counters.n == 0 && t->lost[GS_LOSS_TORN_CHUNK] == 1);
    gs_trace_delete(t);
    /* A torn last chunk: the records before it stay, its records count as lost in it. */
    n = build(f, GST_REC_COUNTER, 32);
    t = load_bytes(f, n - 1, &err);
    CHECK(t && t->counters.n == 0 && t->lost[GS_LOSS_TORN_CHUNK] == 1);
    gs_trace_delete(t);
}

static void test_writer_errors(void)
{
    static uint8_t buf[GST_WRITER_MIN_BUFFER];
    gst_writer w;
    CHECK_INT(gst_writer_open(&w, 1, buf, 64, GST_CLOCK_UNKNOWN, 0), -EINVAL);
    int fds[2];
    CHECK_INT(pipe(fds), 0);
    CHECK_INT(gst_writer_open(&w, fds[1], buf, sizeof buf, GST_CLOCK_UNKNOWN, 0), 0);
    static char big[GST_WRITER_MIN_BUFFER];
    memset(big, 'a', sizeof big);
    CHECK_INT(gst_writer_string(&w, 1, 0, big, sizeof big), -EMSGSIZE);
    CHECK_INT(gst_writer_string(&w, 1, 0, big, 10), 0); /* still usable */
    CHECK_INT(gst_writer_string(&w, 0, 0, "x", 1), -EINVAL);
    CHECK_INT(gst_writer_add(&w, GST_REC_STRING, big), -EINVAL);
    CHECK_INT(gst_writer_add(&w, 12345, big), -EINVAL);
    close(fds[0]);
    close(fds[1]);
    gst_counter c = {0};
    /* A write error sticks: nothing is written after a torn chunk. */
    int rc = 0;
    for (int i = 0; i < 20 && rc == 0; i++)
        rc = gst_writer_add(&w, GST_REC_COUNTER, &c);
    CHECK_INT(rc, -EBADF);
    CHECK_INT(gst_writer_flush(&w), -EBADF);
}

/* The descriptor check before each chunk: -1 drops the chunk and counts its records, the writer
 * stays usable; another descriptor replaces the writer's and takes the next chunk. */
static int check_result;
static int check_fd(void *ctx, int fd)
{
    (void)fd;
    ++*(int *)ctx;
    return check_result;
}

static void test_writer_fd_check(void)
{
    static uint8_t buf[GST_WRITER_MIN_BUFFER];
    int a[2], b[2], calls = 0;
    CHECK_INT(pipe(a), 0);
    CHECK_INT(pipe(b), 0);
    gst_writer w;
    CHECK_INT(gst_writer_open(&w, a[1], buf, sizeof buf, GST_CLOCK_REALTIME, 0), 0);
    uint8_t header[GST_FILE_HEADER_SIZE];
    CHECK_INT(read(a[0], header, sizeof header), GST_FILE_HEADER_SIZE);
    w.fd_check = check_fd;
    w.fd_check_ctx = &calls;
    gst_counter c = {0};
    check_result = -1;
    CHECK_INT(gst_writer_add(&w, GST_REC_COUNTER, &c) | gst_writer_add(&w, GST_REC_COUNTER, &c), 0);
    CHECK_INT(gst_writer_flush(&w), 0);
    CHECK_INT(calls, 1);
    CHECK_INT(w.records_dropped, 2);
    CHECK_INT(w.chunks_written, 0);
    check_result = b[1];
    CHECK_INT(gst_writer_add(&w, GST_REC_COUNTER, &c), 0);
    CHECK_INT(gst_writer_flush(&w), 0);
    CHECK_INT(w.fd, b[1]);
    CHECK_INT(w.chunks_written, 1);
    CHECK_INT(w.records_dropped, 2);
    uint8_t chunk[256];
    CHECK_INT(read(b[0], chunk, sizeof chunk), GST_CHUNK_HEADER_SIZE + 32);
    CHECK_INT(gst_get_u32(chunk + 12), 1); /* one record: the dropped ones are not resent */
    for (int i = 0; i < 2; i++) {
        close(a[i]);
        close(b[i]);
    }
}

/* The layout tables and the sizes documented in doc/FORMAT.md agree. */
static void test_layouts(void)
{
    static const int sizes[GST_REC__COUNT] = {0, 24, 40, 12, 80, 48, 48, 56, 40, 48, 32, 64, 24,
                                              32, 24};
    for (uint32_t type = 1; type < GST_REC__COUNT; type++) {
        const gst_layout *l = gst_layout_of(type);
        int sum = 0;
        for (unsigned i = 0; i < l->nfields; i++)
            sum += l->fields[i].width;
        CHECK_INT(sum, l->payload_size);
        CHECK_INT(l->payload_size, sizes[type]);
        CHECK_INT(l->payload_size % 4, 0);
    }
    CHECK(gst_layout_of(0) == NULL && gst_layout_of(GST_REC__COUNT) == NULL);
}

int main(void)
{
    test_layouts();
    test_writer_fd_check();
    test_end_marker();
    test_round_trip();
    test_truncation();
    test_corrupt();
    test_compatibility();
    test_writer_errors();
    return check_done("test_gst");
}
