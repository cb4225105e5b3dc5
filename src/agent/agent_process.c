#include "agent/agent_process.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "agent/agent.h"
#include "common/out_pattern.h"

/* The agent's descriptors are moved to this number or above (less where the program's limit on
 * open files is lower): far from the lowest free numbers that the program's open() takes and
 * the small ones it dup2()s to. A program may still close them (daemons close every descriptor
 * from 3 up): each write checks first (agent.c's own_fd). */
#define HIGH_FD 900

/* open() hands out the lowest free number, which the program expects for its own files; and
 * when it runs with stdout or stderr closed, the agent would get those, and the program's
 * output would go into the trace. */
int gsa_move_high(int fd)
{
    if (fd < 0)
        return fd;
    struct rlimit rl;
    int floor = HIGH_FD;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        rl.rlim_cur / 2 < (rlim_t)floor)
        floor = (int)(rl.rlim_cur / 2);
    int moved = fcntl(fd, F_DUPFD_CLOEXEC, floor > 3 ? floor : 3);
    if (moved < 0 && fd <= 2)
        moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    if (moved < 0 && fd > 2)
        return fd;
    close(fd);
    return moved;
}

int32_t gsa_env_int(const char *name, int32_t fallback)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return fallback;
    char *end;
    long v = strtol(s, &end, 10);
    return *end || v < INT32_MIN || v > INT32_MAX ? fallback : (int32_t)v;
}

void gsa_write_target(const char *dir, const char *pattern, long window, const char *host)
{
    char target[PATH_MAX], path[PATH_MAX];
    if (!pattern || gs_expand_output(pattern, (long)getpid(), window, host, gs_env_lookup_getenv,
                                     NULL, target, sizeof target) != 0)
        return;
    snprintf(path, sizeof path, "%s/%ld.target", dir, (long)getpid());
    int fd = gsa_move_high(open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (fd < 0)
        return;
    ssize_t rc = write(fd, target, strlen(target));
    (void)rc;
    close(fd);
}

static gst_strid intern_cmdline(void)
{
    char buf[4096];
    int fd = gsa_move_high(open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC));
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    for (ssize_t i = 0; i < n; i++)
        if (buf[i] == '\0')
            buf[i] = ' ';
    while (n > 0 && buf[n - 1] == ' ')
        n--;
    return gsa_intern(buf, (size_t)n);
}

void gsa_write_process_record(const char *host)
{
    gst_process p = {(int64_t)getpid(), gsa_env_int("RANK", -1), gsa_env_int("WORLD_SIZE", 0),
                     gsa_intern(host, strlen(host)), intern_cmdline()};
    gsa_write(GST_REC_PROCESS, &p);
}
