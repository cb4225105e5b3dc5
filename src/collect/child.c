#include "collect/child.h"
#include "common/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};
static volatile sig_atomic_t child_pid;

int gs_child_check(const char *prog, gs_error *err)
{
    if (strchr(prog, '/')) {
        if (access(prog, X_OK) == 0)
            return 0;
        int e = errno;
        return gs_fail(err, e == ENOENT ? 127 : 126, "cannot run '%s': %s", prog, strerror(e));
    }
    const char *path = getenv("PATH");
    char dir_prog[PATH_MAX];
    bool found = false;
    for (const char *p = path ? path : "/bin:/usr/bin"; ; p++) {
        const char *end = strchrnul(p, ':');
        int n = snprintf(dir_prog, sizeof dir_prog, "%.*s%s%s", (int)(end - p), p,
                         end == p ? "" : "/", prog);
        if (n > 0 && (size_t)n < sizeof dir_prog && access(dir_prog, F_OK) == 0) {
            found = true;
            if (access(dir_prog, X_OK) == 0)
                return 0;
        }
        if (!*end)
            break;
        p = end;
    }
    return gs_fail(err, found ? 126 : 127, "cannot run '%s': %s", prog,
                   found ? strerror(EACCES) : "not found in PATH");
}

int gs_child_start(char *const argv[], pid_t *pid, gs_error *err)
{
    /* exec's failure travels back through a close-on-exec pipe: no bytes means it ran. */
    int pfd[2];
    if (pipe2(pfd, O_CLOEXEC) != 0)
        return gs_fail(err, GS_EXIT_ENV, "cannot start '%s': %s", argv[0], strerror(errno));
    pid_t p = fork();
    if (p < 0) {
        int e = errno;
        close(pfd[0]);
        close(pfd[1]);
        return gs_fail(err, GS_EXIT_ENV, "cannot start '%s': %s", argv[0], strerror(e));
    }
    if (p == 0) {
        close(pfd[0]);
        execvp(argv[0], argv);
        int e = errno;
        ssize_t rc = write(pfd[1], &e, sizeof e);
        (void)rc;
        _exit(127);
    }
    close(pfd[1]);
    int e = 0;
    ssize_t got;
    do
        got = read(pfd[0], &e, sizeof e);
    while (got < 0 && errno == EINTR);
    close(pfd[0]);
    if (got == (ssize_t)sizeof e) {
        waitpid(p, NULL, 0);
        return gs_fail(err, e == ENOENT ? 127 : 126, "cannot run '%s': %s", argv[0],
                       strerror(e));
    }
    *pid = p;
    return 0;
}

static void forward(int sig, siginfo_t *info, void *uctx)
{
    (void)uctx;
    /* si_code > 0: the kernel sent it (the terminal's Ctrl-C to the whole foreground group). */
    if (child_pid > 0 && info->si_code <= 0)
        kill(child_pid, sig);
}

void gs_child_forward_signals(pid_t pid)
{
    child_pid = pid;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = forward;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < COUNT_OF(forwarded); i++)
        sigaction(forwarded[i], &sa, NULL);
}

int gs_child_wait(pid_t pid)
{
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    child_pid = 0;
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
