/* The agent's per-thread NVTX event ring (src/agent/nvtx_ring.h): events come back exactly as they
 * went in, long names are cut, a full ring drops and counts without harming what it holds, entries
 * that would straddle the end of the buffer are preceded by a PAD at every alignment, and a
 * producer and a consumer racing over a small ring keep order and lose only counted events. */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "agent/nvtx_ring.h"

#define ENTRY_HEADER 32 /* bytes of an entry before its name (type, sizes, ts, id, domain, id) */

/* Entry size for a name of `len` bytes: the header, the (cut) name, padded to 8. */
static uint64_t entry_size(size_t len)
{
    if (len > GSA_NAME_MAX)
        len = GSA_NAME_MAX;
    return (ENTRY_HEADER + len + 7) & ~(uint64_t)7;
}

/* Name bytes derived from the event's id, zeros included: a name is bytes, not a C string. */
static void fill_name(char *buf, size_t len, uint64_t id)
{
    for (size_t i = 0; i < len; i++)
        buf[i] = (char)((id * 131 + i * 7) & 0xff);
}

static bool name_matches(const char *name, size_t len, uint64_t id)
{
    for (size_t i = 0; i < len; i++)
        if (name[i] != (char)((id * 131 + i * 7) & 0xff))
            return false;
    return true;
}

/* The event number `id` of a deterministic stream: every field depends on id. */
static gsa_nvtx_ev make_ev(uint64_t id, size_t name_len, char *namebuf)
{
    fill_name(namebuf, name_len, id);
    return (gsa_nvtx_ev){(uint16_t)(1 + id % 6), (uint32_t)(id * 3 + 1), (uint32_t)(id % 5),
                         (uint16_t)name_len, (int64_t)(id * 1000 + 17), id, namebuf};
}

static char namebuf[4096];

static bool put_ev(gsa_ring *r, uint64_t id, size_t name_len)
{
    gsa_nvtx_ev ev = make_ev(id, name_len, namebuf);
    return gsa_ring_put(r, &ev);
}

/* Peeks the next event, checks it is event `id` with a name of `name_len` bytes, consumes it. */
static bool expect_ev(gsa_ring *r, uint64_t id, size_t name_len, int line)
{
    gsa_nvtx_ev ev;
    uint64_t size = 0;
    if (!gsa_ring_peek(r, &ev, &size)) {
        fprintf(stderr, "line %d: ring empty, want event %" PRIu64 "\n", line, id);
        CHECK(false);
        return false;
    }
    bool ok = ev.type == 1 + id % 6 && ev.domain == id * 3 + 1 && ev.name_id == id % 5 &&
              ev.name_len == name_len && ev.ts == (int64_t)(id * 1000 + 17) && ev.id == id &&
              name_matches(ev.name, ev.name_len, id) && size == entry_size(name_len);
    if (!ok)
        fprintf(stderr,
                "line %d: want event %" PRIu64 " (name %zu bytes), got id %" PRIu64
                " type %u name_len %u size %" PRIu64 "\n",
                line, id, name_len, ev.id, ev.type, ev.name_len, size);
    CHECK(ok);
    gsa_ring_consume(r, size);
    return ok;
}
#define EXPECT_EV(r, id, len) expect_ev(r, id, len, __LINE__)

static bool ring_empty(gsa_ring *r)
{
    gsa_nvtx_ev ev;
    uint64_t size;
    return !gsa_ring_peek(r, &ev, &size);
}

static void test_round_trip(void)
{
    gsa_ring *r = gsa_ring_new(4096, 1234);
    CHECK(r != NULL);
    if (!r)
        return;
    CHECK_INT(r->tid, 1234);
    CHECK_INT(r->cap, 4096);
    CHECK(ring_empty(r));

    /* Every event type, names of every length modulo 8, extreme field values. */
    static const char *const names[] = {"", "a", "step", "forward", "backward", "optimizer",
                                        "a name of some length", "x\0y\0z"};
    static const size_t lens[] = {0, 1, 4, 7, 8, 9, 21, 5};
    gsa_nvtx_ev in[8];
    for (int i = 0; i < 8; i++) {
        in[i] = (gsa_nvtx_ev){(uint16_t)(GSA_EV_PUSH + i % 6), (uint32_t)(i ? 7u * i : 0u),
                              (uint32_t)(i % 2 ? 0 : 100 + i), (uint16_t)lens[i],
                              i == 3 ? INT64_MIN : i == 4 ? INT64_MAX : -5 + i * 1000000007LL,
                              i == 5 ? UINT64_MAX : (uint64_t)i << 40, names[i]};
        CHECK(gsa_ring_put(r, &in[i]));
    }
    uint64_t total = 0;
    for (int i = 0; i < 8; i++)
        total += entry_size(lens[i]);
    CHECK_INT(gsa_ring_used(r), total);
    for (int i = 0; i < 8; i++) {
        gsa_nvtx_ev ev, again;
        uint64_t size = 0, size2 = 0;
        CHECK(gsa_ring_peek(r, &ev, &size));
        /* Peeking twice without consuming gives the same event. */
        CHECK(gsa_ring_peek(r, &again, &size2));
        CHECK_INT(again.id, ev.id);
        CHECK_INT(size2, size);
        CHECK_INT(ev.type, in[i].type);
        CHECK_INT(ev.domain, in[i].domain);
        CHECK_INT(ev.name_id, in[i].name_id);
        CHECK_INT(ev.name_len, in[i].name_len);
        CHECK_INT(ev.ts, in[i].ts);
        CHECK(ev.id == in[i].id);
        CHECK(ev.name_len == 0 || memcmp(ev.name, names[i], lens[i]) == 0);
        CHECK_INT(size, entry_size(lens[i]));
        CHECK_INT(size % 8, 0);
        gsa_ring_consume(r, size);
    }
    CHECK(ring_empty(r));
    CHECK_INT(gsa_ring_used(r), 0);
    CHECK_INT(atomic_load(&r->dropped), 0);

    /* The ring copies the name: the caller's buffer may change right after the put. */
    char tmp[16] = "transient";
    gsa_nvtx_ev ev = {GSA_EV_MARK, 0, 0, 9, 42, 0, tmp};
    CHECK(gsa_ring_put(r, &ev));
    memcpy(tmp, "XXXXXXXXX", 9);
    uint64_t size;
    CHECK(gsa_ring_peek(r, &ev, &size));
    CHECK_INT(ev.name_len, 9);
    CHECK(memcmp(ev.name, "transient", 9) == 0);
    gsa_ring_consume(r, size);
    gsa_ring_free(r);
    gsa_ring_free(NULL);
}

static void test_long_names(void)
{
    gsa_ring *r = gsa_ring_new(8192, 1);
    CHECK(r != NULL);
    if (!r)
        return;
    static const size_t lens[] = {GSA_NAME_MAX - 1, GSA_NAME_MAX, GSA_NAME_MAX + 1, 3000, 65535};
    static char big[65536];
    for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
        fill_name(big, lens[i], i);
        gsa_nvtx_ev ev = {GSA_EV_PUSH, 1, 0, (uint16_t)lens[i], 5, i, big};
        CHECK(gsa_ring_put(r, &ev));
        uint64_t size;
        gsa_nvtx_ev out;
        CHECK(gsa_ring_peek(r, &out, &size));
        size_t want = lens[i] > GSA_NAME_MAX ? GSA_NAME_MAX : lens[i];
        CHECK_INT(out.name_len, want);
        CHECK(name_matches(out.name, out.name_len, i)); /* the first GSA_NAME_MAX bytes */
        CHECK_INT(size, entry_size(want));
        CHECK_INT(out.id, i);
        gsa_ring_consume(r, size);
    }
    CHECK(ring_empty(r));
    CHECK_INT(atomic_load(&r->dropped), 0);
    gsa_ring_free(r);
}

static void test_full_ring(void)
{
    enum { CAP = 256 };
    gsa_ring *r = gsa_ring_new(CAP, 1);
    CHECK(r != NULL);
    if (!r)
        return;
    /* Eight 32-byte entries fill it exactly. */
    for (uint64_t id = 0; id < 8; id++)
        CHECK(put_ev(r, id, 0));
    CHECK_INT(gsa_ring_used(r), CAP);
    uint64_t head = atomic_load(&r->head);
    CHECK(!put_ev(r, 100, 0));
    CHECK(!put_ev(r, 101, 40));
    CHECK(!put_ev(r, 102, 200));
    CHECK_INT(atomic_load(&r->dropped), 3);
    CHECK_INT(atomic_load(&r->head), head); /* a drop writes nothing */
    /* One consumed frees room for one small entry, not for a larger one. */
    CHECK(EXPECT_EV(r, 0, 0));
    CHECK(!put_ev(r, 103, 1));
    CHECK_INT(atomic_load(&r->dropped), 4);
    CHECK(put_ev(r, 8, 0));
    CHECK(!put_ev(r, 104, 0));
    CHECK_INT(atomic_load(&r->dropped), 5);
    for (uint64_t id = 1; id <= 8; id++)
        CHECK(EXPECT_EV(r, id, 0));
    CHECK(ring_empty(r));
    CHECK_INT(atomic_load(&r->dropped), 5);

    CHECK_INT(gsa_ring_used(r), 0);
    gsa_ring_free(r);

    /* An entry larger than the whole ring never fits, not even in an empty ring; one of exactly
     * the ring's size fits an empty ring at position 0. */
    r = gsa_ring_new(CAP, 1);
    CHECK(r != NULL);
    if (!r)
        return;
    CHECK(!put_ev(r, 105, CAP - ENTRY_HEADER + 1));
    CHECK_INT(atomic_load(&r->dropped), 1);
    CHECK(ring_empty(r));
    CHECK(put_ev(r, 9, CAP - ENTRY_HEADER));
    CHECK_INT(gsa_ring_used(r), CAP);
    CHECK(!put_ev(r, 106, 0));
    CHECK(EXPECT_EV(r, 9, CAP - ENTRY_HEADER));
    CHECK_INT(atomic_load(&r->dropped), 2);
    CHECK_INT(atomic_load(&r->head), CAP);
    gsa_ring_free(r);

    /* Full with mixed sizes and the free space split by the end of the buffer: a drop that
     * would have needed a PAD must not write one over unconsumed entries. */
    r = gsa_ring_new(CAP, 1);
    CHECK(r != NULL);
    if (!r)
        return;
    CHECK(put_ev(r, 10, 64)); /* 96 bytes: head and tail at 96 */
    CHECK(EXPECT_EV(r, 10, 64));
    CHECK(put_ev(r, 11, 40)); /* 96..168 */
    CHECK(put_ev(r, 12, 8));  /* 168..208 */
    CHECK(put_ev(r, 13, 0));  /* 208..240 */
    CHECK(put_ev(r, 14, 50)); /* 16 left at the end: PAD 240..256, entry 0..88 */
    CHECK_INT(atomic_load(&r->head), 96 + 72 + 40 + 32 + 16 + 88);
    CHECK(!put_ev(r, 200, 0)); /* 8 bytes free at 88..96: nothing fits */
    CHECK(!put_ev(r, 201, 1));
    CHECK(!put_ev(r, 202, 200)); /* would need a PAD at 88 */
    CHECK_INT(atomic_load(&r->dropped), 3);
    CHECK(EXPECT_EV(r, 11, 40));
    /* 88..168 free now (80 bytes): a 72-byte entry fits, an 88-byte one does not. */
    CHECK(!put_ev(r, 203, 56));
    CHECK(put_ev(r, 15, 40));
    CHECK(EXPECT_EV(r, 12, 8));
    CHECK(EXPECT_EV(r, 13, 0));
    CHECK(EXPECT_EV(r, 14, 50));
    CHECK(EXPECT_EV(r, 15, 40));
    CHECK(ring_empty(r));
    CHECK_INT(atomic_load(&r->dropped), 4);
    CHECK_INT(gsa_ring_used(r), 0);
    gsa_ring_free(r);
}

/* The producer's wake-up test: more than half the ring in use, by a tail it refreshes. */
static void test_half_full(void)
{
    gsa_ring *r = gsa_ring_new(256, 1);
    CHECK(r != NULL);
    if (!r)
        return;
    CHECK(!gsa_ring_half_full(r));
    for (uint64_t id = 0; id < 4; id++)
        CHECK(put_ev(r, id, 0));
    CHECK(!gsa_ring_half_full(r)); /* exactly half */
    CHECK(put_ev(r, 4, 0));
    CHECK(gsa_ring_half_full(r));
    CHECK(EXPECT_EV(r, 0, 0));
    CHECK(!gsa_ring_half_full(r)); /* the consumer's progress is seen: half again */
    CHECK(put_ev(r, 5, 8));
    CHECK(gsa_ring_half_full(r));
    for (uint64_t id = 1; id < 5; id++)
        CHECK(EXPECT_EV(r, id, 0));
    CHECK(EXPECT_EV(r, 5, 8));
    CHECK(!gsa_ring_half_full(r));
    gsa_ring_free(r);
}

/* A ring whose head and tail are both at `pos` (0, or 32..cap-8 in steps of 8: positions 8..24
 * cannot occur, since an entry is at least 32 bytes and never wraps). */
static gsa_ring *ring_at(uint64_t cap, uint64_t pos)
{
    gsa_ring *r = gsa_ring_new(cap, 1);
    if (r && pos) {
        CHECK(put_ev(r, 999999, pos - ENTRY_HEADER));
        CHECK(EXPECT_EV(r, 999999, pos - ENTRY_HEADER));
    }
    return r;
}

static void test_wrap_every_alignment(void)
{
    enum { CAP = 512 };
    unsigned pads_seen = 0, exact_ends = 0;
    for (uint64_t pos = ENTRY_HEADER; pos < CAP; pos += 8) {
        uint64_t room = CAP - pos; /* bytes to the end of the buffer */
        /* Entry sizes around the room left: too big by 8 or more (a PAD), and exactly the room
         * (no PAD, the next entry starts at 0). */
        static const int64_t deltas[] = {-8, 0, 8, 16, 64};
        for (size_t d = 0; d < sizeof deltas / sizeof *deltas; d++) {
            int64_t size = (int64_t)room + deltas[d];
            if (size < ENTRY_HEADER || size > CAP)
                continue;
            gsa_ring *r = ring_at(CAP, pos);
            CHECK(r != NULL);
            if (!r)
                return;
            uint64_t head0 = atomic_load(&r->head);
            CHECK_INT(head0 % CAP, pos);
            size_t len = (size_t)size - ENTRY_HEADER;
            bool straddles = (uint64_t)size > room;
            /* A straddling entry goes after a PAD to the end, at 0: in an empty ring it fits
             * when the PAD and the entry together fit the ring. */
            bool fits = !straddles || room + (uint64_t)size <= CAP;
            CHECK_INT(put_ev(r, 1, len), fits);
            uint64_t advance = atomic_load(&r->head) - head0;
            if (!fits) {
                CHECK_INT(advance, 0);
                CHECK_INT(atomic_load(&r->dropped), 1);
            } else if (straddles) {
                CHECK_INT(advance, room + (uint64_t)size); /* PAD to the end, entry at 0 */
                pads_seen++;
            } else {
                CHECK_INT(advance, (uint64_t)size);
                exact_ends += (uint64_t)size == room;
            }
            /* Two more of varying sizes (the first may straddle again), then all in order. */
            if (fits && advance + 2 * 88 <= CAP) {
                CHECK(put_ev(r, 2, (size_t)(pos % 50)));
                CHECK(put_ev(r, 3, 3));
                CHECK(EXPECT_EV(r, 1, len));
            } else {
                if (fits)
                    CHECK(EXPECT_EV(r, 1, len));
                CHECK(put_ev(r, 2, (size_t)(pos % 50)));
                CHECK(put_ev(r, 3, 3));
            }
            CHECK(EXPECT_EV(r, 2, (size_t)(pos % 50)));
            CHECK(EXPECT_EV(r, 3, 3));
            CHECK(ring_empty(r));
            CHECK_INT(gsa_ring_used(r), 0);
            CHECK_INT(atomic_load(&r->dropped), !fits);
            gsa_ring_free(r);
        }
    }
    /* Straddling entries that fit an empty ring (room + size <= CAP, size >= 32): rooms 24..248
     * for +8, 16..248 for +16, 8..224 for +64. */
    CHECK_INT(pads_seen, 29 + 30 + 28);
    CHECK_INT(exact_ends, (CAP - 2 * ENTRY_HEADER) / 8 + 1); /* every pos with room >= 32 */

    /* Fill, consume some, put entries of many lengths: many laps over a small ring, with entries
     * straddling the end at changing offsets. A put fails only when the ring holds something;
     * then the oldest entry is consumed and the put retried. */
    for (uint64_t start = 0; start < CAP; start += start ? 8 : ENTRY_HEADER) {
        gsa_ring *r = ring_at(CAP, start);
        CHECK(r != NULL);
        if (!r)
            return;
        enum { N = 3000, QCAP = 64 };
        uint64_t q_id[QCAP];
        size_t q_len[QCAP];
        size_t qh = 0, qt = 0; /* queue of expected events */
        uint64_t fails = 0, straddles = 0;
        bool ok = true;
        for (uint64_t id = 0; id < N && ok; id++) {
            size_t len = (size_t)((id * 29 + start) % 211);
            if (id % 97 == 0)
                len = 0;
            uint64_t at = atomic_load(&r->head) % CAP;
            straddles += at + entry_size(len) > CAP;
            while (!put_ev(r, id, len)) {
                fails++;
                if (qh == qt) { /* an empty ring refused an entry that fits it */
                    CHECK(false);
                    ok = false;
                    break;
                }
                ok = EXPECT_EV(r, q_id[qt % QCAP], q_len[qt % QCAP]);
                qt++;
                if (!ok)
                    break;
            }
            q_id[qh % QCAP] = id;
            q_len[qh % QCAP] = len;
            qh++;
            /* Consume a few now and then, so the fill level varies. */
            if (id % 5 == 0)
                for (int k = 0; k < 2 && qt < qh && ok; k++, qt++)
                    ok = EXPECT_EV(r, q_id[qt % QCAP], q_len[qt % QCAP]);
        }
        for (; qt < qh && ok; qt++)
            ok = EXPECT_EV(r, q_id[qt % QCAP], q_len[qt % QCAP]);
        CHECK(ok);
        CHECK(ring_empty(r));
        CHECK_INT(atomic_load(&r->dropped), fails);
        CHECK(straddles > 100);
        gsa_ring_free(r);
    }
}

/* ---- a producer and a consumer racing ----------------------------------------------------- */

enum { RACE_N = 1000000, RACE_CAP = 1024 };

typedef struct race {
    gsa_ring *r;
    bool retry;              /* producer: retry a refused event instead of dropping it */
    _Atomic bool done;
    uint32_t *put_ids;       /* ids the producer put successfully, in order */
    uint64_t nput, refused;
    uint32_t *got_ids;       /* ids the consumer saw, in order */
    uint64_t ngot;
    uint64_t bad;            /* events whose fields or name did not match their id */
} race;

static void *producer(void *arg)
{
    race *x = arg;
    char buf[64];
    for (uint32_t id = 0; id < RACE_N; id++) {
        size_t len = (id * 7) % 41;
        gsa_nvtx_ev ev = make_ev(id, len, buf);
        for (;;) {
            if (gsa_ring_put(x->r, &ev)) {
                x->put_ids[x->nput++] = id;
                break;
            }
            x->refused++;
            if (!x->retry)
                break;
            sched_yield();
        }
    }
    atomic_store(&x->done, true);
    return NULL;
}

static void *consumer(void *arg)
{
    race *x = arg;
    for (;;) {
        bool done = atomic_load(&x->done); /* read before the last look at the ring */
        gsa_nvtx_ev ev;
        uint64_t size;
        if (!gsa_ring_peek(x->r, &ev, &size)) {
            if (done)
                break;
            sched_yield();
            continue;
        }
        uint64_t id = ev.id;
        size_t len = (id * 7) % 41;
        if (ev.type != 1 + id % 6 || ev.domain != id * 3 + 1 || ev.name_id != id % 5 ||
            ev.name_len != len || ev.ts != (int64_t)(id * 1000 + 17) ||
            !name_matches(ev.name, ev.name_len, id) || size != entry_size(len))
            x->bad++;
        if (x->ngot < RACE_N)
            x->got_ids[x->ngot] = (uint32_t)id;
        x->ngot++;
        gsa_ring_consume(x->r, size);
    }
    return NULL;
}

static void run_race(bool retry)
{
    race x = {.retry = retry};
    x.r = gsa_ring_new(RACE_CAP, 7);
    x.put_ids = malloc(RACE_N * sizeof *x.put_ids);
    x.got_ids = malloc(RACE_N * sizeof *x.got_ids);
    CHECK(x.r && x.put_ids && x.got_ids);
    if (!x.r || !x.put_ids || !x.got_ids)
        goto out;
    pthread_t p, c;
    CHECK_INT(pthread_create(&c, NULL, consumer, &x), 0);
    CHECK_INT(pthread_create(&p, NULL, producer, &x), 0);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    CHECK_INT(x.bad, 0);
    CHECK_INT(x.nput + (retry ? 0 : x.refused), RACE_N);
    CHECK_INT(x.ngot + (retry ? 0 : atomic_load(&x.r->dropped)), RACE_N); /* consumed + dropped */
    CHECK_INT(atomic_load(&x.r->dropped), x.refused);
    CHECK_INT(x.ngot, x.nput);
    /* The consumer saw exactly the accepted events, in the order they were put. */
    uint64_t n = x.ngot < x.nput ? x.ngot : x.nput, first_diff = n;
    for (uint64_t i = 0; i < n && first_diff == n; i++)
        if (x.got_ids[i] != x.put_ids[i])
            first_diff = i;
    CHECK_INT(first_diff, n);
    CHECK(ring_empty(x.r));
    CHECK(x.ngot > 0);
    if (retry)
        CHECK_INT(x.ngot, RACE_N);
    printf("race (%s): %" PRIu64 " consumed, %" PRIu64 " refused\n", retry ? "retry" : "drop",
           x.ngot, x.refused);
out:
    free(x.put_ids);
    free(x.got_ids);
    gsa_ring_free(x.r);
}

/* How many of the ring's pages are in memory. */
static size_t resident_pages(const gsa_ring *r)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), n = r->cap / page, in = 0;
    unsigned char vec[256];
    if (n > sizeof vec || mincore(r->data, r->cap, vec) != 0)
        return (size_t)-1;
    for (size_t i = 0; i < n; i++)
        in += vec[i] & 1;
    return in;
}

/* After a window the consumer gives the pages back, but those of unread events and the margin
 * past the head; the ring goes on working, across the pages given back. */
static void test_release(void)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    gsa_ring *r = gsa_ring_new(64 * page, 1);
    CHECK(r != NULL);
    if (!r)
        return;
    char name[200];
    memset(name, 'n', sizeof name);
    gsa_nvtx_ev ev = {GSA_EV_PUSH, 0, 0, sizeof name, 5, 0, name}, got;
    uint64_t size;
    /* Fill and read most of the ring: every page touched. */
    while (gsa_ring_used(r) < r->cap - 4 * page && gsa_ring_put(r, &ev))
        ;
    while (gsa_ring_peek(r, &got, &size))
        gsa_ring_consume(r, size);
    CHECK_INT(resident_pages(r) >= 58, 1);
    /* Two unread events, then the release with a margin of one page. */
    CHECK(gsa_ring_put(r, &ev) && gsa_ring_put(r, &ev));
    gsa_ring_release(r, page);
    size_t kept = resident_pages(r);
    CHECK(kept >= 1 && kept <= 3);
    /* The unread events are whole. */
    for (int i = 0; i < 2; i++) {
        CHECK(gsa_ring_peek(r, &got, &size));
        CHECK(got.name_len == sizeof name && memcmp(got.name, name, sizeof name) == 0);
        gsa_ring_consume(r, size);
    }
    /* It goes on: a lap around the ring over pages given back. */
    for (int lap = 0; lap < 1200; lap++) { /* more than the ring holds */
        ev.ts = lap;
        CHECK(gsa_ring_put(r, &ev));
        CHECK(gsa_ring_peek(r, &got, &size) && got.ts == lap &&
              memcmp(got.name, name, sizeof name) == 0);
        gsa_ring_consume(r, size);
    }
    gsa_ring_free(r);
}

int main(void)
{
    alarm(120); /* a broken ring can leave the racing threads waiting for ever: fail instead */
    test_round_trip();
    test_long_names();
    test_full_ring();
    test_half_full();
    test_wrap_every_alignment();
    test_release();
    run_race(false);
    run_race(true);
    return check_done("test_agent_ring");
}
