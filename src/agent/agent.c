/* The agent's process-wide core (agent.h): the per-process file, the writer thread, and the
 * exit, fork and signal hooks. Nothing here may print, exit or abort: a failure turns tracing
 * off for this process and leaves the file readable up to its last whole chunk. */
#include "agent/agent.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "agent/agent_process.h"
#include "agent/agent_notes.h"
#include "agent/agent_strings.h"
#include "agent/capture.h"
#include "agent/ondemand_agent.h"
#include "common/gst_writer.h"
#include "common/out_pattern.h"
#include "common/util.h"

#define WRITER_BUFFER (1u << 20)
#define DEFAULT_FLUSH_MS 200
#define MAX_HOOKS 6 /* NVTX's drain, CUPTI's drain and switch, and room */
/* How long exit and signal paths wait for the writer: a hung GPU must not hang the target. */
#define SHUTDOWN_WAIT_NS 2000000000LL
/* ON: a file is open and records go into it. DORMANT: started on demand with no window under
 * way: hooks and the writer run, nothing is recorded. */
enum state { NOT_STARTED, ON, DORMANT, DISABLED };

/* What the two halves (NVTX, CUPTI) give the core: a drain each period, a switch each window. */
typedef struct hook {
    gsa_drain_fn drain;
    gsa_switch_fn turn;
} hook;

static struct {
    pthread_mutex_t lock; /* serialises start, drain rounds, shutdown */
    _Atomic int state;
    bool hooks_installed;  /* atexit, atfork and signal handlers: once per program image */
    bool forked_child;
    bool on_demand;        /* started dormant: files are opened per window (ondemand_agent.c) */
    _Atomic bool window_closing; /* the drain round that ends a window */
    gs_od_kinds kinds;     /* the run's collection (GPUSCOPE_KINDS) */
    char host[256];
    unsigned parts;
    int flush_ms;
    int fd;
    dev_t dev;             /* the file fd was opened on: what own_fd checks */
    ino_t ino;
    uint64_t dropped_noted; /* of g.w.records_dropped, already written in a note */
    /* 1 when the writer is asked to wake: a futex word, so that waking needs no descriptor of
     * the agent's in the program (a pipe's could be closed and its number reused by the
     * program's own files) and stays async-signal-safe. */
    atomic_int wake;
    gst_writer w;
    uint8_t *buf;
    char path[PATH_MAX];
    pthread_t thread;
    bool thread_running;
    _Atomic bool stop;
    _Atomic bool flush_request; /* a signal asks for a forced flush */
    _Atomic unsigned long rounds;
    hook hooks[MAX_HOOKS]; /* each sets one of its two */
    int nhooks;
    /* Never reset: NVTX domains and registered strings take ids before the agent starts (and
     * keep them in a forked child), so ids stay unique across every file of the process. */
    _Atomic gst_strid next_strid;
    gsa_strings strings;
    struct sigaction old_term, old_int;
} g = {.lock = PTHREAD_MUTEX_INITIALIZER,
       .fd = -1, .next_strid = 1};

static __thread int64_t tls_tid __attribute__((tls_model("initial-exec")));

int64_t gsa_tid(void)
{
    if (!tls_tid)
        tls_tid = (int64_t)syscall(SYS_gettid);
    return tls_tid;
}

bool gsa_part_enabled(unsigned part)
{
    return (g.parts & part) != 0;
}

bool gsa_is_forked_child(void)
{
    return g.forked_child;
}

bool gsa_recording(void)
{
    return atomic_load_explicit(&g.state, memory_order_relaxed) == ON;
}

bool gsa_on_demand(void)
{
    return g.on_demand;
}

bool gsa_window_closing(void)
{
    return atomic_load(&g.window_closing);
}

gs_od_kinds gsa_run_kinds(void)
{
    return g.kinds;
}

static void register_hook(hook h)
{
    pthread_mutex_lock(&g.lock);
    bool known = false;
    for (int i = 0; i < g.nhooks; i++)
        known |= g.hooks[i].drain == h.drain && g.hooks[i].turn == h.turn;
    if (!known && g.nhooks < MAX_HOOKS)
        g.hooks[g.nhooks++] = h;
    pthread_mutex_unlock(&g.lock);
}

void gsa_register_switch(gsa_switch_fn fn)
{
    register_hook((hook){.turn = fn});
}

gst_strid gsa_new_strid(void)
{
    return atomic_fetch_add(&g.next_strid, 1);
}

void gsa_register_drain(gsa_drain_fn fn)
{
    register_hook((hook){.drain = fn});
}

const char *gsa_file_path(void)
{
    return g.path;
}

void gsa_wake_writer(void)
{
    if (atomic_exchange(&g.wake, 1) == 0)
        syscall(SYS_futex, &g.wake, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Until woken or `ms` have passed (a relative wait: a jump of the wall clock changes nothing). */
static void wait_for_wake(int ms)
{
    struct timespec period = {ms / 1000, (long)(ms % 1000) * 1000000};
    if (atomic_load(&g.wake) == 0) /* the kernel checks again: a wake in between is not lost */
        syscall(SYS_futex, &g.wake, FUTEX_WAIT_PRIVATE, 0, &period, NULL, 0);
    atomic_store(&g.wake, 0);
}

/* ---- writer side: called with g.lock held ---- */

static void disable_after_write_error(void)
{
    /* The file is broken from here on (disk full, quota): stop writing, keep the target running. */
    atomic_store(&g.state, DISABLED);
}

void gsa_write(uint32_t type, const void *rec)
{
    if (atomic_load(&g.state) == ON && gst_writer_add(&g.w, type, rec) != 0)
        disable_after_write_error();
}

void gsa_define_string(gst_strid id, gst_strid domain, const char *s, size_t len)
{
    if (id != 0 && atomic_load(&g.state) == ON && gst_writer_string(&g.w, id, domain, s, len) != 0)
        disable_after_write_error();
}

gst_strid gsa_intern(const char *s, size_t len)
{
    if (len == 0)
        return 0;
    bool is_new = false;
    gst_strid id = gsa_strings_find_or_add(&g.strings, s, len, &is_new);
    if (is_new)
        gsa_define_string(id, 0, s, len);
    return id;
}

bool gsa_captured(int64_t start, int64_t end)
{
    return gsa_capture_keeps(start, end);
}

/* Chunks the writer dropped because the program took the file away (own_fd), said in a note
 * once the file is reachable again. */
static void note_dropped_chunks(void)
{
    uint64_t dropped = g.w.records_dropped - g.dropped_noted;
    if (!dropped)
        return;
    g.dropped_noted = g.w.records_dropped;
    char text[200];
    snprintf(text, sizeof text, "%llu trace records were lost: the program closed gpuscope's "
             "trace file, and it could not be opened again at once", (unsigned long long)dropped);
    gst_note rec = {gsa_now_ns(), dropped, 0, GST_NOTE_AGENT, gsa_intern(text, strlen(text))};
    gsa_write(GST_REC_NOTE, &rec);
}

static void drain_round(bool final)
{
    for (int i = 0; i < g.nhooks; i++)
        if (g.hooks[i].drain)
            g.hooks[i].drain(final);
    gsa_notes_write();
    note_dropped_chunks();
    /* The last round (exit, or a signal whose default action may end the process now) ends the
     * file with its end marker: a file without one was cut short (gst_format.h). */
    if (atomic_load(&g.state) == ON &&
        (final ? gst_writer_end(&g.w) : gst_writer_flush(&g.w)) != 0)
        disable_after_write_error();
    atomic_fetch_add(&g.rounds, 1);
}

static void *writer_main(void *arg)
{
    (void)arg;
    while (!atomic_load(&g.stop)) {
        wait_for_wake(g.flush_ms);
        if (atomic_load(&g.stop))
            break;
        bool forced = atomic_exchange(&g.flush_request, false);
        pthread_mutex_lock(&g.lock);
        if (atomic_load(&g.state) == ON)
            drain_round(forced);
        if (g.on_demand)
            gsa_od_poll();
        pthread_mutex_unlock(&g.lock);
    }
    return NULL;
}

/* ---- start ---- */

static unsigned parse_parts(const char *spec)
{
    if (!spec || !*spec)
        return GSA_PART_CUDA | GSA_PART_NVTX | GSA_PART_MEMORY;
    static const struct {
        const char *name;
        unsigned part;
    } names[] = {{"cuda", GSA_PART_CUDA}, {"nvtx", GSA_PART_NVTX}, {"memory", GSA_PART_MEMORY}};
    unsigned parts = 0;
    for (size_t i = 0; i < COUNT_OF(names); i++) {
        size_t n = strlen(names[i].name);
        for (const char *s = spec; (s = strstr(s, names[i].name)); s += n)
            if ((s == spec || s[-1] == ',') && (s[n] == ',' || s[n] == '\0'))
                parts |= names[i].part;
    }
    return parts;
}

static bool is_trace_file(int fd)
{
    struct stat st;
    return fd >= 0 && fstat(fd, &st) == 0 && st.st_dev == g.dev && st.st_ino == g.ino;
}

/* The writer's check before each chunk (gst_writer.h): whether g.fd is still the trace file.
 * The program may have closed it, and opened its own file at that number: that descriptor is
 * never written nor closed. The trace file is opened again by its path, for appending, when it
 * is still the same file; otherwise the chunk is dropped and counted (note_dropped_chunks). */
static int own_fd(void *ctx, int fd)
{
    (void)ctx;
    if (is_trace_file(fd))
        return fd;
    int again = gsa_move_high(open(g.path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC));
    if (again >= 0 && !is_trace_file(again)) {
        close(again);
        again = -1;
    }
    g.fd = again;
    return again;
}

static void at_exit(void);
static void before_fork(void);
static void after_fork_parent(void);
static void after_fork_child(void);
static void on_signal(int sig, siginfo_t *info, void *uctx);

static void install_hooks(void)
{
    if (g.hooks_installed)
        return;
    g.hooks_installed = true;
    atexit(at_exit);
    pthread_atfork(before_fork, after_fork_parent, after_fork_child);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    /* Only where the program keeps the default or its own handler: an ignored signal stays so. */
    struct sigaction cur;
    if (sigaction(SIGTERM, NULL, &cur) == 0 && cur.sa_handler != SIG_IGN) {
        g.old_term = cur;
        sigaction(SIGTERM, &sa, NULL);
    }
    if (sigaction(SIGINT, NULL, &cur) == 0 && cur.sa_handler != SIG_IGN) {
        g.old_int = cur;
        sigaction(SIGINT, &sa, NULL);
    }
}

/* The writer's chunk buffer, mapped rather than malloc'd: unmapped at a window's end, every page
 * goes back at once, where a heap would keep some between windows. */
static uint8_t *buffer_new(void)
{
    void *p = mmap(NULL, WRITER_BUFFER, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static void buffer_free(uint8_t *buf)
{
    if (buf)
        munmap(buf, WRITER_BUFFER);
}

static bool open_file(const char *dir, const char *pattern, long window)
{
    snprintf(g.path, sizeof g.path, "%s/%ld.gst", dir, (long)getpid());
    g.fd = gsa_move_high(open(g.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
    struct stat st;
    if (g.fd < 0 || fstat(g.fd, &st) != 0) {
        if (g.fd >= 0)
            close(g.fd);
        g.fd = -1;
        return false;
    }
    g.dev = st.st_dev;
    g.ino = st.st_ino;
    g.dropped_noted = 0;
    g.buf = buffer_new();
    if (!g.buf || gst_writer_open(&g.w, g.fd, g.buf, WRITER_BUFFER, GST_CLOCK_REALTIME, 0) != 0) {
        buffer_free(g.buf);
        g.buf = NULL;
        close(g.fd);
        g.fd = -1;
        unlink(g.path);
        return false;
    }
    g.w.fd_check = own_fd;
    gsa_write_target(dir, pattern, window, g.host);
    return true;
}

/* The first records of a new file: its process, and the strings it will refer to. */
static void begin_file(void)
{
    gsa_strings_reset(&g.strings, gsa_new_strid);
    atomic_store(&g.state, ON);
    gsa_write_process_record(g.host);
}

int gsa_window_open(const char *dir, const char *pattern, long window, gs_od_kinds kinds)
{
    if (atomic_load(&g.state) != DORMANT || !open_file(dir, pattern, window))
        return -1;
    begin_file();
    for (int i = 0; i < g.nhooks; i++)
        if (g.hooks[i].turn)
            g.hooks[i].turn(true, kinds);
    return 0;
}

void gsa_window_close(void)
{
    if (atomic_load(&g.state) != ON)
        return;
    for (int i = 0; i < g.nhooks; i++)
        if (g.hooks[i].turn)
            g.hooks[i].turn(false, GS_OD_KINDS_DEFAULT);
    atomic_store(&g.window_closing, true);
    drain_round(true);
    atomic_store(&g.window_closing, false);
    atomic_store(&g.state, DORMANT);
    if (is_trace_file(g.fd))
        close(g.fd);
    g.fd = -1;
    buffer_free(g.buf); /* its pages go back: a dormant agent stays small */
    g.buf = NULL;
}

static bool start_writer_thread(void)
{
    atomic_store(&g.wake, 0);
    /* The writer takes no signal meant for the program. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    atomic_store(&g.stop, false);
    g.thread_running = pthread_create(&g.thread, NULL, writer_main, NULL) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return g.thread_running;
}

static void start_locked(void)
{
    const char *run_dir = getenv(GS_ENV_RUN_DIR);
    if (!run_dir || !*run_dir) {
        /* Loaded without the launcher (a hand-set injection variable): nowhere to write. */
        atomic_store(&g.state, DISABLED);
        return;
    }
    g.parts = parse_parts(getenv(GS_ENV_TRACE));
    int ms = gsa_env_int(GS_ENV_FLUSH_MS, DEFAULT_FLUSH_MS);
    g.flush_ms = ms > 0 ? ms : DEFAULT_FLUSH_MS;
    const char *kinds = getenv(GS_ENV_KINDS);
    if (!kinds || gs_od_kinds_parse(kinds, &g.kinds) != 0)
        g.kinds = GS_OD_KINDS_DEFAULT;
    gethostname(g.host, sizeof g.host - 1);
    char err[200];
    int capture_rc = gsa_capture_init(getenv(GS_ENV_CAPTURE), err, sizeof err);
    const char *control = getenv(GS_ENV_CONTROL);
    g.on_demand = control && *control && gsa_capture_mode() == GSA_RANGE_ON_DEMAND;
    if (g.on_demand) {
        /* Nothing to write until a window is asked for; the status file says the agent is here. */
        if (!gsa_od_start(control, g.host)) {
            atomic_store(&g.state, DISABLED);
            return;
        }
        atomic_store(&g.state, DORMANT);
    } else {
        if (!open_file(run_dir, getenv(GS_ENV_OUTPUT), -1)) {
            atomic_store(&g.state, DISABLED);
            return;
        }
        begin_file();
        if (capture_rc != 0)
            gsa_note(GST_NOTE_AGENT, err, 0, 0);
    }
    install_hooks();
    if (!start_writer_thread() && g.on_demand) {
        /* No one to read requests: on demand cannot work here, so the agent stays out. */
        gsa_od_exit();
        atomic_store(&g.state, DISABLED);
    } else if (!g.thread_running) {
        gsa_note(GST_NOTE_AGENT,
                 "gpuscope could not start its writer thread in the program: the trace was "
                 "written at exit only, so a killed program leaves none",
                 0, 0);
        drain_round(false);
    }
}

bool gsa_start(void)
{
    int s = atomic_load(&g.state);
    if (s == NOT_STARTED) {
        pthread_mutex_lock(&g.lock);
        if (atomic_load(&g.state) == NOT_STARTED)
            start_locked();
        pthread_mutex_unlock(&g.lock);
        s = atomic_load(&g.state);
    }
    return s == ON || s == DORMANT;
}

/* ---- stop ---- */

static void deadline_after(struct timespec *ts, long long ns)
{
    clock_gettime(CLOCK_REALTIME, ts);
    long long total = ts->tv_nsec + ns;
    ts->tv_sec += (time_t)(total / 1000000000);
    ts->tv_nsec = (long)(total % 1000000000);
}

void gsa_shutdown(void)
{
    int state = atomic_load(&g.state);
    if (state != ON && state != DORMANT)
        return;
    struct timespec deadline;
    deadline_after(&deadline, SHUTDOWN_WAIT_NS);
    if (g.thread_running) {
        atomic_store(&g.stop, true);
        gsa_wake_writer();
        /* A writer stuck in CUPTI (hung GPU) is abandoned rather than waited for. */
        if (pthread_timedjoin_np(g.thread, NULL, &deadline) == 0)
            g.thread_running = false;
    }
    if (pthread_mutex_timedlock(&g.lock, &deadline) != 0)
        return;
    if (g.on_demand) {
        gsa_od_exit(); /* a window under way is written; a dormant agent leaves no trace */
        atomic_store(&g.state, NOT_STARTED);
    } else if (atomic_load(&g.state) == ON) {
        drain_round(true);
        atomic_store(&g.state, NOT_STARTED);
        if (is_trace_file(g.fd)) /* else it is closed, or the program's now */
            close(g.fd);
        g.fd = -1;
        buffer_free(g.buf);
        g.buf = NULL;
    }
    pthread_mutex_unlock(&g.lock);
}

static void at_exit(void)
{
    gsa_shutdown();
}

/* ---- fork: the child keeps no thread of ours and must not write its parent's file ---- */

static void before_fork(void)
{
    pthread_mutex_lock(&g.lock);
    gsa_notes_fork(GSA_FORK_PREPARE);
}

static void after_fork_parent(void)
{
    gsa_notes_fork(GSA_FORK_PARENT);
    pthread_mutex_unlock(&g.lock);
}

static void after_fork_child(void)
{
    pthread_mutex_init(&g.lock, NULL);
    gsa_notes_fork(GSA_FORK_CHILD);
    tls_tid = 0;
    if (atomic_load(&g.state) == NOT_STARTED)
        return;
    /* The parent's descriptors stay open in the child but are never written here. */
    g.forked_child = true;
    g.thread_running = false;
    g.fd = -1;
    buffer_free(g.buf); /* the parent's unwritten chunk: its data, not the child's */
    g.buf = NULL;
    atomic_store(&g.wake, 0);
    g.path[0] = '\0';
    atomic_store(&g.flush_request, false);
    gsa_capture_reset();
    gsa_od_forked();
    atomic_store(&g.state, NOT_STARTED);
}

/* ---- signals: flush, then let the program's own disposition decide ---- */

static void chain(int sig, const struct sigaction *old, siginfo_t *info, void *uctx)
{
    if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction) {
        old->sa_sigaction(sig, info, uctx);
    } else if (old->sa_handler == SIG_DFL) {
        /* Die as the program would have: the re-raised signal is delivered on return. */
        sigaction(sig, old, NULL);
        raise(sig);
    } else if (old->sa_handler != SIG_IGN) {
        old->sa_handler(sig);
    }
}

static void on_signal(int sig, siginfo_t *info, void *uctx)
{
    int saved_errno = errno;
    if (atomic_load(&g.state) == ON && g.thread_running) {
        unsigned long before = atomic_load(&g.rounds);
        atomic_store(&g.flush_request, true);
        gsa_wake_writer();
        /* Two rounds: one may have been under way before the request. */
        struct timespec step = {0, 1000000};
        for (long long waited = 0; waited < SHUTDOWN_WAIT_NS && atomic_load(&g.rounds) < before + 2;
             waited += step.tv_nsec)
            nanosleep(&step, NULL);
    }
    chain(sig, sig == SIGTERM ? &g.old_term : &g.old_int, info, uctx);
    errno = saved_errno;
}
