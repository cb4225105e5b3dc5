/* One Chrome-trace event object as the Kineto and legacy readers see it: the keys and args any
 * view needs, parsed straight from the scanner's tokens, everything else skipped. */
#ifndef GS_INGEST_KINETO_EVENT_H
#define GS_INGEST_KINETO_EVENT_H

#include <stdbool.h>
#include <stdint.h>

#include "ingest/json.h"
#include "model/trace.h"

/* Categories, old and new spellings folded together (doc/FORMAT.md lists both). */
enum kcat {
    KCAT_NONE, /* no "cat" key (legacy export, metadata) */
    KCAT_KERNEL,
    KCAT_MEMCPY,
    KCAT_MEMSET,
    KCAT_SYNC,
    KCAT_RUNTIME,
    KCAT_DRIVER,
    KCAT_CPU_OP,
    KCAT_USER_ANNOTATION,
    KCAT_GPU_USER_ANNOTATION,
    KCAT_PYTHON,
    KCAT_NVTX,        /* gpuscope's export: NVTX ranges, with a "domain" arg */
    KCAT_GPU_COUNTER, /* gpuscope's export: a "C" counter of the GPU that is the event's pid */
    KCAT_CPU_INSTANT,
    KCAT_FLOW,
    KCAT_IGNORED, /* kept out of the model on purpose: Trace spans, CUPTI overhead, ... */
    KCAT_ACCELERATOR, /* an accelerator's own device events that gpuscope does not read (MTIA) */
    KCAT_OTHER,
};

/* Which optional fields the event carried. */
enum karg {
    KARG_EXTERNAL_ID = 1u << 0,
    KARG_CORRELATION = 1u << 1,
    KARG_DEVICE = 1u << 2,
    KARG_STREAM = 1u << 3,
    KARG_BYTES = 1u << 4,
    KARG_TS = 1u << 5,
    KARG_DUR = 1u << 6,
    KARG_MEM_TOTAL_ALLOC = 1u << 7,
    KARG_MEM_TOTAL_RESERVED = 1u << 8,
    KARG_VALUE = 1u << 9,
    KARG_TS_UNFIT = 1u << 10,  /* a "ts" number too large for int64 ns (1e999) */
    KARG_DUR_UNFIT = 1u << 11, /* the same for "dur" */
};

typedef struct kevent {
    char ph;
    uint8_t cat; /* enum kcat */
    gs_str name;
    /* A pid or tid written as text ("Spans", "CPU functions") keeps its text, and the model,
     * whose pids and tids are numbers, gets a negative stand-in for it, one per distinct text. */
    int64_t pid, tid;
    bool pid_is_text, tid_is_text;
    gs_str pid_text, tid_text; /* when *_is_text */
    gs_ns ts, dur;
    uint32_t have; /* enum karg bits */
    /* A collective's args (record_param_comms ops, NCCL kernels); coll_name is GS_STR_EMPTY
     * when the event has none. */
    gs_str coll_name, coll_dtype, coll_group;
    int64_t coll_in_nelems, coll_out_nelems, coll_group_size;
    /* args */
    int64_t external_id, correlation, cbid, device, stream, bytes, graph_id;
    gs_str mangled; /* "mangled name" of a kernel (gpuscope's export of a .gst), else empty */
    int64_t registers, shared_memory;
    int32_t grid[3], block[3];
    double blocks_per_sm, warps_per_sm, occupancy;
    gs_str input_dims, input_types, concrete_inputs, arg_name, domain;
    double flops; /* "flops", 0 when absent */
    double value; /* a counter's sample (ph "C", arg "value") */
    int64_t mem_device_type, mem_device_id, addr, mem_bytes, total_allocated, total_reserved;
} kevent;

/* The keys of an event the reader uses; KKEY__COUNT stands for any other, KKEY_START for none
 * yet (the index of kscratch.after_key before an event's first key). */
enum kevent_key {
    KKEY_PH, KKEY_CAT, KKEY_NAME, KKEY_PID, KKEY_TID, KKEY_TS, KKEY_DUR, KKEY_ARGS,
    KKEY__COUNT,
    KKEY_START = KKEY__COUNT + 1,
};

/* The args' keys are numbered by the reader's table of them, below KARG_KEY_START. */
enum { KARG_KEY_START = 62 }; /* before the first key */

/* Scratch space reused across events: decoded strings, captured values, the order of keys. */
typedef struct kscratch {
    char *buf;
    size_t cap;
    size_t last_cat; /* the category table's entry the last event matched */
    /* The rest of an event of a phase no view uses is skipped unread once its "ph" is known
     * (KEVENT_UNREAD): set where nothing but their count is wanted (kineto_read_events). */
    bool skip_unused_phases;
    uint8_t after_key[KKEY_START + 1]; /* the key that followed each key last, by enum kevent_key */
    uint8_t after_arg[KARG_KEY_START + 1]; /* the same for the args' keys (kineto_event.c) */
} kscratch;

void kscratch_free(kscratch *s);

/* Whether the model takes events of this phase: complete events, instants, counters, metadata.
 * Flows and begin/end pairs are counted as skipped. */
static inline bool kineto_phase_used(char ph)
{
    return ph == 'X' || ph == 'i' || ph == 'I' || ph == 'C' || ph == 'M';
}

enum { KEVENT_UNREAD = 1 };

/* Reads the event object whose '{' was the current token. Returns 0; KEVENT_UNREAD when it was
 * skipped by its phase (scratch->skip_unused_phases; ev then holds what came before "ph"); -1 with
 * j's error. */
int kineto_read_event(gs_json *j, gs_trace *t, kscratch *scratch, kevent *ev);

/* Interns the current string token (decoding escapes). GS_STR_ERROR when out of memory. */
gs_str kineto_intern_token(gs_json *j, gs_trace *t, kscratch *scratch);

/* What a read of events counted (kineto_read_events): the events that joined (a survey's, all
 * those it read, kept or not: kineto_window.h), and in a survey the bytes of the model's arrays
 * they would have filled (kineto_event_bytes), which sizes the window of steps deterministically. */
typedef struct kread_tally {
    uint64_t events;
    uint64_t model_bytes;
} kread_tally;

#endif
