/* The .gsum schema (doc/FORMAT.md, "Rank summaries"): one table of fields per record of a rank
 * summary, shared by the writer (gsum_write.h) and the reader (gsum_read.h) so the two cannot
 * drift apart. Every number is written exactly (integers as integers, doubles with 17
 * significant digits), so a summary read back gives the same report as the trace. */
#ifndef GS_ANALYSIS_PIPELINE_GSUM_SCHEMA_H
#define GS_ANALYSIS_PIPELINE_GSUM_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/pipeline/summary.h"
#include "ingest/load.h" /* GS_GSUM_MAGIC */

#define GS_GSUM_VERSION 1
/* Minor 1 added the GPUs, the longest idle gaps, the copies table and the charts' series; minor 2
 * what tracing cost the program; minor 3 the start-up phase, for steps detected from the repeating
 * kernel sequence their period and confidence, the CUDA graph facts, and the trace's context
 * (collector and options, workload, parallelism, precision, the profiler's estimated cost:
 * trace_facts.h); minor 4 model FLOPs, MFU and Tensor Core use (doc/flops.md); minor 5 the
 * parallelism as a set of kinds and what it is read from (DDP's and FSDP's ranges, all-reduces in
 * the forward, embedding-table kernels), and the profiled CPU time the merged operator table's CPU
 * shares are of; minor 6 the replay's mean step unchanged and with each action alone (the
 * verdict's expected gains); minor 7 the roofline per operator group (its largest groups, the
 * GPU's roofs: doc/roofline.md). A reader of an older minor skips them; a file without them reads as
 * a summary without them. */
#define GS_GSUM_MINOR 7

enum gs_gsum_type {
    GS_F_I64,  /* int64_t, gs_ns */
    GS_F_I32,  /* int32_t */
    GS_F_U64,  /* uint64_t */
    GS_F_SIZE, /* size_t */
    GS_F_U32,  /* uint32_t */
    GS_F_DBL,  /* double */
    GS_F_BOOL, /* bool */
    GS_F_ENUM, /* an enum, with its count: values 0 .. max-1 */
    GS_F_U8,   /* uint8_t holding an enum, with its count */
    GS_F_I8,   /* int8_t */
    GS_F_LONG, /* long */
    GS_F_STR,  /* char * (or const char *), owned (NULL written as null) */
    GS_F_CHARS, /* char[max], NUL-terminated */
};

typedef struct gs_gsum_field {
    const char *key;
    uint8_t type; /* enum gs_gsum_type */
    size_t off;
    int max;      /* GS_F_ENUM, GS_F_U8: values below it; GS_F_CHARS: the array's size */
} gs_gsum_field;

/* One section: a JSON object (one record at `off` in the summary) or an array of records whose
 * pointer and count are at `off` and `count_off`, each `size` bytes. A section of a later minor
 * has a flag, set when its key is read and tested before it is written: a summary read from an
 * older file does not claim what it does not hold. */
typedef struct gs_gsum_section {
    const char *key;
    const gs_gsum_field *fields;
    size_t nfields;
    size_t off;       /* of the record, or of the array pointer */
    size_t count_off; /* arrays: of the size_t count; 0 for an object */
    size_t size;      /* arrays: of one element */
    size_t flag_off;  /* of its bool has_* flag; 0 for a section every summary has */
} gs_gsum_section;

const gs_gsum_section *gs_gsum_sections(size_t *n);

#endif
