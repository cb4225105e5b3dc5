/* The dormant agent on demand (src/agent/ondemand_agent.c, common/ondemand.h), driven through
 * its control folder as `gpuscope capture` drives it, with the fake CUPTI: nothing is written
 * and no CUPTI kind is on while dormant; a request of time and one of steps each give one file
 * holding exactly their window; every kind is off again after each; light kinds leave driver
 * calls out; a request for another process, an older one, or one written by another user is
 * not served; exit removes the status of a dormant agent. */
#include <dirent.h>
#include <time.h>

#include "agent/gpuscope_marks.h"
#include "common/ondemand.h"
#include "fake_cupti.h"

static char control[64], host[256];
static uint64_t next_id = 1;

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
}

static bool read_status(gs_od_status *st)
{
    char name[320], text[GS_OD_TEXT_MAX], err[160];
    gs_od_status_name(host, (long)getpid(), name, sizeof name);
    return gs_od_read_file(control, name, text, sizeof text, NULL) >= 0 &&
           gs_od_status_parse(text, strlen(text), st, err, sizeof err) == 0;
}

/* Waits (up to 3 s) for the status to reach `state` (or `or_state`) for request `id`. */
static bool wait_either(gs_od_state state, gs_od_state or_state, uint64_t id, gs_od_status *st)
{
    for (int i = 0; i < 300; i++) {
        if (read_status(st) && (st->state == state || st->state == or_state) && st->request == id)
            return true;
        sleep_ms(10);
    }
    fprintf(stderr, "status never reached %s for request %llu (is %s, request %llu)\n",
            gs_od_state_name(state), (unsigned long long)id, gs_od_state_name(st->state),
            (unsigned long long)st->request);
    return false;
}

static bool wait_state(gs_od_state state, uint64_t id, gs_od_status *st)
{
    return wait_either(state, state, id, st);
}

static uint64_t ask(gs_od_request r, const char *window_dir)
{
    r.id = next_id++;
    if (!r.targets[0])
        snprintf(r.targets, sizeof r.targets, "%s:%ld", host, (long)getpid());
    snprintf(r.dir, sizeof r.dir, "%s", window_dir);
    char text[GS_OD_TEXT_MAX];
    CHECK_INT(gs_od_request_format(&r, text, sizeof text), 0);
    CHECK_INT(gs_od_write_file(control, GS_OD_REQUEST_FILE, text, strlen(text)), 0);
    return r.id;
}

static size_t files_in(const char *dir, const char *suffix)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strlen(e->d_name) > strlen(suffix) &&
             strcmp(e->d_name + strlen(e->d_name) - strlen(suffix), suffix) == 0;
    if (d)
        closedir(d);
    return n;
}

static gs_trace *load(const char *path)
{
    gs_trace *t = NULL;
    gs_error err;
    CHECK_INT(gs_load_trace(path, NULL, &t, &err), 0);
    return t;
}

static size_t steps_in(const gs_trace *t)
{
    size_t n = 0;
    for (size_t i = 0; i < t->ranges.n; i++)
        n += strncmp(gs_trace_str(t, t->ranges.v[i].name), "ProfilerStep#", 13) == 0;
    return n;
}

static void step(int k, int ms)
{
    char name[32];
    snprintf(name, sizeof name, "ProfilerStep#%d", k);
    gpuscope_range_push(name);
    sleep_ms(ms);
    gpuscope_range_pop();
}

static void test_on_demand(void)
{
    snprintf(control, sizeof control, "/tmp/test_agent_od_XXXXXX");
    CHECK(mkdtemp(control) != NULL);
    gethostname(host, sizeof host - 1);
    setenv(GS_ENV_CONTROL, control, 1);
    setenv(GS_ENV_OUTPUT, "/tmp/unused-%p-%w.gst", 1);
    gsa_cupti_api api = fake_api(13, 130001);
    char run_dir[64];
    snprintf(run_dir, sizeof run_dir, "/tmp/test_agent_od_run_XXXXXX");
    CHECK(mkdtemp(run_dir) != NULL);
    setenv(GS_ENV_RUN_DIR, run_dir, 1);
    setenv(GS_ENV_FLUSH_MS, "20", 1); /* requests are read once per period */
    setenv(GS_ENV_TRACE, "cuda,nvtx", 1);
    setenv(GS_ENV_CAPTURE, "range=on-demand", 1);
    CHECK(gsa_start());
    CHECK(gsa_cupti_start(&api));

    /* Dormant: a status, no file, no kind on, and steps are counted. */
    gs_od_status st;
    CHECK(read_status(&st));
    CHECK_INT(st.state, GS_OD_DORMANT);
    CHECK_INT(st.pid, (long)getpid());
    CHECK_STR(gsa_file_path(), "");
    CHECK(!fake.enabled[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL]);
    CHECK(!fake.enabled[CUPTI_ACTIVITY_KIND_RUNTIME]);
    CHECK_INT(gpuscope_recording(), 1); /* the hooks still mark steps */
    step(1, 5);
    CHECK_INT(files_in(run_dir, ".gst"), 0);

    /* A window of time: one file, with the kernel inside it and not the one before. */
    char win[96];
    snprintf(win, sizeof win, "%s/w1", control);
    CHECK_INT(mkdir(win, 0700), 0);
    uint64_t id = ask((gs_od_request){.duration_ns = 1500000000}, win);
    CHECK(wait_either(GS_OD_ARMED, GS_OD_RECORDING, id, &st));
    CHECK(fake.enabled[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL]);
    CHECK(fake.enabled[CUPTI_ACTIVITY_KIND_DRIVER]);
    int64_t now = gsa_now_ns();
    CUpti_ActivityKernel10 inside = {.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
                                     .start = (uint64_t)now + 1000, .end = (uint64_t)now + 5000,
                                     .contextId = 1, .streamId = 7, .correlationId = 42,
                                     .name = "_Z6insidev"};
    CUpti_ActivityKernel10 before = inside;
    before.start = (uint64_t)now - 2000000000;
    before.end = before.start + 1000;
    before.name = "_Z6beforev";
    feed((const void *[]){&inside, &before}, 2);
    CHECK(wait_state(GS_OD_WRITTEN, id, &st));
    CHECK_INT(st.windows, 1);
    CHECK(!fake.enabled[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL]); /* back to no cost */
    CHECK(!fake.enabled[CUPTI_ACTIVITY_KIND_DRIVER]);
    CHECK(atomic_load(&fake.forced_flushes) >= 1);
    char target[PATH_MAX];
    snprintf(target, sizeof target, "%s/%ld.target", win, (long)getpid());
    char text[PATH_MAX] = "", want[PATH_MAX];
    FILE *f = fopen(target, "r");
    CHECK(f && fgets(text, sizeof text, f));
    if (f)
        fclose(f);
    snprintf(want, sizeof want, "/tmp/unused-%ld-%llu.gst", (long)getpid(),
             (unsigned long long)id);
    CHECK_STR(text, want); /* %w is the request's id */
    gs_trace *t = load(st.file);
    if (t) {
        CHECK_INT(t->kernels.n, 1);
        CHECK(has_string(t, "_Z6insidev"));
        CHECK(!has_string(t, "_Z6beforev"));
        CHECK_INT(t->pid, (int64_t)getpid()); /* its PROCESS record */
        gs_trace_delete(t);
    }

    /* A window of 2 steps, light: the steps under way and after are not in it. */
    snprintf(win, sizeof win, "%s/w2", control);
    CHECK_INT(mkdir(win, 0700), 0);
    id = ask((gs_od_request){.steps = 2, .start_step = -1, .kinds = GS_OD_KINDS_LIGHT}, win);
    CHECK(wait_state(GS_OD_ARMED, id, &st));
    CHECK(fake.enabled[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL]);
    CHECK(!fake.enabled[CUPTI_ACTIVITY_KIND_DRIVER]); /* light: no driver calls */
    CHECK(!fake.enabled[CUPTI_ACTIVITY_KIND_SYNCHRONIZATION]);
    for (int k = 2; k <= 6; k++)
        step(k, 30);
    CHECK(wait_state(GS_OD_WRITTEN, id, &st));
    CHECK_INT(st.windows, 2);
    CHECK(st.step >= 3); /* the steps are published with the window's end */
    CHECK(!fake.enabled[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL]);
    t = load(st.file);
    if (t) {
        CHECK_INT(steps_in(t), 2);
        gs_trace_delete(t);
    }

    /* Not served: another process's request, and an older id. */
    snprintf(win, sizeof win, "%s/w3", control);
    CHECK_INT(mkdir(win, 0700), 0);
    gs_od_request other = {.duration_ns = 1000000};
    snprintf(other.targets, sizeof other.targets, "%s:%ld", host, (long)getpid() + 1);
    ask(other, win);
    next_id = 1;
    ask((gs_od_request){.duration_ns = 1000000}, win);
    sleep_ms(150);
    CHECK(read_status(&st));
    CHECK_INT(st.state, GS_OD_WRITTEN);
    CHECK_INT(st.windows, 2);
    CHECK_INT(files_in(win, ".gst"), 0);
    next_id = 10;

    /* A request file owned by another user (root can make one): refused, and said why. */
    if (geteuid() == 0) {
        gs_od_request r = {.id = next_id++, .duration_ns = 1000000};
        snprintf(r.targets, sizeof r.targets, "%s:%ld", host, (long)getpid());
        snprintf(r.dir, sizeof r.dir, "%s", win);
        char tmp[PATH_MAX], req[PATH_MAX];
        snprintf(tmp, sizeof tmp, "%s/.foreign", control);
        snprintf(req, sizeof req, "%s/" GS_OD_REQUEST_FILE, control);
        CHECK_INT(gs_od_request_format(&r, text, sizeof text), 0);
        f = fopen(tmp, "w");
        CHECK(f && fputs(text, f) >= 0);
        if (f)
            fclose(f);
        CHECK_INT(chown(tmp, 4242, 4242), 0); /* another user's, before the agent can see it */
        CHECK_INT(rename(tmp, req), 0);
        CHECK(wait_state(GS_OD_FAILED, r.id, &st));
        CHECK(strstr(st.error, "refused a request written by user 4242") != NULL);
        CHECK_INT(files_in(win, ".gst"), 0);
        CHECK(!fake.enabled[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL]);
    } else {
        printf("skipped: a request of another user needs root to make\n");
    }

    /* Exit: a dormant agent leaves no status behind. */
    gsa_shutdown();
    CHECK(!read_status(&st));
    unsetenv(GS_ENV_CONTROL);
}

int main(void)
{
    test_on_demand();
    return check_done("test_agent_ondemand");
}
