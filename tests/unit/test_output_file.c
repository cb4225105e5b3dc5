/* An output file (common/output_file.h): written beside its target and renamed over it, the old
 * file kept when the write fails, nothing but its own temporary file ever removed, a path that
 * is not a regular file written through, and an output that is an input refused. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/output_file.h"
#include "check.h"

static char dir[] = "/tmp/gs-output-XXXXXX";

static const char *in_dir(const char *name)
{
    static char path[4][512];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", dir, name);
    return p;
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static const char *contents(const char *path)
{
    static char buf[256];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = 0;
    return f ? buf : "(none)";
}

/* The names in the folder, sorted, joined by spaces. */
static const char *listing(void)
{
    static char buf[512];
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort);
    buf[0] = 0;
    for (int i = 0; i < n; i++) {
        if (names[i]->d_name[0] != '.')
            snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", *buf ? " " : "",
                     names[i]->d_name);
        free(names[i]);
    }
    free(names);
    return buf;
}

static void test_new_file(void)
{
    gs_output o;
    gs_error err = {0};
    CHECK_INT(gs_output_open(&o, in_dir("new.txt"), &err), 0);
    CHECK(o.tmp != NULL);
    CHECK(strcmp(gs_output_name(&o), in_dir("new.txt")) != 0);
    fputs("fresh", o.f);
    CHECK_STR(contents(in_dir("new.txt")), "(none)"); /* nothing at the path until complete */
    CHECK_INT(gs_output_close(&o, true, &err), 0);
    CHECK_STR(contents(in_dir("new.txt")), "fresh");
    CHECK_STR(listing(), "new.txt");
    CHECK(o.f == NULL && o.tmp == NULL && o.path == NULL);
}

static void test_replace_and_abandon(void)
{
    put(in_dir("old.txt"), "old");
    chmod(in_dir("old.txt"), 0640);
    gs_output o;
    gs_error err = {0};
    CHECK_INT(gs_output_open(&o, in_dir("old.txt"), &err), 0);
    fputs("half", o.f);
    CHECK_INT(gs_output_close(&o, false, &err), -1);
    CHECK_STR(err.msg, ""); /* the caller's failure: err untouched */
    CHECK_STR(contents(in_dir("old.txt")), "old");
    CHECK_STR(listing(), "new.txt old.txt");

    CHECK_INT(gs_output_open(&o, in_dir("old.txt"), &err), 0);
    fputs("new", o.f);
    CHECK_INT(gs_output_close(&o, true, &err), 0);
    CHECK_STR(contents(in_dir("old.txt")), "new");
    struct stat st;
    CHECK_INT(stat(in_dir("old.txt"), &st), 0);
    CHECK_INT(st.st_mode & 07777, 0640);
    CHECK_STR(listing(), "new.txt old.txt");
}

/* A symbolic link to a device that fails every write: written through, the error said, the link
 * and the device left. */
static void test_write_error_through_link(void)
{
    CHECK_INT(symlink("/dev/full", in_dir("full")), 0);
    gs_output o;
    gs_error err = {0};
    CHECK_INT(gs_output_open(&o, in_dir("full"), &err), 0);
    CHECK(o.tmp == NULL);
    CHECK_STR(gs_output_name(&o), in_dir("full"));
    for (int i = 0; i < 10000; i++)
        fputs("0123456789", o.f);
    CHECK_INT(gs_output_close(&o, true, &err), -1);
    CHECK_INT(err.code, GS_EXIT_ENV);
    char want[600];
    snprintf(want, sizeof want, "%s: write error: No space left on device", in_dir("full"));
    CHECK_STR(err.msg, want);
    struct stat st;
    CHECK_INT(lstat(in_dir("full"), &st), 0);
    CHECK(S_ISLNK(st.st_mode));
    CHECK_INT(stat("/dev/full", &st), 0);
    CHECK(S_ISCHR(st.st_mode));
    unlink(in_dir("full"));
}

static void test_cannot_open(void)
{
    gs_output o;
    gs_error err = {0};
    CHECK_INT(gs_output_open(&o, in_dir("missing/x.txt"), &err), -1);
    char want[600];
    snprintf(want, sizeof want, "%s: cannot write: No such file or directory",
             in_dir("missing/x.txt"));
    CHECK_STR(err.msg, want);
    CHECK_INT(err.code, GS_EXIT_ENV);
    CHECK_INT(gs_output_open(&o, dir, &err), -1); /* a folder */
    CHECK(strstr(err.msg, "Is a directory") != NULL);
}

static void test_inputs(void)
{
    gs_error err = {0};
    put(in_dir("trace.json"), "{}");
    CHECK_INT(link(in_dir("trace.json"), in_dir("hard.json")), 0);
    CHECK_INT(symlink("trace.json", in_dir("soft.json")), 0);
    const char *inputs[] = {in_dir("old.txt"), in_dir("trace.json")};
    CHECK_INT(gs_output_check_inputs(in_dir("new.txt"), inputs, 2, &err), 0);
    CHECK_INT(gs_output_check_inputs(in_dir("absent.json"), inputs, 2, &err), 0);
    CHECK_INT(gs_output_check_inputs(in_dir("hard.json"), inputs, 2, &err), -1);
    CHECK_INT(err.code, GS_EXIT_USAGE);
    char want[600];
    snprintf(want, sizeof want, "%s: the output is also an input: write it to another file",
             in_dir("hard.json"));
    CHECK_STR(err.msg, want);
    CHECK_INT(gs_output_check_inputs(in_dir("soft.json"), inputs, 2, &err), -1);
    char spelled[600];
    snprintf(spelled, sizeof spelled, "%s/./trace.json", dir);
    CHECK_INT(gs_output_check_inputs(spelled, inputs, 2, &err), -1);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    test_new_file();
    test_replace_and_abandon();
    test_write_error_through_link();
    test_cannot_open();
    test_inputs();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK_INT(system(cmd), 0);
    return check_done("test_output_file");
}
