#include "ingest/kineto_event.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "common/vec.h"

void kscratch_free(kscratch *s)
{
    free(s->buf);
    s->buf = NULL;
    s->cap = 0;
}

static char *scratch_reserve(kscratch *s, size_t n)
{
    if (n > s->cap) {
        size_t cap = s->cap;
        if (gs_grow((void **)&s->buf, &cap, n, 1) != 0)
            return NULL;
        s->cap = cap;
    }
    return s->buf;
}

gs_str kineto_intern_token(gs_json *j, gs_trace *t, kscratch *scratch)
{
    if (!j->tok_escaped)
        return gs_strtab_intern(&t->strings, j->tok, j->tok_len);
    char *out = scratch_reserve(scratch, j->tok_len + 1);
    if (!out)
        return GS_STR_ERROR;
    size_t n = gs_json_decode(j, out);
    return gs_strtab_intern(&t->strings, out, n);
}

/* ---- categories ----------------------------------------------------------------------------- */

#define KEY(s) s, sizeof(s) - 1

static const struct {
    const char *name;
    size_t len;
    enum kcat cat;
    bool old; /* PyTorch <= 1.9's spelling */
} cat_table[] = {
    {KEY("kernel"), KCAT_KERNEL},
    {KEY("Kernel"), KCAT_KERNEL, true},
    {KEY("gpu_memcpy"), KCAT_MEMCPY},
    {KEY("Memcpy"), KCAT_MEMCPY, true},
    {KEY("gpu_memset"), KCAT_MEMSET},
    {KEY("Memset"), KCAT_MEMSET, true},
    {KEY("cuda_sync"), KCAT_SYNC},
    {KEY("cuda_runtime"), KCAT_RUNTIME},
    {KEY("Runtime"), KCAT_RUNTIME, true},
    {KEY("xpu_runtime"), KCAT_RUNTIME},
    {KEY("mtia_runtime"), KCAT_RUNTIME},
    {KEY("privateuse1_runtime"), KCAT_RUNTIME},
    {KEY("mtia_ccp_events"), KCAT_ACCELERATOR},
    {KEY("cuda_driver"), KCAT_DRIVER},
    {KEY("xpu_driver"), KCAT_DRIVER},
    {KEY("privateuse1_driver"), KCAT_DRIVER},
    {KEY("cpu_op"), KCAT_CPU_OP},
    {KEY("Operator"), KCAT_CPU_OP, true},
    {KEY("user_annotation"), KCAT_USER_ANNOTATION},
    {KEY("gpu_user_annotation"), KCAT_GPU_USER_ANNOTATION},
    {KEY("python_function"), KCAT_PYTHON},
    {KEY("nvtx"), KCAT_NVTX},
    {KEY("gpu_counter"), KCAT_GPU_COUNTER},
    {KEY("cpu_instant_event"), KCAT_CPU_INSTANT},
    {KEY("ac2g"), KCAT_FLOW},
    {KEY("fwdbwd"), KCAT_FLOW},
    {KEY("async_cpu_to_gpu"), KCAT_FLOW},
    {KEY("async_gpu"), KCAT_FLOW},
    {KEY("async"), KCAT_FLOW},
    {KEY("forward_backward"), KCAT_FLOW},
    {KEY("fwd_bwd"), KCAT_FLOW},
    {KEY("cpu_to_cuda"), KCAT_FLOW},
    {KEY("Trace"), KCAT_IGNORED},
    {KEY("overhead"), KCAT_IGNORED},
    {KEY("cuda_profiler_range"), KCAT_IGNORED},
};

static bool is_cat(const gs_json *j, size_t i)
{
    return j->tok_len == cat_table[i].len && !memcmp(j->tok, cat_table[i].name, j->tok_len);
}

/* The category of the current token; notes on t that the trace spells them the old way. The
 * entry found last is tried first: events come in runs of one category (a step's operators, its
 * kernels), and the table is long. */
static enum kcat lookup_cat(const gs_json *j, gs_trace *t, kscratch *s)
{
    size_t i = s->last_cat;
    if (i >= COUNT_OF(cat_table) || !is_cat(j, i))
        for (i = 0; i < COUNT_OF(cat_table) && !is_cat(j, i); i++)
            ;
    if (i == COUNT_OF(cat_table))
        return KCAT_OTHER;
    s->last_cat = i;
    if (cat_table[i].old)
        t->old_categories = true;
    return cat_table[i].cat;
}

/* ---- values --------------------------------------------------------------------------------- */

/* pid and tid are numbers in most traces but text in some ("Spans", "stream 7", "25738",
 * "CPU functions"). Numbers inside text are used as numbers; other text becomes a stable
 * negative id so that grouping by thread still works. */
static int read_id(gs_json *j, gs_trace *t, kscratch *s, int64_t *out, bool *is_text,
                   gs_str *text)
{
    bool number;
    enum gs_json_tok tok = gs_json_next_scaled(j, 0, out, &number);
    *is_text = false;
    if (tok == GS_JSON_NUMBER) {
        if (!number)
            *out = 0;
        return 0;
    }
    if (tok != GS_JSON_STRING)
        return gs_json_skip(j);
    const char *p = j->tok, *end = j->tok + j->tok_len;
    static const char stream_prefix[] = "stream ";
    if ((size_t)(end - p) > sizeof stream_prefix - 1 &&
        memcmp(p, stream_prefix, sizeof stream_prefix - 1) == 0)
        p += sizeof stream_prefix - 1;
    const char *digits_end = p;
    while (digits_end < end && *digits_end >= '0' && *digits_end <= '9')
        digits_end++;
    if (digits_end > p && gs_parse_scaled(p, (size_t)(digits_end - p), 0, out) &&
        (digits_end == end || *digits_end == ' '))
        return 0;
    gs_str id = kineto_intern_token(j, t, s);
    if (id == GS_STR_ERROR)
        return gs_fail_oom(j->err);
    *out = -(int64_t)id - 1;
    *is_text = true;
    *text = id;
    return 0;
}

static void read_int(gs_json *j, int64_t *out, uint32_t *have, uint32_t bit)
{
    bool number;
    gs_json_next_scaled(j, 0, out, &number);
    if (number)
        *have |= bit;
    else
        gs_json_skip(j);
}

/* A time in µs as exact ns: `bit` when it is one, `unfit` when it is a number too large. */
static int read_time(gs_json *j, gs_ns *out, uint32_t *have, uint32_t bit, uint32_t unfit)
{
    bool number;
    enum gs_json_tok v = gs_json_next_scaled(j, 3, out, &number);
    if (number) {
        *have |= bit;
        return 0;
    }
    if (v == GS_JSON_NUMBER)
        *have |= unfit;
    return gs_json_skip(j);
}

static void read_double(gs_json *j, double *out)
{
    if (gs_json_next(j) != GS_JSON_NUMBER || !gs_json_double(j, out))
        gs_json_skip(j);
}

static void read_dim3(gs_json *j, int32_t out[3])
{
    if (gs_json_next(j) != GS_JSON_ARRAY) {
        gs_json_skip(j);
        return;
    }
    for (int i = 0;; i++) {
        enum gs_json_tok tok = gs_json_next(j);
        if (tok == GS_JSON_ARRAY_END || tok == GS_JSON_ERROR || tok == GS_JSON_END)
            return;
        int64_t v;
        if (tok == GS_JSON_NUMBER && gs_json_int(j, &v) && i < 3 && v >= 0 && v <= INT32_MAX)
            out[i] = (int32_t)v;
        else
            gs_json_skip(j);
    }
}

/* Captures a value as compact JSON text ("[[2, 3], []]"): how input shapes are shown. */
static gs_str read_compact(gs_json *j, gs_trace *t, kscratch *s)
{
    size_t len = 0, depth = 0;
    bool need_comma = false;
    do {
        enum gs_json_tok tok = gs_json_next(j);
        if (tok == GS_JSON_ERROR || tok == GS_JSON_END)
            return GS_STR_EMPTY;
        bool closing = tok == GS_JSON_ARRAY_END || tok == GS_JSON_OBJECT_END;
        size_t extra = j->tok_len + 5; /* ", " + quotes + ":" around the token */
        if (!scratch_reserve(s, len + extra))
            return GS_STR_ERROR;
        if (need_comma && !closing) {
            memcpy(s->buf + len, ", ", 2);
            len += 2;
        }
        if (tok == GS_JSON_STRING || tok == GS_JSON_KEY)
            s->buf[len++] = '"';
        memcpy(s->buf + len, j->tok, j->tok_len);
        len += j->tok_len;
        if (tok == GS_JSON_STRING || tok == GS_JSON_KEY)
            s->buf[len++] = '"';
        if (tok == GS_JSON_KEY)
            s->buf[len++] = ':';
        need_comma = tok != GS_JSON_ARRAY && tok != GS_JSON_OBJECT && tok != GS_JSON_KEY;
        if (tok == GS_JSON_ARRAY || tok == GS_JSON_OBJECT)
            depth++;
        else if (closing)
            depth--;
    } while (depth > 0 && len < (1u << 20));
    if (depth > 0 && gs_json_skip(j) != 0)
        return GS_STR_EMPTY;
    return gs_strtab_intern(&t->strings, s->buf, len);
}

static int read_name(gs_json *j, gs_trace *t, kscratch *s, gs_str *out)
{
    if (gs_json_next(j) != GS_JSON_STRING)
        return gs_json_skip(j);
    gs_str id = kineto_intern_token(j, t, s);
    if (id == GS_STR_ERROR)
        return gs_fail_oom(j->err);
    *out = id;
    return 0;
}

/* ---- keys guessed ------------------------------------------------------------------------ */

/* A table of keys the reader knows: each prepared for gs_json_next_key_is, and how to find a key
 * token's entry (n for a key the table lacks). */
typedef struct key_set {
    const gs_json_key *words;
    size_t n;
    size_t (*find)(const gs_json *j);
} key_set;

/* What next_key returns at the object's end, and for a token that is not a key. */
#define KEY_END ((size_t)-2)
#define KEY_ERROR ((size_t)-1)

/* The object's next key, as the set's entry: the one that followed `prev` last time (after[prev])
 * when it comes again, since most writers put an object's keys in one order; else whatever
 * token comes, which after[prev] then remembers. KEY_END at the object's end, KEY_ERROR for a
 * token that is not a key. */
static size_t next_key(gs_json *j, const key_set *set, uint8_t *after, size_t prev)
{
    size_t k = after[prev];
    if (k < set->n && gs_json_next_key_is(j, &set->words[k]))
        return k;
    enum gs_json_tok tok = gs_json_next(j);
    if (tok == GS_JSON_OBJECT_END)
        return KEY_END;
    if (tok != GS_JSON_KEY)
        return KEY_ERROR;
    k = set->find(j);
    after[prev] = (uint8_t)k;
    return k;
}

/* ---- args ----------------------------------------------------------------------------------- */

enum arg_key {
    A_COLL_NAME, A_COLL_IN_NELEMS, A_COLL_OUT_NELEMS, A_COLL_DTYPE, A_COLL_GROUP_SIZE, A_COLL_GROUP,
    A_EXTERNAL_ID, A_CORRELATION, A_CBID, A_DEVICE, A_STREAM, A_BYTES, A_GRID, A_BLOCK,
    A_REGISTERS, A_SHARED_MEMORY, A_BLOCKS_PER_SM, A_WARPS_PER_SM, A_OCCUPANCY, A_INPUT_DIMS,
    A_GRAPH_ID, A_NAME, A_DEVICE_TYPE, A_DEVICE_ID, A_ADDR, A_MEM_BYTES, A_TOTAL_ALLOCATED,
    A_TOTAL_RESERVED, A_DOMAIN, A_VALUE, A_MANGLED, A_INPUT_TYPES, A_CONCRETE_INPUTS, A_FLOPS,
    A_UNUSED,
};

static const struct {
    const char *key;
    size_t len;
    enum arg_key arg;
} arg_table[] = {
    {KEY("Collective name"), A_COLL_NAME},
    {KEY("In msg nelems"), A_COLL_IN_NELEMS},
    {KEY("Out msg nelems"), A_COLL_OUT_NELEMS},
    {KEY("dtype"), A_COLL_DTYPE},
    {KEY("Group size"), A_COLL_GROUP_SIZE},
    {KEY("Process Group Name"), A_COLL_GROUP},
    {KEY("pg name"), A_COLL_GROUP},
    {KEY("External id"), A_EXTERNAL_ID},
    {KEY("external id"), A_EXTERNAL_ID},
    {KEY("correlation"), A_CORRELATION},
    {KEY("cbid"), A_CBID},
    {KEY("device"), A_DEVICE},
    {KEY("stream"), A_STREAM},
    {KEY("bytes"), A_BYTES},
    {KEY("grid"), A_GRID},
    {KEY("block"), A_BLOCK},
    {KEY("registers per thread"), A_REGISTERS},
    {KEY("shared memory"), A_SHARED_MEMORY},
    {KEY("blocks per SM"), A_BLOCKS_PER_SM},
    {KEY("warps per SM"), A_WARPS_PER_SM},
    {KEY("est. achieved occupancy %"), A_OCCUPANCY},
    {KEY("theoretical occupancy %"), A_OCCUPANCY},
    {KEY("Input Dims"), A_INPUT_DIMS},
    {KEY("Input dims"), A_INPUT_DIMS},
    {KEY("Input type"), A_INPUT_TYPES},
    {KEY("Concrete Inputs"), A_CONCRETE_INPUTS},
    {KEY("flops"), A_FLOPS},
    {KEY("graph id"), A_GRAPH_ID},
    {KEY("name"), A_NAME},
    {KEY("Device Type"), A_DEVICE_TYPE},
    {KEY("Device Id"), A_DEVICE_ID},
    {KEY("Addr"), A_ADDR},
    {KEY("Bytes"), A_MEM_BYTES},
    {KEY("Total Allocated"), A_TOTAL_ALLOCATED},
    {KEY("Total Reserved"), A_TOTAL_RESERVED},
    {KEY("domain"), A_DOMAIN},
    {KEY("value"), A_VALUE},
    {KEY("mangled name"), A_MANGLED},
    /* Not used, but on most events of a Kineto trace: known, so that the guess of the next key
     * (next_key) goes on past them. */
    {KEY("Ev Idx"), A_UNUSED},
    {KEY("queued"), A_UNUSED},
    {KEY("context"), A_UNUSED},
    {KEY("Record function id"), A_UNUSED},
    {KEY("Sequence number"), A_UNUSED},
    {KEY("Fwd thread id"), A_UNUSED},
};
_Static_assert(COUNT_OF(arg_table) < KARG_KEY_START, "kscratch.after_arg: room for every key");

/* The arg table by a hash of a key's length and end bytes, built once: a key is found in a probe
 * or two, where a scan of the table compared up to 38 lengths for every key of every event (the
 * whole table for a key it lacks). */
enum { ARG_SLOTS = 128 }; /* a power of two, at least twice the table's keys */
_Static_assert(COUNT_OF(arg_table) * 2 <= ARG_SLOTS, "arg_slots: too full to probe fast");
static uint8_t arg_slots[ARG_SLOTS]; /* arg_table's index + 1; 0 empty */

static size_t arg_hash(const char *k, size_t n)
{
    return (n * 31 + (unsigned char)k[0] * 7 + (unsigned char)k[n - 1]) & (ARG_SLOTS - 1);
}

static gs_json_key arg_key_words[COUNT_OF(arg_table)];

static void fill_arg_slots(void)
{
    for (size_t a = 0; a < COUNT_OF(arg_table); a++) {
        gs_json_key_init(&arg_key_words[a], arg_table[a].key, arg_table[a].len);
        size_t h = arg_hash(arg_table[a].key, arg_table[a].len);
        while (arg_slots[h])
            h = (h + 1) & (ARG_SLOTS - 1);
        arg_slots[h] = (uint8_t)(a + 1);
    }
}

/* arg_table's entry for the key token, or COUNT_OF(arg_table) when it has none. */
static size_t find_arg(const gs_json *j)
{
    if (j->tok_len == 0)
        return COUNT_OF(arg_table);
    for (size_t h = arg_hash(j->tok, j->tok_len); arg_slots[h]; h = (h + 1) & (ARG_SLOTS - 1)) {
        size_t a = arg_slots[h] - 1u;
        if (arg_table[a].len == j->tok_len && memcmp(arg_table[a].key, j->tok, j->tok_len) == 0)
            return a;
    }
    return COUNT_OF(arg_table);
}

static const key_set arg_keys = {arg_key_words, COUNT_OF(arg_table), find_arg};

static int read_args(gs_json *j, gs_trace *t, kscratch *s, kevent *ev)
{
    if (gs_json_next(j) != GS_JSON_OBJECT)
        return gs_json_skip(j);
    uint32_t ignored = 0;
    for (size_t a = KARG_KEY_START;;) {
        a = next_key(j, &arg_keys, s->after_arg, a);
        if (a == KEY_END)
            return 0;
        if (a == KEY_ERROR)
            return gs_json_fail(j, gs_json_at_end(j) ? "input ends inside an event's args"
                                                     : "expected a key in an event's args");
        if (a == COUNT_OF(arg_table) || arg_table[a].arg == A_UNUSED) {
            gs_json_next(j);
            if (gs_json_skip(j) != 0)
                return -1;
            continue;
        }
        switch (arg_table[a].arg) {
        case A_COLL_NAME:
            if (read_name(j, t, s, &ev->coll_name) != 0)
                return -1;
            break;
        case A_COLL_IN_NELEMS: read_int(j, &ev->coll_in_nelems, &ignored, 1); break;
        case A_COLL_OUT_NELEMS: read_int(j, &ev->coll_out_nelems, &ignored, 1); break;
        case A_COLL_DTYPE:
            if (read_name(j, t, s, &ev->coll_dtype) != 0)
                return -1;
            break;
        case A_COLL_GROUP_SIZE: read_int(j, &ev->coll_group_size, &ignored, 1); break;
        case A_COLL_GROUP:
            if (read_name(j, t, s, &ev->coll_group) != 0)
                return -1;
            break;
        case A_EXTERNAL_ID: read_int(j, &ev->external_id, &ev->have, KARG_EXTERNAL_ID); break;
        case A_CORRELATION: read_int(j, &ev->correlation, &ev->have, KARG_CORRELATION); break;
        case A_CBID: read_int(j, &ev->cbid, &ignored, 1); break;
        case A_DEVICE: read_int(j, &ev->device, &ev->have, KARG_DEVICE); break;
        case A_STREAM: read_int(j, &ev->stream, &ev->have, KARG_STREAM); break;
        case A_BYTES: read_int(j, &ev->bytes, &ev->have, KARG_BYTES); break;
        case A_GRID: read_dim3(j, ev->grid); break;
        case A_BLOCK: read_dim3(j, ev->block); break;
        case A_REGISTERS: read_int(j, &ev->registers, &ignored, 1); break;
        case A_SHARED_MEMORY: read_int(j, &ev->shared_memory, &ignored, 1); break;
        case A_BLOCKS_PER_SM: read_double(j, &ev->blocks_per_sm); break;
        case A_WARPS_PER_SM: read_double(j, &ev->warps_per_sm); break;
        case A_OCCUPANCY: read_double(j, &ev->occupancy); break;
        case A_INPUT_DIMS:
            ev->input_dims = read_compact(j, t, s);
            if (ev->input_dims == GS_STR_ERROR)
                return gs_fail_oom(j->err);
            break;
        case A_INPUT_TYPES:
            ev->input_types = read_compact(j, t, s);
            if (ev->input_types == GS_STR_ERROR)
                return gs_fail_oom(j->err);
            break;
        case A_CONCRETE_INPUTS:
            ev->concrete_inputs = read_compact(j, t, s);
            if (ev->concrete_inputs == GS_STR_ERROR)
                return gs_fail_oom(j->err);
            break;
        case A_FLOPS:
            if (gs_json_next(j) == GS_JSON_NUMBER && gs_json_double(j, &ev->flops)) {
                if (!(ev->flops > 0 && ev->flops < 1e30)) /* NaN, negative or absurd: none */
                    ev->flops = 0;
            } else if (gs_json_skip(j) != 0) {
                return -1;
            }
            break;
        case A_GRAPH_ID: read_int(j, &ev->graph_id, &ignored, 1); break;
        case A_NAME:
            if (read_name(j, t, s, &ev->arg_name) != 0)
                return -1;
            break;
        case A_DEVICE_TYPE: read_int(j, &ev->mem_device_type, &ignored, 1); break;
        case A_DEVICE_ID: read_int(j, &ev->mem_device_id, &ignored, 1); break;
        case A_ADDR: read_int(j, &ev->addr, &ignored, 1); break;
        case A_MEM_BYTES: read_int(j, &ev->mem_bytes, &ignored, 1); break;
        case A_TOTAL_ALLOCATED:
            read_int(j, &ev->total_allocated, &ev->have, KARG_MEM_TOTAL_ALLOC);
            break;
        case A_TOTAL_RESERVED:
            read_int(j, &ev->total_reserved, &ev->have, KARG_MEM_TOTAL_RESERVED);
            break;
        case A_DOMAIN:
            if (read_name(j, t, s, &ev->domain) != 0)
                return -1;
            break;
        case A_MANGLED:
            if (read_name(j, t, s, &ev->mangled) != 0)
                return -1;
            break;
        case A_VALUE:
            if (gs_json_next(j) == GS_JSON_NUMBER && gs_json_double(j, &ev->value))
                ev->have |= KARG_VALUE;
            else if (gs_json_skip(j) != 0)
                return -1;
            break;
        case A_UNUSED: break;
        }
        if (j->failed)
            return -1;
    }
}

/* ---- the event ------------------------------------------------------------------------------ */

static void kevent_reset(kevent *ev)
{
    gs_zero_block(ev, sizeof *ev);
    ev->registers = ev->shared_memory = ev->cbid = -1;
    ev->blocks_per_sm = ev->warps_per_sm = ev->occupancy = -1.0;
    ev->mem_device_id = -1;
    ev->coll_in_nelems = ev->coll_out_nelems = ev->coll_group_size = -1;
}

static const struct {
    const char *key;
    size_t len;
} event_keys[KKEY__COUNT] = {
    [KKEY_PH] = {KEY("ph")},   [KKEY_CAT] = {KEY("cat")}, [KKEY_NAME] = {KEY("name")},
    [KKEY_PID] = {KEY("pid")}, [KKEY_TID] = {KEY("tid")}, [KKEY_TS] = {KEY("ts")},
    [KKEY_DUR] = {KEY("dur")}, [KKEY_ARGS] = {KEY("args")},
};

/* The event key the key token is, or KKEY__COUNT for one the reader does not use. */
static size_t event_key_of(const gs_json *j)
{
    size_t k = 0;
    while (k < KKEY__COUNT && !(event_keys[k].len == j->tok_len &&
                                memcmp(event_keys[k].key, j->tok, j->tok_len) == 0))
        k++;
    return k;
}

static gs_json_key event_key_words[KKEY__COUNT];

static void fill_key_tables(void)
{
    for (unsigned k = 0; k < KKEY__COUNT; k++)
        gs_json_key_init(&event_key_words[k], event_keys[k].key, event_keys[k].len);
    fill_arg_slots();
}

static const key_set event_key_set = {event_key_words, KKEY__COUNT, event_key_of};

int kineto_read_event(gs_json *j, gs_trace *t, kscratch *s, kevent *ev)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, fill_key_tables);
    kevent_reset(ev);
    for (size_t k = KKEY_START;;) {
        k = next_key(j, &event_key_set, s->after_key, k);
        if (k == KEY_END)
            return j->failed ? -1 : 0;
        if (k == KEY_ERROR)
            return gs_json_fail(j, gs_json_at_end(j) ? "input ends inside an event"
                                                     : "expected a key in an event object");
        int rc = 0;
        switch (k) {
        case KKEY_PH:
            if (gs_json_next(j) == GS_JSON_STRING && j->tok_len > 0)
                ev->ph = j->tok[0];
            else
                rc = gs_json_skip(j);
            /* A flow's start or end, a begin or an end (a third of a training trace's events):
             * the rest is not read, only the event counted. */
            if (rc == 0 && s->skip_unused_phases && ev->ph && !kineto_phase_used(ev->ph))
                return gs_json_skip_object_rest(j) == 0 ? KEVENT_UNREAD : -1;
            break;
        case KKEY_CAT:
            if (gs_json_next(j) == GS_JSON_STRING)
                ev->cat = (uint8_t)lookup_cat(j, t, s);
            else
                rc = gs_json_skip(j);
            break;
        case KKEY_NAME: rc = read_name(j, t, s, &ev->name); break;
        case KKEY_PID: rc = read_id(j, t, s, &ev->pid, &ev->pid_is_text, &ev->pid_text); break;
        case KKEY_TID: rc = read_id(j, t, s, &ev->tid, &ev->tid_is_text, &ev->tid_text); break;
        case KKEY_TS: rc = read_time(j, &ev->ts, &ev->have, KARG_TS, KARG_TS_UNFIT); break;
        case KKEY_DUR: rc = read_time(j, &ev->dur, &ev->have, KARG_DUR, KARG_DUR_UNFIT); break;
        case KKEY_ARGS: rc = read_args(j, t, s, ev); break;
        default:
            gs_json_next(j);
            rc = gs_json_skip(j);
            break;
        }
        if (rc != 0 || j->failed)
            return -1;
    }
}
