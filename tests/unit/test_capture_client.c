/* The pure parts of `gpuscope capture`'s client (collect/capture_client.h, capture_targets.h): the
 * step every target starts at, the request's id, the control folder found in a process's
 * environment, and the agents of one process's tree, on a fake /proc (tests/unit/fake_proc.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "collect/capture_client.h"
#include "collect/capture_targets.h"
#include "common/util.h"
#include "fake_proc.h"

#define MS 1000000LL
#define POLL (200 * MS)

static gs_capture_agent agent(int64_t step, int64_t step_ns, int64_t updated_ns)
{
    return (gs_capture_agent){.st = {.step = step, .step_ns = step_ns, .updated_ns = updated_ns}};
}

/* margin = 1 + ceil((now - oldest updated_ns + 2 polls) / shortest step), past the latest step. */
static void test_start_step(void)
{
    int64_t now = 10000 * MS;
    /* Two ranks at steps 41 and 40, steps of 100 and 120 ms, statuses 300 ms old and fresh:
     * (300 + 400) / 100 = 7 steps may pass, so 41 + 1 + 7. */
    gs_capture_agent two[] = {agent(41, 100 * MS, now), agent(40, 120 * MS, now - 300 * MS)};
    CHECK_INT(gs_capture_start_step(two, COUNT_OF(two), now, POLL), 49);
    /* A part of a step rounds up: (0 + 400) / 150 = 2.67 -> 3, so 10 + 1 + 3. */
    gs_capture_agent part[] = {agent(10, 150 * MS, now)};
    CHECK_INT(gs_capture_start_step(part, 1, now, POLL), 14);
    /* No step length known yet: two steps past the latest. */
    gs_capture_agent unknown[] = {agent(5, 0, now), agent(-1, 0, now)};
    CHECK_INT(gs_capture_start_step(unknown, COUNT_OF(unknown), now, POLL), 7);
    /* No target has seen a step: the next step. */
    gs_capture_agent none[] = {agent(-1, 0, now), agent(-1, 0, now - 5000 * MS)};
    CHECK_INT(gs_capture_start_step(none, COUNT_OF(none), now, POLL), -1);
    /* Steps of 1 us and a status an hour old: at most 1000 steps ahead. */
    gs_capture_agent fast[] = {agent(7, 1000, now - 3600000 * MS)};
    CHECK_INT(gs_capture_start_step(fast, 1, now, POLL), 1007);
}

/* One more than the largest id the folder has seen: its request file's and every status's. */
static void test_next_id(void)
{
    char folder[] = "/tmp/gs_capture_id_XXXXXX";
    CHECK(mkdtemp(folder) != NULL);
    gs_capture_agent v[] = {{.st = {.request = 4}}, {.st = {.request = 9}}};
    gs_capture_targets t = {.v = v, .n = COUNT_OF(v)};
    snprintf(t.folder, sizeof t.folder, "%s", folder);
    CHECK_INT(gs_capture_next_id(&t), 10);
    static const char request[] = "id=12\nsteps=3\ndir=/x\n";
    CHECK_INT(gs_od_write_file(folder, GS_OD_REQUEST_FILE, request, strlen(request)), 0);
    CHECK_INT(gs_capture_next_id(&t), 13);
    /* No id past the largest: 0, which no agent takes, so capture refuses. */
    v[1].st.request = UINT64_MAX;
    CHECK_INT(gs_capture_next_id(&t), 0);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", folder, GS_OD_REQUEST_FILE);
    unlink(path);
    rmdir(folder);
}

static void environ_of(const char *pid, const char *vars, size_t len)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", fake_proc_root, pid);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/%s/environ", fake_proc_root, pid);
    FILE *f = fopen(path, "w");
    CHECK(f && fwrite(vars, 1, len, f) == len);
    if (f)
        fclose(f);
}

#define ENVIRON(pid, lit) environ_of(pid, lit, sizeof lit - 1)

/* The folder is GPUSCOPE_CONTROL in the process's environment, NUL-separated; a variable whose
 * name only starts the same, or an empty value, is not it. */
static void test_folder_of(void)
{
    fake_proc_init();
    char folder[PATH_MAX];
    gs_error err;
    fake_proc_set(100, "train", 1, 0, 0, 0, 10);
    ENVIRON("100", "PATH=/bin\0GPUSCOPE_CONTROLX=/wrong\0GPUSCOPE_CONTROL=/runs/ctl\0HOME=/");
    CHECK_INT(gs_capture_folder_of(100, fake_proc_root, folder, sizeof folder, &err), 0);
    CHECK_STR(folder, "/runs/ctl");

    fake_proc_set(101, "plain", 1, 0, 0, 0, 10);
    ENVIRON("101", "GPUSCOPE_CONTROL=\0PATH=/bin\0");
    CHECK_INT(gs_capture_folder_of(101, fake_proc_root, folder, sizeof folder, &err), -1);
    CHECK_INT(err.code, GS_EXIT_USAGE);
    CHECK(strstr(err.msg, "process 101 was not started by `gpuscope run --on-demand`") != NULL);

    CHECK_INT(gs_capture_folder_of(102, fake_proc_root, folder, sizeof folder, &err), -1);
    CHECK_INT(err.code, GS_EXIT_USAGE);
    CHECK_STR(err.msg, "no process 102");

    /* `gpuscope run --on-demand ... &` then `capture $!`: the launcher's own environment has
     * no folder (it sets it for its child only); its child's has. */
    fake_proc_set(200, "gpuscope", 1, 0, 0, 0, 10);
    ENVIRON("200", "PATH=/bin\0");
    fake_proc_set(201, "python", 200, 0, 0, 0, 10);
    ENVIRON("201", "PATH=/bin\0GPUSCOPE_CONTROL=/runs/launched\0");
    fake_proc_set(300, "other", 1, 0, 0, 0, 10); /* someone else's child: not looked at */
    ENVIRON("300", "GPUSCOPE_CONTROL=/runs/other\0");
    CHECK_INT(gs_capture_folder_of(200, fake_proc_root, folder, sizeof folder, &err), 0);
    CHECK_STR(folder, "/runs/launched");
    /* A shell above a launcher is not taken for the run: only children are looked at. */
    fake_proc_set(400, "bash", 1, 0, 0, 0, 10);
    ENVIRON("400", "PATH=/bin\0");
    fake_proc_set(401, "gpuscope", 400, 0, 0, 0, 10);
    ENVIRON("401", "PATH=/bin\0");
    fake_proc_set(402, "python", 401, 0, 0, 0, 10);
    ENVIRON("402", "GPUSCOPE_CONTROL=/runs/below\0");
    CHECK_INT(gs_capture_folder_of(400, fake_proc_root, folder, sizeof folder, &err), -1);
    CHECK_INT(gs_capture_folder_of(401, fake_proc_root, folder, sizeof folder, &err), 0);
    CHECK_STR(folder, "/runs/below");
    /* Its program has ended: nothing left to ask. */
    char environ_201[256];
    snprintf(environ_201, sizeof environ_201, "%s/201/environ", fake_proc_root);
    unlink(environ_201);
    fake_proc_remove(201);
    CHECK_INT(gs_capture_folder_of(200, fake_proc_root, folder, sizeof folder, &err), -1);
    CHECK(strstr(err.msg, "process 200 was not started by `gpuscope run --on-demand`") != NULL);
    fake_proc_cleanup();
}

/* An agent's status for a live local process (this test, or its parent), as the agent writes it. */
static void write_status(const char *folder, long pid)
{
    gs_od_status st = {.pid = pid, .rank = -1, .step = -1};
    gethostname(st.host, sizeof st.host - 1);
    char name[GS_OD_HOST_MAX + 32], text[GS_OD_TEXT_MAX];
    CHECK_INT(gs_od_status_name(st.host, pid, name, sizeof name), 0);
    CHECK_INT(gs_od_status_format(&st, text, sizeof text), 0);
    CHECK_INT(gs_od_write_file(folder, name, text, strlen(text)), 0);
}

/* `capture PID` asks the agents of PID's tree only: PID and its descendants, not their parent. */
static void test_find_in_tree(void)
{
    fake_proc_init();
    long self = (long)getpid(), parent = (long)getppid();
    fake_proc_set((int)parent, "shell", 1, 0, 0, 0, 10);
    fake_proc_set(900000, "gpuscope", (int)parent, 0, 0, 0, 10);
    fake_proc_set((int)self, "python", 900000, 0, 0, 0, 10);
    char folder[] = "/tmp/gs-capture-find-XXXXXX";
    CHECK(mkdtemp(folder) != NULL);
    chmod(folder, 0700);
    write_status(folder, self);
    write_status(folder, parent);
    gs_capture_targets t;
    gs_error err;
    CHECK_INT(gs_capture_find(folder, 900000, fake_proc_root, &t, &err), 0);
    CHECK_INT(t.n, 1);
    CHECK_INT(t.n ? t.v[0].st.pid : 0, self);
    gs_capture_targets_free(&t);
    CHECK_INT(gs_capture_find(folder, 0, fake_proc_root, &t, &err), 0); /* --job: every agent */
    CHECK_INT(t.n, 2);
    gs_capture_targets_free(&t);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", folder);
    CHECK_INT(system(cmd), 0);
    fake_proc_cleanup();
}

int main(void)
{
    test_start_step();
    test_next_id();
    test_folder_of();
    test_find_in_tree();
    return check_done("test_capture_client");
}
