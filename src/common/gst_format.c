#include "common/gst_format.h"
#include "common/util.h"

#include <string.h>

/* Field tables in on-disk order. Each record's payload is padded to a multiple of 8 bytes so
 * that records written back to back stay 8-byte aligned for a reader that maps the file. */
#define F(type, field, width) {(uint16_t)offsetof(type, field), width, 0}
#define S(type, field) {(uint16_t)offsetof(type, field), 4, 1} /* a gst_strid */
#define PAD(width) {GST_PAD, width, 0}
#define LAYOUT(size, table) {size, (uint8_t)(COUNT_OF(table)), table}

static const gst_field process_fields[] = {
    F(gst_process, pid, 8), F(gst_process, rank, 4), F(gst_process, world_size, 4),
    S(gst_process, hostname), S(gst_process, command_line),
};
static const gst_field device_fields[] = {
    F(gst_device, id, 4), F(gst_device, num_sms, 4), F(gst_device, total_memory, 8),
    F(gst_device, compute_major, 4), F(gst_device, compute_minor, 4),
    F(gst_device, max_threads_per_sm, 4), S(gst_device, name), S(gst_device, uuid),
    PAD(4),
};
static const gst_field string_fields[] = {
    S(gst_string, id), S(gst_string, domain), F(gst_string, length, 4),
};
static const gst_field kernel_fields[] = {
    F(gst_kernel, start, 8), F(gst_kernel, end, 8), F(gst_kernel, correlation, 8),
    F(gst_kernel, graph_id, 8), F(gst_kernel, device, 4), F(gst_kernel, stream, 4),
    S(gst_kernel, name), F(gst_kernel, grid[0], 4), F(gst_kernel, grid[1], 4),
    F(gst_kernel, grid[2], 4), F(gst_kernel, block[0], 4), F(gst_kernel, block[1], 4),
    F(gst_kernel, block[2], 4), F(gst_kernel, registers_per_thread, 4),
    F(gst_kernel, shared_memory, 4), PAD(4),
};
static const gst_field memcpy_fields[] = {
    F(gst_memcpy, start, 8), F(gst_memcpy, end, 8), F(gst_memcpy, bytes, 8),
    F(gst_memcpy, correlation, 8), F(gst_memcpy, device, 4), F(gst_memcpy, stream, 4),
    F(gst_memcpy, copy_kind, 1), F(gst_memcpy, src_loc, 1), F(gst_memcpy, dst_loc, 1),
    PAD(5),
};
static const gst_field memset_fields[] = {
    F(gst_memset, start, 8), F(gst_memset, end, 8), F(gst_memset, bytes, 8),
    F(gst_memset, correlation, 8), F(gst_memset, device, 4), F(gst_memset, stream, 4),
    F(gst_memset, value, 4), F(gst_memset, dst_loc, 1), PAD(3),
};
static const gst_field api_fields[] = {
    F(gst_api, start, 8), F(gst_api, end, 8), F(gst_api, pid, 8), F(gst_api, tid, 8),
    F(gst_api, correlation, 8), F(gst_api, cbid, 4), S(gst_api, name), F(gst_api, kind, 1),
    PAD(7),
};
static const gst_field sync_fields[] = {
    F(gst_sync, start, 8), F(gst_sync, end, 8), F(gst_sync, correlation, 8),
    F(gst_sync, device, 4), F(gst_sync, stream, 4), F(gst_sync, sync_type, 4), PAD(4),
};
static const gst_field nvtx_range_fields[] = {
    F(gst_nvtx_range, start, 8), F(gst_nvtx_range, end, 8), F(gst_nvtx_range, pid, 8),
    F(gst_nvtx_range, tid, 8), S(gst_nvtx_range, name), S(gst_nvtx_range, domain),
    F(gst_nvtx_range, style, 1), PAD(7),
};
static const gst_field nvtx_mark_fields[] = {
    F(gst_nvtx_mark, ts, 8), F(gst_nvtx_mark, pid, 8), F(gst_nvtx_mark, tid, 8),
    S(gst_nvtx_mark, name), S(gst_nvtx_mark, domain),
};
static const gst_field memory_fields[] = {
    F(gst_memory, ts, 8), F(gst_memory, pid, 8), F(gst_memory, tid, 8), F(gst_memory, addr, 8),
    F(gst_memory, bytes, 8), F(gst_memory, total_allocated, 8),
    F(gst_memory, total_reserved, 8), F(gst_memory, device, 4), F(gst_memory, loc, 1), PAD(3),
};
static const gst_field counter_fields[] = {
    F(gst_counter, ts, 8), F(gst_counter, value, 8), F(gst_counter, device, 4),
    S(gst_counter, name),
};
static const gst_field note_fields[] = {
    F(gst_note, ts, 8), F(gst_note, records_dropped, 8), F(gst_note, overhead_ns, 8),
    F(gst_note, source, 4), S(gst_note, text),
};
static const gst_field thread_fields[] = {
    F(gst_thread, pid, 8), F(gst_thread, tid, 8), S(gst_thread, name), PAD(4),
};

static const gst_layout layouts[GST_REC__COUNT] = {
    [GST_REC_PROCESS] = LAYOUT(24, process_fields),
    [GST_REC_DEVICE] = LAYOUT(40, device_fields),
    [GST_REC_STRING] = LAYOUT(12, string_fields),
    [GST_REC_KERNEL] = LAYOUT(80, kernel_fields),
    [GST_REC_MEMCPY] = LAYOUT(48, memcpy_fields),
    [GST_REC_MEMSET] = LAYOUT(48, memset_fields),
    [GST_REC_API] = LAYOUT(56, api_fields),
    [GST_REC_SYNC] = LAYOUT(40, sync_fields),
    [GST_REC_NVTX_RANGE] = LAYOUT(48, nvtx_range_fields),
    [GST_REC_NVTX_MARK] = LAYOUT(32, nvtx_mark_fields),
    [GST_REC_MEMORY] = LAYOUT(64, memory_fields),
    [GST_REC_COUNTER] = LAYOUT(24, counter_fields),
    [GST_REC_NOTE] = LAYOUT(32, note_fields),
    [GST_REC_THREAD] = LAYOUT(24, thread_fields),
};

const gst_layout *gst_layout_of(uint32_t type)
{
    return type > 0 && type < GST_REC__COUNT ? &layouts[type] : NULL;
}

/* Host fields are read and written with memcpy of their own width (no aliasing casts); the
 * byte order on disk is fixed by gst_put_* / gst_get_*. */
void gst_encode(const gst_layout *l, const void *host, uint8_t *out)
{
    const uint8_t *h = host;
    for (unsigned i = 0; i < l->nfields; i++) {
        const gst_field *f = &l->fields[i];
        if (f->host_offset == GST_PAD) {
            memset(out, 0, f->width);
        } else if (f->width == 1) {
            out[0] = h[f->host_offset];
        } else if (f->width == 2) {
            uint16_t v;
            memcpy(&v, h + f->host_offset, 2);
            gst_put_u16(out, v);
        } else if (f->width == 4) {
            uint32_t v;
            memcpy(&v, h + f->host_offset, 4);
            gst_put_u32(out, v);
        } else {
            uint64_t v;
            memcpy(&v, h + f->host_offset, 8);
            gst_put_u64(out, v);
        }
        out += f->width;
    }
}

void gst_decode(const gst_layout *l, const uint8_t *in, void *host)
{
    uint8_t *h = host;
    for (unsigned i = 0; i < l->nfields; i++) {
        const gst_field *f = &l->fields[i];
        if (f->host_offset == GST_PAD) {
            /* padding: ignored, a newer writer may use it */
        } else if (f->width == 1) {
            h[f->host_offset] = in[0];
        } else if (f->width == 2) {
            uint16_t v = gst_get_u16(in);
            memcpy(h + f->host_offset, &v, 2);
        } else if (f->width == 4) {
            uint32_t v = gst_get_u32(in);
            memcpy(h + f->host_offset, &v, 4);
        } else {
            uint64_t v = gst_get_u64(in);
            memcpy(h + f->host_offset, &v, 8);
        }
        in += f->width;
    }
}

void gst_encode_file_header(const gst_file_header *h, uint8_t out[GST_FILE_HEADER_SIZE])
{
    memcpy(out, GST_MAGIC, GST_MAGIC_SIZE);
    gst_put_u16(out + 8, h->version_major);
    gst_put_u16(out + 10, h->version_minor);
    gst_put_u32(out + 12, h->header_size);
    gst_put_u32(out + 16, h->clock);
    gst_put_u32(out + 20, h->flags);
    gst_put_u64(out + 24, (uint64_t)h->epoch_ns);
}

void gst_decode_file_header(const uint8_t in[GST_FILE_HEADER_SIZE], gst_file_header *h)
{
    h->version_major = gst_get_u16(in + 8);
    h->version_minor = gst_get_u16(in + 10);
    h->header_size = gst_get_u32(in + 12);
    h->clock = gst_get_u32(in + 16);
    h->flags = gst_get_u32(in + 20);
    h->epoch_ns = (int64_t)gst_get_u64(in + 24);
}

void gst_encode_chunk_header(const gst_chunk_header *h, uint8_t out[GST_CHUNK_HEADER_SIZE])
{
    gst_put_u32(out, h->magic);
    gst_put_u16(out + 4, h->type);
    gst_put_u16(out + 6, h->flags);
    gst_put_u32(out + 8, h->payload_size);
    gst_put_u32(out + 12, h->record_count);
}

void gst_decode_chunk_header(const uint8_t in[GST_CHUNK_HEADER_SIZE], gst_chunk_header *h)
{
    h->magic = gst_get_u32(in);
    h->type = gst_get_u16(in + 4);
    h->flags = gst_get_u16(in + 6);
    h->payload_size = gst_get_u32(in + 8);
    h->record_count = gst_get_u32(in + 12);
}
