#include "agent/nvtx_drain.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent/agent.h"
#include "agent/nvtx_registry.h"
#include "common/hashtab.h"

/* An open push: when and what, until its pop. */
typedef struct frame {
    int64_t ts;
    gst_strid name;
} frame;

typedef struct domain_stack {
    uint32_t domain;
    frame *frames;
    size_t n, cap;
} domain_stack;

/* The writer's view of one thread: its open pushes, per domain (NVTX nests per domain). */
typedef struct thread_pairs {
    domain_stack *stacks;
    size_t n, cap;
    uint64_t dropped_seen;
} thread_pairs;

/* A start or an end whose partner has not been drained yet (they may be on two threads). */
typedef struct pending {
    uint32_t key; /* key_of(id) */
    bool is_end;
    uint64_t id;
    int64_t ts, tid;
    gst_strid name, domain;
} pending;

static _Atomic(gsa_ring *) rings;
static struct {
    int64_t pid; /* of this process, read once per drain: getpid() is a system call */
    gs_hashtab pending; /* by range id */
    uint64_t unmatched_pops, unmatched_ends, lost_pairs;
} w = {.pending = GS_HASHTAB_EMPTY(pending)};

void gsa_nvtx_add_ring(gsa_ring *r)
{
    gsa_ring *head = atomic_load(&rings);
    do
        r->next = head;
    while (!atomic_compare_exchange_weak(&rings, &head, r));
}

static domain_stack *stack_of(thread_pairs *tp, uint32_t domain)
{
    for (size_t i = 0; i < tp->n; i++)
        if (tp->stacks[i].domain == domain)
            return &tp->stacks[i];
    if (tp->n == tp->cap) {
        size_t cap = tp->cap ? tp->cap * 2 : 4;
        domain_stack *s = realloc(tp->stacks, cap * sizeof *s);
        if (!s)
            return NULL;
        tp->stacks = s;
        tp->cap = cap;
    }
    tp->stacks[tp->n] = (domain_stack){domain, NULL, 0, 0};
    return &tp->stacks[tp->n++];
}

static void write_range(int64_t start, int64_t end, int64_t tid, gst_strid name,
                        gst_strid domain, uint8_t style)
{
    if (!gsa_captured(start, end))
        return;
    gst_nvtx_range r = {start, end, w.pid, tid, name, domain, style};
    gsa_write(GST_REC_NVTX_RANGE, &r);
}

static gst_strid name_of(const gsa_nvtx_ev *ev)
{
    return ev->name_id ? ev->name_id : gsa_intern(ev->name, ev->name_len);
}

static void on_push(thread_pairs *tp, const gsa_nvtx_ev *ev)
{
    domain_stack *s = stack_of(tp, ev->domain);
    if (s && s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        frame *f = realloc(s->frames, cap * sizeof *f);
        if (f) {
            s->frames = f;
            s->cap = cap;
        }
    }
    if (!s || s->n == s->cap) {
        w.lost_pairs++;
        return;
    }
    s->frames[s->n++] = (frame){ev->ts, name_of(ev)};
}

static void on_pop(thread_pairs *tp, const gsa_ring *r, const gsa_nvtx_ev *ev)
{
    domain_stack *s = stack_of(tp, ev->domain);
    if (!s || s->n == 0) {
        w.unmatched_pops++; /* pushed before a fork, or before tracing started */
        return;
    }
    frame f = s->frames[--s->n];
    write_range(f.ts, ev->ts, r->tid, f.name, ev->domain, GST_NVTX_PUSH_POP);
}

/* Range ids count up from 1: below 2^32 the key is the id itself, above it a fold of its halves
 * (told apart by the full id). */
static uint32_t key_of(uint64_t id)
{
    uint32_t key = (uint32_t)(id ^ (id >> 32));
    return key ? key : 1;
}

static pending *find_pending(uint64_t id, gs_hashpos *pos)
{
    pending *p = gs_hashtab_find(&w.pending, key_of(id), pos);
    while (p && p->id != id)
        p = gs_hashtab_next(&w.pending, pos);
    return p;
}

static void on_start_or_end(const gsa_ring *r, const gsa_nvtx_ev *ev)
{
    bool is_end = ev->type == GSA_EV_END;
    gs_hashpos pos;
    pending *p = find_pending(ev->id, &pos);
    if (!p) {
        uint32_t key = key_of(ev->id);
        if (!(p = gs_hashtab_add(&w.pending, key))) {
            w.lost_pairs++;
            return;
        }
        *p = (pending){key, is_end, ev->id, ev->ts, r->tid, is_end ? 0 : name_of(ev), ev->domain};
        return;
    }
    if (p->is_end == is_end) { /* the same id twice: the program reused it */
        w.unmatched_ends++;
        return;
    }
    if (is_end)
        write_range(p->ts, ev->ts, p->tid, p->name, p->domain, GST_NVTX_START_END);
    else
        write_range(ev->ts, p->ts, r->tid, name_of(ev), ev->domain, GST_NVTX_START_END);
    gs_hashtab_remove(&w.pending, &pos);
}

static void on_event(gsa_ring *r, thread_pairs *tp, const gsa_nvtx_ev *ev)
{
    switch (ev->type) {
    case GSA_EV_PUSH:
        on_push(tp, ev);
        break;
    case GSA_EV_POP:
        on_pop(tp, r, ev);
        break;
    case GSA_EV_START:
    case GSA_EV_END:
        on_start_or_end(r, ev);
        break;
    case GSA_EV_MARK:
        if (gsa_captured(ev->ts, ev->ts)) {
            gst_nvtx_mark m = {ev->ts, w.pid, r->tid, name_of(ev), ev->domain};
            gsa_write(GST_REC_NVTX_MARK, &m);
        }
        break;
    case GSA_EV_THREAD_NAME: {
        gst_thread t = {w.pid, (int64_t)ev->id, gsa_intern(ev->name, ev->name_len)};
        gsa_write(GST_REC_THREAD, &t);
        break;
    }
    default:
        break;
    }
}

static void free_pairs(thread_pairs *tp)
{
    if (!tp)
        return;
    for (size_t i = 0; i < tp->n; i++)
        free(tp->stacks[i].frames);
    free(tp->stacks);
    free(tp);
}

/* Drains one ring; true when its thread has exited and it is empty, so it can go. */
static bool drain_ring(gsa_ring *r, uint64_t *dropped)
{
    thread_pairs *tp = r->consumer;
    if (!tp && !(tp = r->consumer = calloc(1, sizeof *tp)))
        return false;
    /* Read before draining: an exit flag seen here means no event can follow the drain. */
    bool exited = atomic_load(&r->thread_exited);
    gsa_nvtx_ev ev;
    uint64_t size;
    while (gsa_ring_peek(r, &ev, &size)) {
        on_event(r, tp, &ev);
        gsa_ring_consume(r, size);
    }
    atomic_store_explicit(&r->woke, false, memory_order_relaxed);
    uint64_t d = atomic_load(&r->dropped);
    *dropped += d - tp->dropped_seen;
    tp->dropped_seen = d;
    return exited;
}

static void unlink_ring(gsa_ring *r, gsa_ring *prev)
{
    gsa_ring *expected = r;
    /* Producers only push at the head, so once r is not the head its predecessor is stable. */
    if (!prev && atomic_compare_exchange_strong(&rings, &expected, r->next))
        return;
    if (!prev)
        for (prev = atomic_load(&rings); prev->next != r; prev = prev->next)
            ;
    prev->next = r->next;
}

static void note_count(const char *what, uint64_t n)
{
    if (!n)
        return;
    char text[300];
    snprintf(text, sizeof text, "%llu NVTX %s", (unsigned long long)n, what);
    gsa_note(GST_NOTE_NVTX, text, 0, 0);
}

/* Where a thread that has just seen recording stop may still write: one call's events (a pair,
 * for gpuscope_range_at), each with its name, and the padding before a wrapped one. */
#define STOPPING_WRITES (4 * (sizeof(gsa_ring_entry) + GSA_NAME_MAX + 8))

/* After a window: what was open is not paired across windows (its name was a string of the
 * closed file), the next file defines every registered string again, and the queues' pages go
 * back to the system until the next window writes them. */
static void forget_pairs(void)
{
    for (gsa_ring *r = atomic_load(&rings); r; r = r->next) {
        thread_pairs *tp = r->consumer;
        for (size_t i = 0; tp && i < tp->n; i++)
            tp->stacks[i].n = 0;
        gsa_ring_release(r, STOPPING_WRITES);
    }
    gs_hashtab_free(&w.pending);
    gsa_registry_new_file();
}

void gsa_nvtx_drain(bool final)
{
    w.pid = (int64_t)getpid();
    gsa_registry_define_new();
    uint64_t dropped = 0, open_at_end = 0;
    gsa_ring *prev = NULL;
    for (gsa_ring *r = atomic_load(&rings), *next; r; r = next) {
        next = r->next;
        bool gone = drain_ring(r, &dropped);
        thread_pairs *tp = r->consumer;
        if (final && tp)
            for (size_t i = 0; i < tp->n; i++)
                open_at_end += tp->stacks[i].n;
        if (gone) {
            if (tp && !final)
                for (size_t i = 0; i < tp->n; i++)
                    open_at_end += tp->stacks[i].n;
            unlink_ring(r, prev);
            free_pairs(tp);
            gsa_ring_free(r);
        } else {
            prev = r;
        }
    }
    if (dropped)
        gsa_note(GST_NOTE_NVTX,
                 "NVTX events were lost: a thread pushed ranges faster than gpuscope wrote them "
                 "(a shorter --flush-interval helps)",
                 dropped, 0);
    note_count("range ends had no start (the ranges were opened before tracing started or before "
               "a fork): those ranges are not in the trace",
               w.unmatched_pops);
    note_count("start/end ranges were ended twice or their id reused: the repeats are left out",
               w.unmatched_ends);
    note_count("ranges were lost: gpuscope ran out of memory in the program", w.lost_pairs);
    bool window_end = final && gsa_window_closing();
    note_count(window_end ? "ranges were still open when the capture window closed: they are not "
                            "in the trace"
                          : "ranges were still open when the program or its thread ended (a push "
                            "without a pop): they are not in the trace",
               open_at_end);
    if (final)
        note_count("start/end ranges were never ended: they are not in the trace", w.pending.n);
    w.unmatched_pops = w.unmatched_ends = w.lost_pairs = 0;
    if (window_end)
        forget_pairs();
}

void gsa_nvtx_drain_forked(void)
{
    /* The parent's rings and pending starts are its data, not the child's; only the forking
     * thread exists here, so nothing else can be using them. */
    for (gsa_ring *r = atomic_load(&rings), *next; r; r = next) {
        next = r->next;
        free_pairs(r->consumer);
        gsa_ring_free(r);
    }
    atomic_store(&rings, NULL);
    gs_hashtab_free(&w.pending);
    w.unmatched_pops = w.unmatched_ends = w.lost_pairs = 0;
}
