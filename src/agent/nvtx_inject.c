/* The NVTX half of the agent, producer side: NVTX_INJECTION64_PATH makes every NVTX instance
 * (each library that embeds the header-only NVTX v3) call InitializeInjectionNvtx2, where we
 * fill its function table with the handlers below. A handler reads the clock, copies the name
 * and appends one event to the calling thread's ring; pairing pushes with pops and starts with
 * ends is the writer's job (nvtx_drain.c). Target: well under 100 ns per push+pop. */
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

#include <pthread.h>
#include <string.h>

#include "agent/agent.h"
#include "agent/capture.h"
#include "agent/gpuscope_marks.h"
#include "common/profiler_step.h"
#include "agent/nvtx_drain.h"
#include "agent/nvtx_registry.h"
#include "agent/nvtx_ring.h"

#define RING_BYTES (512u << 10)
#define LOST_LEVELS 64

typedef struct thread_state {
    gsa_ring *ring;
    int depth;           /* push depth, returned by push and pop as NVTX specifies */
    uint64_t lost_pushes; /* bit d: the push at depth d was dropped, so drop its pop too */
} thread_state;

static __thread thread_state tls __attribute__((tls_model("initial-exec")));
static pthread_key_t exit_key;
static _Atomic uint64_t next_range_id = 1;
/* Whether the program's own NVTX ranges (not gpuscope's C API) named a step ProfilerStep#N:
 * gpuscope's Python hooks then leave the steps to the program (gpuscope_program_marks_steps). */
static _Atomic bool program_steps_seen;

static void thread_exited(void *ring)
{
    atomic_store(&((gsa_ring *)ring)->thread_exited, true);
}

/* The thread's ring while records are kept; NULL while the agent is off or dormant. */
static gsa_ring *ring_slow(void)
{
    if (!gsa_start() || !gsa_recording() || !gsa_part_enabled(GSA_PART_NVTX))
        return NULL;
    if (tls.ring)
        return tls.ring;
    gsa_ring *r = gsa_ring_new(RING_BYTES, gsa_tid());
    if (!r)
        return NULL;
    gsa_nvtx_add_ring(r);
    pthread_setspecific(exit_key, r);
    tls.ring = r;
    return r;
}

static inline gsa_ring *thread_ring(void)
{
    return __builtin_expect(tls.ring != NULL && gsa_recording(), 1) ? tls.ring : ring_slow();
}

/* The clock, read only for a record; without one the capture layer reads it where it needs it
 * (a dormant agent, for its steps). */
static inline int64_t event_time(const gsa_ring *r)
{
    return r ? gsa_now_ns() : GSA_TS_UNREAD;
}

static inline bool put(gsa_ring *r, const gsa_nvtx_ev *ev)
{
    if (!gsa_ring_put(r, ev))
        return false;
    if (gsa_ring_half_full(r) && !atomic_load_explicit(&r->woke, memory_order_relaxed)) {
        atomic_store_explicit(&r->woke, true, memory_order_relaxed);
        gsa_wake_writer();
    }
    return true;
}

/* The name of an event: inline bytes, or a registered string's id (and its text, for capture
 * control). UNICODE messages are rare: kept as their ASCII characters. */
typedef struct message {
    const char *text;
    size_t len;
    uint32_t registered_id;
    char wide_copy[256];
} message;

static void read_message(const nvtxEventAttributes_t *a, message *m)
{
    m->text = "";
    m->len = 0;
    m->registered_id = 0;
    if (!a)
        return;
    switch (a->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII:
        if (a->message.ascii) {
            m->text = a->message.ascii;
            m->len = strnlen(m->text, GSA_NAME_MAX);
        }
        break;
    case NVTX_MESSAGE_TYPE_REGISTERED:
        if (a->message.registered) {
            const gsa_registered *e = (const gsa_registered *)a->message.registered;
            m->text = e->text;
            m->len = e->len;
            m->registered_id = e->id;
        }
        break;
    case NVTX_MESSAGE_TYPE_UNICODE:
        if (a->message.unicode) {
            size_t n = 0;
            for (const wchar_t *w = a->message.unicode; *w && n < sizeof m->wide_copy; w++)
                m->wide_copy[n++] = *w > 0 && *w < 128 ? (char)*w : '?';
            m->text = m->wide_copy;
            m->len = n;
        }
        break;
    default:
        break;
    }
}

static uint32_t domain_id(nvtxDomainHandle_t d)
{
    return d ? ((const gsa_registered *)d)->id : 0;
}

static int push(uint32_t domain, const message *m)
{
    gsa_ring *r = thread_ring();
    int64_t ts = event_time(r);
    gsa_capture_push(m->text, m->len, ts);
    if (!r)
        return 0;
    gsa_nvtx_ev ev = {GSA_EV_PUSH, domain, m->registered_id,
                      m->registered_id ? 0 : (uint16_t)m->len, ts, 0, m->text};
    int level = tls.depth++;
    if (!put(r, &ev) && level < LOST_LEVELS)
        tls.lost_pushes |= 1ull << level;
    return level;
}

/* A pop is recorded when its push was: a push made while dormant has no level here, and a pop
 * made while dormant still takes its push's level away. */
static int pop(uint32_t domain)
{
    gsa_ring *r = thread_ring();
    int64_t ts = event_time(r);
    gsa_capture_pop(ts);
    if (tls.depth == 0)
        return -1;
    int level = --tls.depth;
    if (level < LOST_LEVELS && (tls.lost_pushes & (1ull << level)))
        tls.lost_pushes &= ~(1ull << level);
    else if (r)
        put(r, &(gsa_nvtx_ev){GSA_EV_POP, domain, 0, 0, ts, 0, NULL});
    return r ? level : -1;
}

/* Range ids are handed out while dormant too: a step range started then is ended by its id. */
static nvtxRangeId_t start(uint32_t domain, const message *m)
{
    gsa_ring *r = thread_ring();
    if (!r && !gsa_capture_watches_ranges)
        return 0;
    uint64_t id = atomic_fetch_add_explicit(&next_range_id, 1, memory_order_relaxed);
    int64_t ts = event_time(r);
    if (r)
        put(r, &(gsa_nvtx_ev){GSA_EV_START, domain, m->registered_id,
                              m->registered_id ? 0 : (uint16_t)m->len, ts, id, m->text});
    gsa_capture_start(m->text, m->len, id, ts);
    return id;
}

static void end(nvtxRangeId_t id)
{
    gsa_ring *r = thread_ring();
    if (id == 0 || (!r && !gsa_capture_watches_ranges))
        return;
    int64_t ts = event_time(r);
    if (r)
        put(r, &(gsa_nvtx_ev){GSA_EV_END, 0, 0, 0, ts, id, NULL});
    gsa_capture_end(id, ts);
}

static void mark(uint32_t domain, const message *m)
{
    gsa_ring *r = thread_ring();
    if (r)
        put(r, &(gsa_nvtx_ev){GSA_EV_MARK, domain, m->registered_id,
                              m->registered_id ? 0 : (uint16_t)m->len, gsa_now_ns(), 0, m->text});
}

/* One byte test in the usual case: most names do not start with 'P'. */
static inline void watch_program_steps(const message *m)
{
    static const char prefix[] = GS_PROFILER_STEP_PREFIX;
    if (m->len >= sizeof prefix - 1 && m->text[0] == 'P' &&
        memcmp(m->text, prefix, sizeof prefix - 1) == 0 &&
        !atomic_load_explicit(&program_steps_seen, memory_order_relaxed))
        atomic_store(&program_steps_seen, true);
}

static message ascii(const char *s)
{
    message m = {s ? s : "", s ? strnlen(s, GSA_NAME_MAX) : 0, 0, ""};
    return m;
}

/* ---- the NVTX entry points we install ---- */

static int nv_push_a(const char *s)
{
    message m = ascii(s);
    watch_program_steps(&m);
    return push(0, &m);
}
static int nv_push_ex(const nvtxEventAttributes_t *a)
{
    message m;
    read_message(a, &m);
    watch_program_steps(&m);
    return push(0, &m);
}
static int nv_pop(void)
{
    return pop(0);
}
static nvtxRangeId_t nv_start_a(const char *s)
{
    message m = ascii(s);
    watch_program_steps(&m);
    return start(0, &m);
}
static nvtxRangeId_t nv_start_ex(const nvtxEventAttributes_t *a)
{
    message m;
    read_message(a, &m);
    watch_program_steps(&m);
    return start(0, &m);
}
static void nv_end(nvtxRangeId_t id)
{
    end(id);
}
static void nv_mark_a(const char *s)
{
    message m = ascii(s);
    mark(0, &m);
}
static void nv_mark_ex(const nvtxEventAttributes_t *a)
{
    message m;
    read_message(a, &m);
    mark(0, &m);
}
static void nv_name_os_thread_a(uint32_t tid, const char *name)
{
    gsa_ring *r = thread_ring();
    message m = ascii(name);
    if (r)
        put(r, &(gsa_nvtx_ev){GSA_EV_THREAD_NAME, 0, 0, (uint16_t)m.len, 0, tid, m.text});
}
static int nv_domain_push(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
    message m;
    read_message(a, &m);
    watch_program_steps(&m);
    return push(domain_id(d), &m);
}
static int nv_domain_pop(nvtxDomainHandle_t d)
{
    return pop(domain_id(d));
}
static nvtxRangeId_t nv_domain_start(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
    message m;
    read_message(a, &m);
    watch_program_steps(&m);
    return start(domain_id(d), &m);
}
static void nv_domain_end(nvtxDomainHandle_t d, nvtxRangeId_t id)
{
    (void)d;
    end(id);
}
static void nv_domain_mark(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
    message m;
    read_message(a, &m);
    mark(domain_id(d), &m);
}
static nvtxDomainHandle_t nv_domain_create_a(const char *name)
{
    return (nvtxDomainHandle_t)gsa_registry_add(0, name);
}
static nvtxStringHandle_t nv_domain_register_string_a(nvtxDomainHandle_t d, const char *s)
{
    return (nvtxStringHandle_t)gsa_registry_add(domain_id(d), s);
}

/* ---- injection ---- */

static void after_fork_child(void)
{
    /* Only the forking thread exists here; its ring belongs to the parent's file. */
    tls.ring = NULL;
    tls.depth = 0;
    tls.lost_pushes = 0;
    gsa_registry_new_file();
    gsa_nvtx_drain_forked();
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool usable;

static void init_once(void)
{
    usable = pthread_key_create(&exit_key, thread_exited) == 0;
    if (!usable)
        return;
    pthread_atfork(NULL, NULL, after_fork_child);
    gsa_register_drain(gsa_nvtx_drain);
}

#define SET(table, n, id, fn)                                                                  \
    do {                                                                                       \
        if ((unsigned)(id) < (n) && (table)[id])                                               \
            *(table)[id] = (NvtxFunctionPointer)(fn);                                          \
    } while (0)

/* Called once per NVTX instance (each library embedding NVTX has its own), possibly before
 * CUDA is initialised and in processes that never use CUDA. */
GSA_EXPORT int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_table);
int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_table)
{
    pthread_once(&once, init_once);
    if (!usable || !get_table)
        return 0; /* NVTX then unloads us and every NVTX call costs nothing */
    const NvtxExportTableCallbacks *cb = get_table(NVTX_ETID_CALLBACKS);
    if (!cb || cb->struct_size < sizeof *cb || !cb->GetModuleFunctionTable)
        return 0;
    NvtxFunctionTable t = NULL;
    unsigned int n = 0;
    if (cb->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &t, &n) && t) {
        SET(t, n, NVTX_CBID_CORE_MarkEx, nv_mark_ex);
        SET(t, n, NVTX_CBID_CORE_MarkA, nv_mark_a);
        SET(t, n, NVTX_CBID_CORE_RangeStartEx, nv_start_ex);
        SET(t, n, NVTX_CBID_CORE_RangeStartA, nv_start_a);
        SET(t, n, NVTX_CBID_CORE_RangeEnd, nv_end);
        SET(t, n, NVTX_CBID_CORE_RangePushEx, nv_push_ex);
        SET(t, n, NVTX_CBID_CORE_RangePushA, nv_push_a);
        SET(t, n, NVTX_CBID_CORE_RangePop, nv_pop);
        SET(t, n, NVTX_CBID_CORE_NameOsThreadA, nv_name_os_thread_a);
    }
    t = NULL;
    n = 0;
    if (cb->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &t, &n) && t) {
        SET(t, n, NVTX_CBID_CORE2_DomainMarkEx, nv_domain_mark);
        SET(t, n, NVTX_CBID_CORE2_DomainRangeStartEx, nv_domain_start);
        SET(t, n, NVTX_CBID_CORE2_DomainRangeEnd, nv_domain_end);
        SET(t, n, NVTX_CBID_CORE2_DomainRangePushEx, nv_domain_push);
        SET(t, n, NVTX_CBID_CORE2_DomainRangePop, nv_domain_pop);
        SET(t, n, NVTX_CBID_CORE2_DomainRegisterStringA, nv_domain_register_string_a);
        SET(t, n, NVTX_CBID_CORE2_DomainCreateA, nv_domain_create_a);
    }
    const NvtxExportTableVersionInfo *vi = get_table(NVTX_ETID_VERSIONINFO);
    if (vi && vi->struct_size >= sizeof *vi && vi->SetInjectionNvtxVersion)
        vi->SetInjectionNvtxVersion(NVTX_VERSION);
    return 1;
}

/* ---- gpuscope's own C API (gpuscope_marks.h): the same records, without NVTX ---- */

/* The API may be the first thing to reach the agent (a CPU-only program: neither CUDA nor NVTX
 * loaded it), so it sets up what InitializeInjectionNvtx2 would have; the rings then start the
 * agent itself on their first event. */
static bool api_ready(void)
{
    pthread_once(&once, init_once);
    return usable && gsa_start() && gsa_part_enabled(GSA_PART_NVTX);
}

int gpuscope_range_push(const char *name)
{
    if (!api_ready())
        return -1;
    message m = ascii(name);
    return push(0, &m);
}

int gpuscope_range_pop(void)
{
    return api_ready() ? pop(0) : -1;
}

void gpuscope_mark(const char *name)
{
    if (!api_ready())
        return;
    message m = ascii(name);
    mark(0, &m);
}

int gpuscope_range_at(const char *name, int64_t start_ns, int64_t end_ns)
{
    if (!api_ready() || end_ns < start_ns)
        return -1;
    message m = ascii(name);
    gsa_ring *r = thread_ring();
    if (!r) { /* dormant: only its step counts */
        gsa_capture_marked(m.text, m.len, 0, start_ns, end_ns);
        return 0;
    }
    uint64_t id = atomic_fetch_add_explicit(&next_range_id, 1, memory_order_relaxed);
    /* Both halves or neither: a start without its end would be noted as never ended. */
    uint64_t size = 2 * ((sizeof(gsa_ring_entry) + m.len + 7) & ~(uint64_t)7);
    if (r->cap - gsa_ring_used(r) < size + r->cap / 64) {
        atomic_fetch_add_explicit(&r->dropped, 1, memory_order_relaxed);
        return -1;
    }
    put(r, &(gsa_nvtx_ev){GSA_EV_START, 0, 0, (uint16_t)m.len, start_ns, id, m.text});
    put(r, &(gsa_nvtx_ev){GSA_EV_END, 0, 0, 0, end_ns, id, NULL});
    gsa_capture_marked(m.text, m.len, id, start_ns, end_ns);
    return 0;
}

int64_t gpuscope_now_ns(void)
{
    return gsa_now_ns();
}

int gpuscope_recording(void)
{
    return api_ready();
}

int gpuscope_program_marks_steps(void)
{
    return atomic_load(&program_steps_seen);
}
