/* The PyTorch profiler (Kineto) trace reader: a top-level object whose traceEvents array holds
 * Chrome-trace events. Every dialect PyTorch has written since 1.8 goes through here; the
 * differences are folded into the category table (kineto_event.c) and the rules below. */
#include "ingest/kineto.h"
#include "common/util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/kineto_header.h"
#include "ingest/kineto_window.h"
#include "ingest/rank_parts.h"

enum { PROGRESS_EVERY = 1 << 16 };

/* ---- GPU memory operations: kind and locations come from the name Kineto writes ------------- */

static const struct {
    const char *token;
    enum gs_memop_kind kind;
} memcpy_kinds[] = {
    {"HtoD", GS_MEMOP_HTOD}, {"DtoH", GS_MEMOP_DTOH}, {"DtoD", GS_MEMOP_DTOD},
    {"HtoH", GS_MEMOP_HTOH}, {"PtoP", GS_MEMOP_PTOP},
};

static const struct {
    const char *word;
    enum gs_mem_loc loc;
} mem_locs[] = {
    {"Pageable", GS_LOC_PAGEABLE}, {"Pinned", GS_LOC_PINNED}, {"Device", GS_LOC_DEVICE},
    {"Array", GS_LOC_ARRAY},       {"Managed", GS_LOC_MANAGED},
};

static enum gs_mem_loc parse_loc(const char *s, size_t n)
{
    for (size_t i = 0; i < COUNT_OF(mem_locs); i++)
        if (strlen(mem_locs[i].word) == n && !memcmp(s, mem_locs[i].word, n))
            return mem_locs[i].loc;
    return GS_LOC_UNKNOWN;
}

/* "Memcpy HtoD (Pageable -> Device)", "Memset (Device)", "Memcpy DtoD (Device -> Device)" */
static void classify_memop(const char *name, gs_memop *m, bool is_memset)
{
    m->kind = is_memset ? GS_MEMOP_MEMSET : GS_MEMOP_COPY_OTHER;
    for (size_t i = 0; !is_memset && i < COUNT_OF(memcpy_kinds); i++)
        if (strstr(name, memcpy_kinds[i].token))
            m->kind = (uint8_t)memcpy_kinds[i].kind;
    const char *open = strchr(name, '(');
    const char *close = open ? strchr(open, ')') : NULL;
    if (!close)
        return;
    const char *arrow = strstr(open, " -> ");
    if (arrow && arrow < close) {
        m->src = (uint8_t)parse_loc(open + 1, (size_t)(arrow - open - 1));
        m->dst = (uint8_t)parse_loc(arrow + 4, (size_t)(close - arrow - 4));
    } else {
        m->dst = (uint8_t)parse_loc(open + 1, (size_t)(close - open - 1));
    }
}

/* ---- events into the model ------------------------------------------------------------------- */

static int32_t gpu_device(const kevent *ev)
{
    if (ev->have & KARG_DEVICE)
        return (int32_t)ev->device;
    return ev->pid_is_text ? 0 : (int32_t)ev->pid;
}

static int32_t gpu_stream(const kevent *ev)
{
    if (ev->have & KARG_STREAM)
        return (int32_t)ev->stream;
    return (int32_t)ev->tid;
}

static int add_kernel(gs_trace *t, const kevent *ev)
{
    gs_kernel *k = GS_VEC_PUSH(&t->kernels);
    if (!k)
        return -1;
    k->start = ev->ts;
    k->end = ev->ts + ev->dur;
    k->name = ev->name;
    k->device = gpu_device(ev);
    k->stream = gpu_stream(ev);
    k->correlation = (uint64_t)ev->correlation;
    k->external_id = ev->external_id;
    memcpy(k->grid, ev->grid, sizeof k->grid);
    memcpy(k->block, ev->block, sizeof k->block);
    k->registers_per_thread = (int32_t)ev->registers;
    k->shared_memory = (int32_t)ev->shared_memory;
    k->blocks_per_sm = (float)ev->blocks_per_sm;
    k->warps_per_sm = (float)ev->warps_per_sm;
    k->occupancy_pct = (float)ev->occupancy;
    k->graph_id = ev->graph_id;
    k->mangled = ev->mangled;
    k->api = k->op = GS_NONE;
    return 0;
}

static int add_memop(gs_trace *t, const kevent *ev, bool is_memset)
{
    gs_memop *m = GS_VEC_PUSH(&t->memops);
    if (!m)
        return -1;
    m->start = ev->ts;
    m->end = ev->ts + ev->dur;
    m->name = ev->name;
    classify_memop(gs_trace_str(t, ev->name), m, is_memset);
    m->device = gpu_device(ev);
    m->stream = gpu_stream(ev);
    m->bytes = ev->bytes > 0 ? (uint64_t)ev->bytes : 0;
    m->correlation = (uint64_t)ev->correlation;
    m->external_id = ev->external_id;
    m->api = m->op = GS_NONE;
    return 0;
}

static int add_sync(gs_trace *t, const kevent *ev)
{
    gs_gpu_sync *s = GS_VEC_PUSH(&t->syncs);
    if (!s)
        return -1;
    s->start = ev->ts;
    s->end = ev->ts + ev->dur;
    s->name = ev->name;
    s->device = gpu_device(ev);
    s->stream = gpu_stream(ev);
    s->correlation = (uint64_t)ev->correlation;
    s->api = GS_NONE;
    return 0;
}

static int add_api(gs_trace *t, const kevent *ev, enum gs_api_kind kind)
{
    gs_api *a = GS_VEC_PUSH(&t->apis);
    if (!a)
        return -1;
    a->start = ev->ts;
    a->end = ev->ts + ev->dur;
    a->name = ev->name;
    a->kind = (uint8_t)kind;
    a->pid = ev->pid;
    a->tid = ev->tid;
    a->correlation = (uint64_t)ev->correlation;
    a->external_id = ev->external_id;
    a->cbid = (int32_t)ev->cbid;
    a->gpu = a->parent = GS_NONE;
    return 0;
}

static int add_range(gs_trace *t, const kevent *ev, enum gs_range_kind kind)
{
    gs_range *r = GS_VEC_PUSH(&t->ranges);
    if (!r)
        return -1;
    r->start = ev->ts;
    r->end = ev->ts + ev->dur;
    r->name = ev->name;
    r->kind = (uint8_t)kind;
    r->pid = ev->pid;
    r->tid = ev->tid;
    if (kind == GS_RANGE_GPU_ANNOTATION) {
        r->pid = gpu_device(ev);
        r->tid = gpu_stream(ev);
    }
    r->external_id = ev->external_id;
    r->input_dims = ev->input_dims;
    r->input_types = ev->input_types;
    r->concrete_inputs = ev->concrete_inputs;
    r->flops = ev->flops;
    r->domain = kind == GS_RANGE_NVTX ? ev->domain : GS_STR_EMPTY;
    r->parent = GS_NONE;
    return 0;
}

static int add_instant(gs_trace *t, const kevent *ev, const char *name)
{
    if (!strcmp(name, "[memory]")) {
        gs_mem_event *m = GS_VEC_PUSH(&t->mem_events);
        if (!m)
            return -1;
        m->ts = ev->ts;
        m->pid = ev->pid;
        m->tid = ev->tid;
        m->device_type = (int8_t)ev->mem_device_type;
        m->device = (int32_t)ev->mem_device_id;
        m->addr = (uint64_t)ev->addr;
        m->bytes = ev->mem_bytes;
        m->total_allocated = ev->have & KARG_MEM_TOTAL_ALLOC ? ev->total_allocated : -1;
        m->total_reserved = ev->have & KARG_MEM_TOTAL_RESERVED ? ev->total_reserved : -1;
        return 0;
    }
    if (ev->pid_is_text) /* global markers: "Iteration Start", "Record Window End" */
        return 0;
    gs_instant *i = GS_VEC_PUSH(&t->instants);
    if (!i)
        return -1;
    i->ts = ev->ts;
    i->name = ev->name;
    i->pid = ev->pid;
    i->tid = ev->tid;
    return 0;
}

/* A "C" event with a "value" arg (what gpuscope's export writes; Kineto writes none): one sample
 * of the counter the event names, of the GPU whose process it is in when its category says so. */
static int add_counter(gs_trace *t, const kevent *ev)
{
    if (!(ev->have & KARG_VALUE)) {
        gs_trace_skip(t, GS_SKIP_COUNTER, 1);
        return 0;
    }
    gs_counter *c = GS_VEC_PUSH(&t->counters);
    if (!c)
        return -1;
    c->ts = ev->ts;
    c->name = ev->name;
    c->device = ev->cat == KCAT_GPU_COUNTER ? gpu_device(ev) : -1;
    c->value = ev->value;
    return 0;
}

static int add_metadata(gs_trace *t, const kevent *ev, const char *name)
{
    if (!strcmp(name, "thread_name") && ev->arg_name != GS_STR_EMPTY) {
        gs_thread *th = GS_VEC_PUSH(&t->threads);
        if (!th)
            return -1;
        th->pid = ev->pid;
        th->tid = ev->tid;
        th->name = ev->arg_name;
    }
    return 0;
}

/* A collective's args, kept beside the kernel or operator that carries them (gs_coll_args). Only
 * kernels and operators: PyTorch writes them on nothing else. */
static int add_coll_args(gs_trace *t, const kevent *ev)
{
    if (ev->cat != KCAT_KERNEL && ev->cat != KCAT_CPU_OP)
        return 0;
    gs_coll_args *c = GS_VEC_PUSH(&t->coll_args);
    if (!c)
        return -1;
    c->on = ev->cat == KCAT_KERNEL ? GS_COLL_ARGS_ON_KERNEL : GS_COLL_ARGS_ON_OP;
    c->correlation = ev->cat == KCAT_KERNEL ? (uint64_t)ev->correlation : 0;
    c->external_id = ev->external_id;
    c->collective = ev->coll_name;
    c->dtype = ev->coll_dtype;
    c->group = ev->coll_group;
    c->in_nelems = ev->coll_in_nelems;
    c->out_nelems = ev->coll_out_nelems;
    c->group_size = ev->coll_group_size > 0 && ev->coll_group_size <= INT32_MAX
                        ? (int32_t)ev->coll_group_size
                        : -1;
    return 0;
}

/* Complete events by category: the one table of what each category becomes. */
static int add_complete(gs_trace *t, const kevent *ev)
{
    switch ((enum kcat)ev->cat) {
    case KCAT_KERNEL: return add_kernel(t, ev);
    case KCAT_MEMCPY: return add_memop(t, ev, false);
    case KCAT_MEMSET: return add_memop(t, ev, true);
    case KCAT_SYNC: return add_sync(t, ev);
    case KCAT_RUNTIME: return add_api(t, ev, GS_API_RUNTIME);
    case KCAT_DRIVER: return add_api(t, ev, GS_API_DRIVER);
    case KCAT_CPU_OP: return add_range(t, ev, GS_RANGE_OP);
    case KCAT_USER_ANNOTATION: return add_range(t, ev, GS_RANGE_ANNOTATION);
    case KCAT_GPU_USER_ANNOTATION: return add_range(t, ev, GS_RANGE_GPU_ANNOTATION);
    case KCAT_PYTHON: return add_range(t, ev, GS_RANGE_PYTHON);
    case KCAT_NVTX: return add_range(t, ev, GS_RANGE_NVTX);
    case KCAT_ACCELERATOR: /* counted, so that the verdict says where the work ran; kept as before */
        t->accelerator_events++;
        return add_range(t, ev, GS_RANGE_OTHER);
    case KCAT_GPU_COUNTER:
    case KCAT_NONE:
    case KCAT_OTHER: return add_range(t, ev, GS_RANGE_OTHER);
    case KCAT_CPU_INSTANT:
    case KCAT_FLOW:
    case KCAT_IGNORED: break;
    }
    gs_trace_skip(t, GS_SKIP_CATEGORY, 1);
    return 0;
}

/* Why the event's times cannot go into the model, or GS_LOSS__COUNT when they can. Checked
 * before `ts + dur` is computed: that sum must not overflow (gs_trace_check sees only ends). */
static enum gs_loss time_fault(const kevent *ev)
{
    if (!(ev->have & KARG_TS))
        return ev->have & KARG_TS_UNFIT ? GS_LOSS_TIME_RANGE : GS_LOSS_NO_TIME;
    if (ev->ph != 'X')
        return GS_LOSS__COUNT;
    if (ev->have & KARG_DUR_UNFIT)
        return GS_LOSS_TIME_RANGE;
    if (ev->dur < 0)
        return GS_LOSS_NEGATIVE_DURATION; /* a broken record, not time */
    if (ev->ts < -GS_TIME_MAX || ev->ts > GS_TIME_MAX || ev->dur > GS_TIME_MAX - ev->ts)
        return GS_LOSS_TIME_RANGE;
    return GS_LOSS__COUNT;
}

int kineto_add_event(gs_trace *t, const kevent *ev)
{
    const char *name = gs_trace_str(t, ev->name);
    if (ev->ph == 'M')
        return add_metadata(t, ev, name);
    if (!kineto_phase_used(ev->ph)) {
        gs_trace_skip(t, GS_SKIP_PHASE, 1); /* flows, begin/end pairs: no view uses them yet */
        return 0;
    }
    /* The profiled process: the first host operator or runtime call says which it is. */
    if (!t->pid && !ev->pid_is_text && ev->pid > 0 &&
        (ev->cat == KCAT_CPU_OP || ev->cat == KCAT_USER_ANNOTATION || ev->cat == KCAT_RUNTIME))
        t->pid = ev->pid;
    enum gs_loss fault = time_fault(ev);
    if (fault != GS_LOSS__COUNT) {
        t->lost[fault]++;
        return 0;
    }
    switch (ev->ph) {
    case 'X':
        if (ev->coll_name != GS_STR_EMPTY && add_coll_args(t, ev) != 0)
            return -1;
        return add_complete(t, ev);
    case 'i':
    case 'I':
        return add_instant(t, ev, name);
    default:
        return add_counter(t, ev);
    }
}

uint64_t kineto_event_bytes(const gs_trace *t, const kevent *ev)
{
    if (ev->ph == 'M' || time_fault(ev) != GS_LOSS__COUNT)
        return 0; /* metadata (a thread's name at most), and events whose times are lost */
    switch (ev->ph) {
    case 'i':
    case 'I':
        if (!strcmp(gs_trace_str(t, ev->name), "[memory]"))
            return sizeof(gs_mem_event);
        return ev->pid_is_text ? 0 : sizeof(gs_instant);
    case 'C': return ev->have & KARG_VALUE ? sizeof(gs_counter) : 0;
    case 'X': break;
    default: return 0;
    }
    uint64_t args = ev->coll_name != GS_STR_EMPTY &&
                            (ev->cat == KCAT_KERNEL || ev->cat == KCAT_CPU_OP)
                        ? sizeof(gs_coll_args) : 0;
    switch ((enum kcat)ev->cat) { /* as add_complete */
    case KCAT_KERNEL: return args + sizeof(gs_kernel);
    case KCAT_MEMCPY:
    case KCAT_MEMSET: return sizeof(gs_memop);
    case KCAT_SYNC: return sizeof(gs_gpu_sync);
    case KCAT_RUNTIME:
    case KCAT_DRIVER: return sizeof(gs_api);
    case KCAT_CPU_INSTANT:
    case KCAT_FLOW:
    case KCAT_IGNORED: return args;
    default: return args + sizeof(gs_range);
    }
}

/* ---- the top-level object -------------------------------------------------------------------- */

/* What becomes of an event read whole: the caller's classification, another rank's part, the
 * window of steps, then the model. 0, or -1 out of memory. */
static int kineto_take_event(gs_json *j, gs_trace *t, const gs_load_opts *opts,
                             kread_tally *tally, kineto_classify_fn classify, const kpart *part,
                             kchunk *chunk, kevent *ev)
{
    if (classify)
        classify(t, ev);
    if (chunk)
        kchunk_note_event(chunk, ev);
    bool kept = !part || kpart_take(part, ev); /* another rank's, in a file of several */
    tally->events += kept;
    if (kept && opts && opts->window && opts->window->survey)
        tally->model_bytes += kineto_event_bytes(t, ev);
    if (kept && opts && opts->window && !kwindow_keep(opts->window, t, ev)) {
        kept = false;
        if (!opts->window->survey)
            t->lost[GS_LOSS_OUTSIDE_WINDOW]++;
    }
    if (kept && kineto_add_event(t, ev) != 0)
        return gs_fail_oom(j->err);
    return 0;
}

int kineto_read_events(gs_json *j, gs_trace *t, const gs_load_opts *opts, kread_tally *tally,
                       kineto_classify_fn classify, const kpart *part, kchunk *chunk)
{
    /* An event skipped by its phase is only counted, unless a window or another rank's part asks
     * for its time or pid. */
    kscratch scratch = {.skip_unused_phases = !classify && !part && !(opts && opts->window)};
    kevent ev;
    uint64_t read = 0;
    int rc = 0;
    bool resume = chunk && chunk->resume;
    for (;;) {
        enum gs_json_tok tok = resume ? GS_JSON_OBJECT : gs_json_next(j);
        if (chunk && !resume && gs_json_offset(j) >= chunk->stop_at &&
            kchunk_stops_here(chunk, gs_json_offset(j), tok == GS_JSON_OBJECT))
            break;
        resume = false;
        if (tok == GS_JSON_ARRAY_END)
            break;
        if (tok == GS_JSON_END) {
            rc = gs_json_fail(j, "input ends inside the event array (truncated file?)");
            break;
        }
        if (tok != GS_JSON_OBJECT) {
            if (classify) { /* e.g. export_memory_timeline's array of arrays */
                rc = gs_json_fail(j, "not a profiler trace: the array holds no event objects");
                break;
            }
            if ((rc = gs_json_skip(j)) != 0)
                break;
            continue;
        }
        int got = kineto_read_event(j, t, &scratch, &ev);
        if (got < 0) {
            rc = -1;
            break;
        }
        if (got == KEVENT_UNREAD) {
            tally->events++;
            gs_trace_skip(t, GS_SKIP_PHASE, 1);
        } else if (kineto_take_event(j, t, opts, tally, classify, part, chunk, &ev) != 0) {
            rc = -1;
            break;
        }
        if (++read % PROGRESS_EVERY != 0 || !opts)
            continue;
        if (chunk) {
            if ((rc = kchunk_checkpoint(chunk, t, j, opts)) != 0 || chunk->cancelled)
                break;
            continue;
        }
        if (gs_mem_budget_check(opts->budget, t, gs_json_offset(j), j->err) != 0) {
            opts->budget->over = true;
            rc = -1;
            break;
        }
        if (opts->progress)
            opts->progress(opts->progress_ctx, t->id.path, gs_source_file_offset(j->src),
                           gs_source_file_size(j->src));
    }
    kscratch_free(&scratch);
    return rc;
}

/* An entry of gpuscopeRanks: the header keys of its rank (kineto_header.h). */
static int read_rank_entry(gs_json *j, gs_trace *t, kscratch *s)
{
    for (;;) {
        enum gs_json_tok tok = gs_json_next(j);
        if (tok == GS_JSON_OBJECT_END)
            return 0;
        if (tok != GS_JSON_KEY)
            return gs_json_fail(j, "expected a key in gpuscopeRanks");
        bool known;
        if (kineto_read_header_key(j, t, s, &known) != 0)
            return -1;
        if (!known && (gs_json_next(j) == GS_JSON_ERROR || gs_json_skip(j) != 0))
            return -1;
    }
}

static int name_part(gs_json *j, gs_trace *t)
{
    size_t len = strlen(t->id.path) + 32;
    char *name = malloc(len);
    if (!name)
        return gs_fail_oom(j->err);
    snprintf(name, len, GS_PART_NAME_FMT, t->id.path, t->id.rank);
    free(t->id.path);
    t->id.path = name;
    return 0;
}

/* gpuscopeRanks, reading part p: its entry gives the trace its rank, clock and devices. */
static int read_ranks(gs_json *j, gs_trace *t, kscratch *s, kpart *p)
{
    if (p->found)
        return gs_json_fail(j, "gpuscopeRanks twice");
    if (gs_json_next(j) != GS_JSON_ARRAY)
        return gs_json_fail(j, "gpuscopeRanks is not an array");
    for (uint32_t i = 0;; i++) {
        enum gs_json_tok tok = gs_json_next(j);
        if (tok == GS_JSON_ARRAY_END)
            return 0;
        if (tok == GS_JSON_ERROR)
            return -1;
        if (tok != GS_JSON_OBJECT)
            return gs_json_fail(j, "gpuscopeRanks holds something other than objects");
        if (i != p->index) {
            if (gs_json_skip(j) != 0)
                return -1;
            continue;
        }
        if (read_rank_entry(j, t, s) != 0 || name_part(j, t) != 0)
            return -1;
        p->found = true;
        p->base = t->id.epoch_ns;
    }
}

/* A key of the top level. Reading one part of a file of several ranks, the keys that describe
 * a trace are the part's entry's, and the top level's baseTimeNanoseconds is the clock of the
 * file's events. */
static int read_top_key(gs_json *j, gs_trace *t, kscratch *s, kpart *p, bool saw_events)
{
    if (gs_json_tok_is(j, "gpuscopeRanks")) {
        if (p)
            return read_ranks(j, t, s, p);
        return gs_json_fail(j, saw_events
                                   ? "gpuscopeRanks after traceEvents: the ranks of this file "
                                     "cannot be read apart (gpuscope writes the table first)"
                                   : "a file of several ranks (gpuscopeRanks) read as one "
                                     "trace: give it as a file (not a pipe) to a command that "
                                     "reads several, or export one rank (--rank R)");
    }
    if (p && gs_json_tok_is(j, "baseTimeNanoseconds")) {
        if (gs_json_next(j) == GS_JSON_NUMBER && gs_json_int(j, &p->file_base))
            return 0;
        return gs_json_skip(j);
    }
    bool known = false;
    if (!p && kineto_read_header_key(j, t, s, &known) != 0)
        return -1;
    if (!known && (gs_json_next(j) == GS_JSON_ERROR || gs_json_skip(j) != 0))
        return -1;
    return 0;
}

/* JSON objects without traceEvents that are given as traces, told by a top-level key (and its
 * string value, where one is named), with what to say instead of "not a trace". */
static const struct {
    const char *key, *value;
    const char *what;
} look_alikes[] = {
    /* PyTorch's ExecutionTraceObserver: recorded beside the profiler's trace, which has times */
    {"nodes", NULL,
     "a PyTorch execution trace (nodes, no traceEvents): give the profiler trace recorded with it"},
    /* gpuscope summarize's .gsum */
    {"format", GS_GSUM_MAGIC,
     "a rank summary (gpuscope summarize), which only report, comm and stragglers read: give this "
     "command the trace"},
};

/* A top-level key other than traceEvents: a look-alike's, noted in *look_alike, or one of a
 * trace's header (read_top_key). */
static int read_other_key(gs_json *j, gs_trace *t, kscratch *s, kpart *p, bool saw_events,
                          int *look_alike)
{
    for (int i = 0; i < (int)COUNT_OF(look_alikes); i++) {
        if (!gs_json_tok_is(j, look_alikes[i].key))
            continue;
        if (!look_alikes[i].value) {
            *look_alike = i;
            break; /* its value is read as any other key's */
        }
        if (gs_json_next(j) == GS_JSON_STRING && gs_json_tok_is(j, look_alikes[i].value))
            *look_alike = i;
        return gs_json_skip(j);
    }
    return read_top_key(j, t, s, p, saw_events);
}

int kineto_read_object(gs_json *j, gs_trace *t, const gs_load_opts *opts)
{
    kscratch scratch = {0};
    kpart part = {.index = opts && opts->part ? opts->part - 1 : 0};
    kpart *p = opts && opts->part ? &part : NULL;
    kchunk_set *chunks = NULL;
    bool saw_events = false;
    int look_alike = -1;
    kread_tally tally = {0};
    int rc = 0;
    t->format = gs_strtab_intern(&t->strings, "kineto", 6);
    for (;;) {
        enum gs_json_tok tok = gs_json_next(j);
        if (tok == GS_JSON_OBJECT_END)
            break;
        if (tok != GS_JSON_KEY) {
            rc = gs_json_fail(j, tok == GS_JSON_END ? "input ends inside the trace object"
                                                    : "expected a key in the trace object");
            break;
        }
        if (gs_json_tok_is(j, "traceEvents")) {
            if (gs_json_next(j) != GS_JSON_ARRAY) {
                rc = gs_json_fail(j, "traceEvents is not an array");
                break;
            }
            saw_events = true;
            if (p && (rc = kpart_start(j, p)) != 0)
                break;
            if (p || chunks) /* a second traceEvents array is read on, on this thread */
                rc = kineto_read_events(j, t, opts, &tally, NULL, p, NULL);
            else
                rc = kineto_read_events_split(j, t, opts, &tally, &chunks, &j);
        } else {
            rc = read_other_key(j, t, &scratch, p, saw_events, &look_alike);
        }
        if (rc != 0)
            break;
    }
    kscratch_free(&scratch);
    kchunk_set_free(chunks);
    if (rc != 0)
        return -1;
    if (!saw_events && look_alike >= 0)
        return gs_fail(j->err, GS_EXIT_INPUT, "%s: %s", t->id.path, look_alikes[look_alike].what);
    if (!saw_events)
        return gs_fail(j->err, GS_EXIT_INPUT,
                       "%s: not a PyTorch profiler trace (a JSON object without traceEvents)",
                       t->id.path);
    if (tally.events == 0)
        return gs_fail(j->err, GS_EXIT_INPUT, "%s: the trace has no events (empty traceEvents)",
                       t->id.path);
    if (opts && opts->window && opts->window->survey)
        opts->window->model_bytes = tally.model_bytes;
    return 0;
}
