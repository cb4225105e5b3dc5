/* How one file holds several ranks: gpuscope's chrome export of several traces, each a part of the
 * file (doc/export.md "Several traces", doc/FORMAT.md "gpuscopeRanks"). The writer
 * (export/chrome_write.c) moves each trace's ids by these rules and the reader
 * (ingest/kineto_part.c) moves them back, so both use this one definition. For part i (the i-th
 * entry of "gpuscopeRanks", from 0):
 *   - host pid P is written (i + 1) * 10^7 + P and GPU D's process (i + 1) * 10^7 + 5 * 10^6 + D:
 *     Linux pids stay below 2^22, so no two parts collide and a pid names its part;
 *   - correlation ids and External ids get (i + 1) << 32 added: CUPTI's and Kineto's are 32-bit,
 *     and the reader links a launch to its GPU work and an operator to its kernels by them. */
#ifndef GS_INGEST_RANK_PARTS_H
#define GS_INGEST_RANK_PARTS_H

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define GS_PART_PID_STRIDE INT64_C(10000000)
#define GS_PART_GPU_OFFSET INT64_C(5000000)

/* The ranks one file may hold: the reader reads the whole file once for each (a larger table is
 * refused rather than read thousands of times). */
#define GS_PARTS_MAX 4096

static inline int64_t gs_part_host_pid(size_t part, int64_t pid)
{
    return (int64_t)(part + 1) * GS_PART_PID_STRIDE + pid;
}

static inline int64_t gs_part_gpu_pid(size_t part, int64_t device)
{
    return (int64_t)(part + 1) * GS_PART_PID_STRIDE + GS_PART_GPU_OFFSET + device;
}

/* Added to the part's correlation and External ids. */
static inline uint64_t gs_part_id_base(size_t part)
{
    return (uint64_t)(part + 1) << 32;
}

/* A part is named "PATH (rank R)" wherever a result or a message names its trace. */
#define GS_PART_NAME_FMT "%s (rank %" PRId32 ")"

/* The length of the file's path in `name`: all of it, unless `name` is part `rank`'s name, for
 * what a user can type (a command line names the file, not the part). */
static inline size_t gs_part_file_len(const char *name, int32_t rank)
{
    char tail[32];
    size_t n = strlen(name), t = (size_t)snprintf(tail, sizeof tail, " (rank %" PRId32 ")", rank);
    return n > t && memcmp(name + n - t, tail, t) == 0 ? n - t : n;
}

#endif
