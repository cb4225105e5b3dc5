/* The .gst on-disk layout (doc/FORMAT.md, ".gst"), shared by the agent's writer and the reader.
 *
 * A file is a header followed by chunks; a chunk is a header followed by records; a record is a
 * header (type, size) followed by fixed-width little-endian fields. Host structs below are never
 * copied to disk as they are: every field is encoded one by one from a layout table, so the file
 * does not depend on the compiler's padding, bit fields or the host's byte order. */
#ifndef GS_COMMON_GST_FORMAT_H
#define GS_COMMON_GST_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/* PNG-style magic: a non-ASCII first byte and CR LF / ^Z / LF catch text-mode mangling. */
#define GST_MAGIC "\x89GST\r\n\x1a\n"
#define GST_MAGIC_SIZE 8
#define GST_VERSION_MAJOR 1 /* a reader refuses another major version */
/* Newer minors only append fields, records or chunk types. 1: a finished file ends with an END
 * chunk. */
#define GST_VERSION_MINOR 1
#define GST_FILE_HEADER_SIZE 32
#define GST_CHUNK_HEADER_SIZE 16
#define GST_RECORD_HEADER_SIZE 8
#define GST_CHUNK_MAGIC 0x4b4e4843u /* "CHNK" read as a little-endian u32 */
#define GST_CHUNK_RECORDS 1
/* The end marker (version 1.1): a writer that finishes a file ends it with this chunk, so that a
 * file cut at a chunk boundary (a killed writer, a copy cut short) can be told from a whole one.
 * Its record_count is 0 and its payload two u64: the chunks before it that are not END chunks,
 * and the records they declare. More chunks may follow it (a writer that flushed at a signal and
 * went on); a file is whole when its last chunk is an END chunk. */
#define GST_CHUNK_END 2
#define GST_END_PAYLOAD_SIZE 16
/* A reader refuses larger chunks as corrupt: bounds its memory on hostile input. */
#define GST_MAX_CHUNK_PAYLOAD (64u << 20)

/* Which clock the times are on; epoch_ns converts them to ns since the Unix epoch. */
enum gst_clock {
    GST_CLOCK_UNKNOWN = 0,
    GST_CLOCK_REALTIME = 1,      /* CLOCK_REALTIME: epoch_ns is 0 */
    GST_CLOCK_MONOTONIC = 2,     /* CLOCK_MONOTONIC */
    GST_CLOCK_MONOTONIC_RAW = 3, /* CLOCK_MONOTONIC_RAW */
    GST_CLOCK_CUPTI = 4,         /* cuptiGetTimestamp() */
};

typedef struct gst_file_header {
    uint16_t version_major, version_minor;
    uint32_t header_size; /* bytes from the file start to the first chunk, >= 32 */
    uint32_t clock;       /* enum gst_clock */
    uint32_t flags;       /* 0; reserved */
    int64_t epoch_ns;     /* add to a time to get ns since the Unix epoch */
} gst_file_header;

typedef struct gst_chunk_header {
    uint32_t magic;         /* GST_CHUNK_MAGIC */
    uint16_t type;          /* GST_CHUNK_RECORDS; readers skip other types */
    uint16_t flags;         /* 0; reserved */
    uint32_t payload_size;  /* bytes of records after this header */
    uint32_t record_count;
} gst_chunk_header;

enum gst_record_type {
    GST_REC_PROCESS = 1,
    GST_REC_DEVICE = 2,
    GST_REC_STRING = 3,
    GST_REC_KERNEL = 4,
    GST_REC_MEMCPY = 5,
    GST_REC_MEMSET = 6,
    GST_REC_API = 7,
    GST_REC_SYNC = 8,
    GST_REC_NVTX_RANGE = 9,
    GST_REC_NVTX_MARK = 10,
    GST_REC_MEMORY = 11,
    GST_REC_COUNTER = 12,
    GST_REC_NOTE = 13,
    GST_REC_THREAD = 14,
    GST_REC__COUNT
};

/* Where memory lives (copy ends, allocations). Values are the format's, not the model's. */
enum gst_mem_loc {
    GST_LOC_UNKNOWN = 0,
    GST_LOC_PAGEABLE = 1,
    GST_LOC_PINNED = 2,
    GST_LOC_DEVICE = 3,
    GST_LOC_ARRAY = 4,
    GST_LOC_MANAGED = 5,
};

enum gst_copy_kind {
    GST_COPY_UNKNOWN = 0,
    GST_COPY_HTOD = 1,
    GST_COPY_DTOH = 2,
    GST_COPY_DTOD = 3,
    GST_COPY_HTOH = 4,
    GST_COPY_PTOP = 5,
};

enum gst_api_kind { GST_API_RUNTIME = 0, GST_API_DRIVER = 1 };

/* CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_* values, kept as CUPTI numbers them. */
enum gst_sync_type {
    GST_SYNC_UNKNOWN = 0,
    GST_SYNC_EVENT = 1,
    GST_SYNC_STREAM_WAIT_EVENT = 2,
    GST_SYNC_STREAM = 3,
    GST_SYNC_CONTEXT = 4,
};

enum gst_nvtx_style { GST_NVTX_PUSH_POP = 0, GST_NVTX_START_END = 1 };

/* GST_NOTE_MERGE: records of a per-process file's torn last chunk (its process was killed while
 * writing), counted by the merge of gpuscope run; the reader counts them as torn, not dropped.
 * GST_NOTE_CUT_SHORT: a per-process file that ended at a chunk boundary without its end marker
 * (the process died before the agent finished it), one note per file; the reader counts a
 * capture cut short. */
enum gst_note_source {
    GST_NOTE_CUPTI = 0,
    GST_NOTE_AGENT = 1,
    GST_NOTE_NVTX = 2,
    GST_NOTE_SAMPLER = 3,
    GST_NOTE_MERGE = 4,
    GST_NOTE_CUT_SHORT = 5,
};

/* String ids are the writer's: 0 is the empty string, others are defined by a STRING record
 * anywhere in the file (before or after their use). */
typedef uint32_t gst_strid;

typedef struct gst_process {
    int64_t pid;
    int32_t rank, world_size; /* -1 / 0 when unknown */
    gst_strid hostname, command_line;
} gst_process;

typedef struct gst_device {
    int32_t id, num_sms;
    uint64_t total_memory;
    int32_t compute_major, compute_minor, max_threads_per_sm;
    gst_strid name, uuid;
} gst_device;

/* Fixed part of a STRING record; `length` bytes (no NUL) follow it. */
typedef struct gst_string {
    gst_strid id;
    gst_strid domain; /* NVTX domain of a registered string, 0 otherwise */
    uint32_t length;
} gst_string;

typedef struct gst_kernel {
    int64_t start, end;
    uint64_t correlation;
    int64_t graph_id;
    int32_t device, stream;
    gst_strid name;
    int32_t grid[3], block[3];
    int32_t registers_per_thread, shared_memory; /* -1 when unknown */
} gst_kernel;

typedef struct gst_memcpy {
    int64_t start, end;
    uint64_t bytes, correlation;
    int32_t device, stream;
    uint8_t copy_kind, src_loc, dst_loc; /* enum gst_copy_kind, gst_mem_loc */
} gst_memcpy;

typedef struct gst_memset {
    int64_t start, end;
    uint64_t bytes, correlation;
    int32_t device, stream;
    uint32_t value;
    uint8_t dst_loc;
} gst_memset;

typedef struct gst_api {
    int64_t start, end, pid, tid;
    uint64_t correlation;
    int32_t cbid;
    gst_strid name;
    uint8_t kind; /* enum gst_api_kind */
} gst_api;

typedef struct gst_sync {
    int64_t start, end;
    uint64_t correlation;
    int32_t device, stream;
    uint32_t sync_type; /* enum gst_sync_type */
} gst_sync;

typedef struct gst_nvtx_range {
    int64_t start, end, pid, tid; /* tid: the thread that pushed or started it */
    gst_strid name, domain;
    uint8_t style; /* enum gst_nvtx_style */
} gst_nvtx_range;

typedef struct gst_nvtx_mark {
    int64_t ts, pid, tid;
    gst_strid name, domain;
} gst_nvtx_mark;

typedef struct gst_memory {
    int64_t ts, pid, tid;
    uint64_t addr;
    int64_t bytes; /* > 0 allocation, < 0 free */
    int64_t total_allocated, total_reserved; /* -1 when unknown */
    int32_t device; /* -1 for host memory */
    uint8_t loc;    /* enum gst_mem_loc */
} gst_memory;

typedef struct gst_counter {
    int64_t ts;
    double value;
    int32_t device; /* -1 when not device-specific */
    gst_strid name; /* "gpu_util_pct", "cpu_pct", ... */
} gst_counter;

/* What the collector lost or cost: dropped records and overhead time. */
typedef struct gst_note {
    int64_t ts;
    uint64_t records_dropped;
    int64_t overhead_ns;
    uint32_t source; /* enum gst_note_source */
    gst_strid text;
} gst_note;

typedef struct gst_thread {
    int64_t pid, tid;
    gst_strid name;
} gst_thread;

/* One field of a record: where it is in the host struct and how many bytes it takes on disk
 * (1, 2, 4 or 8); host_offset GST_PAD marks padding that is written as zeros. is_string marks a
 * gst_strid, which merging files must renumber. */
#define GST_PAD UINT16_MAX
typedef struct gst_field {
    uint16_t host_offset;
    uint8_t width;
    uint8_t is_string;
} gst_field;

typedef struct gst_layout {
    uint16_t payload_size; /* bytes after the record header, in this version */
    uint8_t nfields;
    const gst_field *fields;
} gst_layout;

/* The layout of a record type, NULL for an unknown type. */
const gst_layout *gst_layout_of(uint32_t type);

/* Explicit little-endian helpers. */
static inline void gst_put_u16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static inline void gst_put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static inline void gst_put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static inline uint16_t gst_get_u16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}
static inline uint32_t gst_get_u32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}
static inline uint64_t gst_get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

/* Record payloads from and to host structs, by the layout table. */
void gst_encode(const gst_layout *l, const void *host, uint8_t *out);
void gst_decode(const gst_layout *l, const uint8_t *in, void *host);

void gst_encode_file_header(const gst_file_header *h, uint8_t out[GST_FILE_HEADER_SIZE]);
void gst_decode_file_header(const uint8_t in[GST_FILE_HEADER_SIZE], gst_file_header *h);
void gst_encode_chunk_header(const gst_chunk_header *h, uint8_t out[GST_CHUNK_HEADER_SIZE]);
void gst_decode_chunk_header(const uint8_t in[GST_CHUNK_HEADER_SIZE], gst_chunk_header *h);

#endif
