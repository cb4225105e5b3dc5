/* The on-demand control files (src/common/ondemand.h): status and request texts written and read
 * back field for field, the errors a hand-edited or cut file gets, which processes a request
 * names, whole-file replacement, whose files the agent obeys, and when a process has ended
 * (a zombie has: it answers kill() but reads no request). */
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "common/ondemand.h"

static char err[256];

static void test_status_round_trip(void)
{
    gs_od_status s = {.pid = 4242, .host = "node7", .rank = 3, .state = GS_OD_RECORDING,
                      .request = 9, .step = 120, .step_ns = 53000000, .steps_seen = 121,
                      .updated_ns = 1700000000123456789, .windows = 2,
                      .file = "/tmp/w/4242.gst", .error = "a\nb"};
    char text[GS_OD_TEXT_MAX];
    CHECK_INT(gs_od_status_format(&s, text, sizeof text), 0);
    CHECK(strstr(text, "state=recording\n") != NULL);
    CHECK(strstr(text, "error=a b\n") != NULL); /* a newline would start a false key */
    gs_od_status back;
    CHECK_INT(gs_od_status_parse(text, strlen(text), &back, err, sizeof err), 0);
    CHECK_INT(back.pid, 4242);
    CHECK_STR(back.host, "node7");
    CHECK_INT(back.rank, 3);
    CHECK_INT(back.state, GS_OD_RECORDING);
    CHECK_INT(back.request, 9);
    CHECK_INT(back.step, 120);
    CHECK_INT(back.step_ns, 53000000);
    CHECK_INT(back.steps_seen, 121);
    CHECK(back.updated_ns == 1700000000123456789);
    CHECK_INT(back.windows, 2);
    CHECK_STR(back.file, "/tmp/w/4242.gst");
    CHECK_STR(back.error, "a b");

    /* Too small a buffer is an error, not a cut file. */
    CHECK_INT(gs_od_status_format(&s, text, 40), -1);
    /* Defaults for what a file leaves out: no rank, no step. */
    CHECK_INT(gs_od_status_parse("pid=1\n", 6, &back, err, sizeof err), 0);
    CHECK_INT(back.rank, -1);
    CHECK_INT(back.step, -1);
}

static void test_request_round_trip(void)
{
    gs_od_request r = {.id = 7, .targets = "node7:4242,node8:17", .steps = 3, .start_step = 130,
                       .kinds = GS_OD_KINDS_LIGHT, .dir = "/tmp/w", .output = "cap-%p-%w.gst"};
    char text[GS_OD_TEXT_MAX];
    CHECK_INT(gs_od_request_format(&r, text, sizeof text), 0);
    gs_od_request back;
    CHECK_INT(gs_od_request_parse(text, strlen(text), &back, err, sizeof err), 0);
    CHECK_INT(back.id, 7);
    CHECK_STR(back.targets, "node7:4242,node8:17");
    CHECK_INT(back.steps, 3);
    CHECK_INT(back.start_step, 130);
    CHECK_INT(back.kinds, GS_OD_KINDS_LIGHT);
    CHECK_STR(back.dir, "/tmp/w");
    CHECK_STR(back.output, "cap-%p-%w.gst");

    /* Unknown keys are skipped: a newer capture may say more. */
    const char *newer = "id=2\nduration_ns=1000000000\ndir=/d\nfuture=1\n";
    CHECK_INT(gs_od_request_parse(newer, strlen(newer), &back, err, sizeof err), 0);
    CHECK_INT(back.start_step, -1);
    CHECK(back.duration_ns == 1000000000);
}

static void bad_request(const char *text, const char *why)
{
    gs_od_request r;
    err[0] = '\0';
    CHECK_INT(gs_od_request_parse(text, strlen(text), &r, err, sizeof err), -1);
    if (!strstr(err, why))
        fprintf(stderr, "'%s': error '%s', want '%s'\n", text, err, why);
    CHECK(strstr(err, why) != NULL);
}

static void test_request_errors(void)
{
    bad_request("id=1\nsteps=3\n", "without a folder");
    bad_request("id=1\ndir=/d\n", "neither steps nor a duration");
    bad_request("steps=3\ndir=/d\n", "without an id");
    bad_request("id=1\nsteps\n", "without '='");
    bad_request("id=-1\nsteps=3\ndir=/d\n", "bad id");
    bad_request("id=1\nsteps=99999999999\ndir=/d\n", "bad steps");
    bad_request("id=1\nsteps=3x\ndir=/d\n", "bad steps");
    bad_request("id=1\nsteps=3\ndir=/d\nkinds=heavy\n", "bad kinds");
    bad_request("id=1\nsteps=3\ndir=/d\r\n", "bad dir"); /* a control character */
}

static void test_targets(void)
{
    gs_od_request r = {.targets = "*"};
    CHECK(gs_od_request_targets(&r, "any", 1));
    snprintf(r.targets, sizeof r.targets, "node7:42,node8:4242");
    CHECK(gs_od_request_targets(&r, "node7", 42));
    CHECK(gs_od_request_targets(&r, "node8", 4242));
    CHECK(!gs_od_request_targets(&r, "node7", 4)); /* a prefix of 42 */
    CHECK(!gs_od_request_targets(&r, "node8", 42));
    CHECK(!gs_od_request_targets(&r, "ode8", 4242)); /* a suffix of node8 */
    char name[64];
    CHECK_INT(gs_od_status_name("node7", 42, name, sizeof name), 0);
    CHECK_STR(name, "node7.42.agent");
    CHECK_INT(gs_od_status_name("node7", 42, name, 8), -1);
}

static void test_files(void)
{
    char dir[] = "/tmp/gs-ondemand-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    CHECK_INT(gs_od_write_file(dir, "request", "id=1\n", 5), 0);
    CHECK_INT(gs_od_write_file(dir, "request", "id=22\n", 6), 0); /* replaced whole */
    char buf[64];
    struct stat st;
    CHECK_INT(gs_od_read_file(dir, "request", buf, sizeof buf, &st), 6);
    CHECK_STR(buf, "id=22\n");
    CHECK_INT(st.st_uid, geteuid());
    CHECK_INT(gs_od_read_file(dir, "request", buf, 4, NULL), 3); /* cut to fit, terminated */
    CHECK_STR(buf, "id=");
    CHECK_INT(gs_od_read_file(dir, "absent", buf, sizeof buf, NULL), -1);
    /* A symbolic link is never followed: someone else's file is not read as a request. */
    char link[128];
    snprintf(link, sizeof link, "%s/linked", dir);
    CHECK_INT(symlink("/etc/hostname", link), 0);
    CHECK_INT(gs_od_read_file(dir, "linked", buf, sizeof buf, NULL), -1);
    unlink(link);
    char path[128];
    snprintf(path, sizeof path, "%s/request", dir);
    unlink(path);
    CHECK_INT(rmdir(dir), 0); /* no temporary file left behind */

    CHECK(gs_od_trusted_owner(1000, 1000));
    CHECK(gs_od_trusted_owner(0, 1000));
    CHECK(!gs_od_trusted_owner(1001, 1000));
}

static void test_process_ended(void)
{
    CHECK(!gs_od_process_ended((long)getpid()));
    pid_t child = fork();
    if (child == 0)
        _exit(0);
    CHECK(child > 0);
    /* Not waited for yet: a zombie once it has exited. */
    bool ended = false;
    for (int i = 0; i < 200 && !ended; i++) {
        struct timespec step = {0, 10000000};
        nanosleep(&step, NULL);
        ended = gs_od_process_ended((long)child);
    }
    CHECK(ended);
    CHECK_INT(kill(child, 0), 0); /* what the launcher asked before: it looked alive */
    waitpid(child, NULL, 0);
    CHECK(gs_od_process_ended((long)child));
    /* No process has these pids; kill() would take 0 and -1 for groups, and 2^32 + 1 for 1. */
    CHECK(gs_od_process_ended(0));
    CHECK(gs_od_process_ended(-1));
    CHECK(gs_od_process_ended(4294967297L));
}

int main(void)
{
    test_status_round_trip();
    test_request_round_trip();
    test_request_errors();
    test_targets();
    test_files();
    test_process_ended();
    return check_done("ondemand");
}
