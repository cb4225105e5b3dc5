/* Capture on demand, the agent's side (ondemand_agent.h). One window at a time: a request is
 * accepted while dormant, its file opened and collection switched on at once (enabling CUPTI
 * kinds may stall: better before the window than in it), and the window itself opened and closed
 * by the capture layer (capture.h) at step boundaries or times; its end, or the request's
 * deadline, writes the file and returns the agent to dormant. */
#include "agent/ondemand_agent.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent/agent.h"
#include "agent/agent_process.h"
#include "agent/capture.h"
#include "common/ondemand.h"
#include "common/run_env.h"

/* How often a moving step count is published: the status is for people and for `capture`
 * choosing a common start step, not a live feed. */
#define STEP_PUBLISH_NS 1000000000LL

static struct {
    bool started;
    char dir[PATH_MAX];
    char name[GS_OD_HOST_MAX + 32]; /* <host>.<pid>.agent */
    gs_od_status st;
    bool dirty;                     /* st changed since it was written */
    int64_t published_ns;
    uint64_t published_seen;
    /* The request file as last seen: a new one is another inode or time. */
    ino_t req_ino;
    struct timespec req_mtime;
    uint64_t last_id;
    bool active; /* a request is armed or recording */
    gs_od_request req;
} od;

static void publish(int64_t now)
{
    gsa_step_info steps = gsa_capture_steps();
    od.st.step = steps.number;
    od.st.step_ns = steps.last_ns;
    od.st.steps_seen = steps.seen;
    od.st.updated_ns = now;
    char text[GS_OD_TEXT_MAX];
    if (gs_od_status_format(&od.st, text, sizeof text) == 0 &&
        gs_od_write_file(od.dir, od.name, text, strlen(text)) == 0) {
        od.dirty = false;
        od.published_ns = now;
        od.published_seen = steps.seen;
    }
}

bool gsa_od_start(const char *control, const char *host)
{
    memset(&od, 0, sizeof od);
    long pid = (long)getpid();
    if (snprintf(od.dir, sizeof od.dir, "%s", control) >= (int)sizeof od.dir ||
        gs_od_status_name(host, pid, od.name, sizeof od.name) != 0)
        return false;
    od.st = (gs_od_status){.pid = pid, .rank = gsa_env_int("RANK", -1), .state = GS_OD_DORMANT,
                           .step = -1};
    snprintf(od.st.host, sizeof od.st.host, "%s", host);
    od.started = true;
    publish(gsa_now_ns());
    return od.published_ns != 0; /* the folder is not writable: no one could reach us */
}

static void fail_request(uint64_t id, const char *why)
{
    od.st.state = GS_OD_FAILED;
    od.st.request = id;
    snprintf(od.st.error, sizeof od.st.error, "%s", why);
    od.dirty = true;
}

/* A request that names this process, newer than the last, from a trusted owner: armed. */
static void arm(const gs_od_request *r, int64_t now)
{
    const char *pattern = r->output[0] ? r->output : getenv(GS_ENV_OUTPUT);
    gs_od_kinds kinds = r->kinds != GS_OD_KINDS_DEFAULT ? r->kinds : gsa_run_kinds();
    if (gsa_window_open(r->dir, pattern, (long)r->id, kinds) != 0) {
        char why[sizeof od.st.error];
        snprintf(why, sizeof why, "cannot write the window's file in %.160s", r->dir);
        fail_request(r->id, why);
        return;
    }
    if (r->steps)
        gsa_capture_arm_steps(r->start_step, r->steps, now);
    else {
        int64_t from = r->from_ns > now ? r->from_ns : now;
        gsa_capture_arm_time(from, from + r->duration_ns);
    }
    od.req = *r;
    od.active = true;
    od.st.state = GS_OD_ARMED;
    od.st.request = r->id;
    od.st.error[0] = '\0';
    od.st.file[0] = '\0';
    od.dirty = true;
}

static void read_request(int64_t now)
{
    char path[PATH_MAX];
    struct stat st;
    if (snprintf(path, sizeof path, "%s/" GS_OD_REQUEST_FILE, od.dir) >= (int)sizeof path ||
        stat(path, &st) != 0)
        return;
    if (st.st_ino == od.req_ino && st.st_mtim.tv_sec == od.req_mtime.tv_sec &&
        st.st_mtim.tv_nsec == od.req_mtime.tv_nsec)
        return; /* the one already read: the usual case, one stat() per period */
    char text[GS_OD_TEXT_MAX], err[160];
    gs_od_request r;
    if (gs_od_read_file(od.dir, GS_OD_REQUEST_FILE, text, sizeof text, &st) < 0)
        return;
    od.req_ino = st.st_ino;
    od.req_mtime = st.st_mtim;
    if (gs_od_request_parse(text, strlen(text), &r, err, sizeof err) != 0 ||
        !gs_od_request_targets(&r, od.st.host, od.st.pid) || r.id <= od.last_id)
        return;
    od.last_id = r.id;
    if (!gs_od_trusted_owner(st.st_uid, geteuid())) {
        char why[sizeof od.st.error];
        snprintf(why, sizeof why, "refused a request written by user %lu: only the process's "
                 "owner or root may capture it", (unsigned long)st.st_uid);
        fail_request(r.id, why);
        return;
    }
    arm(&r, now);
}

/* The window is over (closed, past its deadline, or the program ends): its file is written. */
static void finish(const char *why)
{
    uint32_t steps = 0;
    gsa_capture_window(gsa_now_ns(), &steps);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s", gsa_file_path());
    gsa_window_close();
    gsa_capture_disarm();
    od.active = false;
    od.st.state = GS_OD_WRITTEN;
    od.st.windows++;
    snprintf(od.st.file, sizeof od.st.file, "%s", path);
    if (why && od.req.steps)
        snprintf(od.st.error, sizeof od.st.error, "%s after %u of %u steps", why, steps,
                 od.req.steps);
    else if (why)
        snprintf(od.st.error, sizeof od.st.error, "%s", why);
    od.dirty = true;
}

void gsa_od_poll(void)
{
    if (!od.started)
        return;
    int64_t now = gsa_now_ns();
    if (!od.active)
        read_request(now);
    if (od.active) {
        gsa_window_state w = gsa_capture_window(now, NULL);
        if (w == GSA_WINDOW_CLOSED)
            finish(NULL);
        else if (od.req.deadline_ns && now >= od.req.deadline_ns)
            finish(w == GSA_WINDOW_OPEN ? "the window was cut at its deadline"
                                        : "no step began before the deadline");
        else if (w == GSA_WINDOW_OPEN && od.st.state != GS_OD_RECORDING) {
            od.st.state = GS_OD_RECORDING;
            od.dirty = true;
        }
    }
    /* The first step is published at once: `capture` needs every agent's step count to choose
     * a step all of them reach. */
    gsa_step_info steps = gsa_capture_steps();
    if (od.dirty || (steps.seen && !od.published_seen) ||
        (steps.seen != od.published_seen && now - od.published_ns >= STEP_PUBLISH_NS))
        publish(now);
}

void gsa_od_exit(void)
{
    if (!od.started)
        return;
    if (od.active) {
        finish("the program ended");
        publish(gsa_now_ns()); /* left for `capture`, which removes it once the process is gone */
    } else {
        char path[PATH_MAX];
        if (snprintf(path, sizeof path, "%s/%s", od.dir, od.name) < (int)sizeof path)
            unlink(path);
    }
    od.started = false;
}

void gsa_od_forked(void)
{
    od.started = false;
    od.active = false;
}
