#include "collect/capture_targets.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util.h"
#include "probe/proc.h"

static void this_host(char *out, size_t cap)
{
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    snprintf(out, cap, "%s", host); /* cut as the agent cuts it (GS_OD_HOST_MAX) */
}

/* The tree of root_pid under proc_root (probe/proc.h): empty when it cannot be read, so that no
 * process is taken for part of it. */
static void read_tree(const char *proc_root, long root_pid, gs_proc_tree *tree)
{
    gs_error ignored;
    if (gs_proc_read_tree(proc_root, root_pid, tree, &ignored) != 0)
        tree->n = 0;
}

static int cmp_pid(const void *key, const void *elem)
{
    int64_t pid = *(const int64_t *)key, other = ((const gs_proc_info *)elem)->pid;
    return (pid > other) - (pid < other);
}

/* Whether `pid` is the tree's root or one of its descendants (the tree is by ascending pid). */
static bool in_tree(const gs_proc_tree *tree, long pid)
{
    int64_t key = pid;
    return tree->n && bsearch(&key, tree->v, tree->n, sizeof *tree->v, cmp_pid) != NULL;
}

/* GPUSCOPE_CONTROL in `proc_root`/PID/environ (the environment as the process started, its
 * variables NUL-separated) into out: 1, 0 when it has none, -1 when the file cannot be opened
 * (errno says why). */
static int control_of(long pid, const char *proc_root, char *out, size_t cap)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%ld/environ", proc_root, pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    static const char key[] = GS_ENV_CONTROL "=";
    char buf[1 << 16];
    size_t used = 0;
    for (ssize_t r; used < sizeof buf - 1 && (r = read(fd, buf + used, sizeof buf - 1 - used)) > 0;)
        used += (size_t)r;
    close(fd);
    buf[used] = '\0';
    for (size_t at = 0; at < used; at += strlen(buf + at) + 1)
        if (strncmp(buf + at, key, sizeof key - 1) == 0 && buf[at + sizeof key - 1])
            return snprintf(out, cap, "%s", buf + at + sizeof key - 1) < (int)cap;
    return 0;
}

/* The folder of the lowest-numbered child of `pid` that has one. `gpuscope run --on-demand
 * CMD &` then `capture $!` names the launcher, which sets the folder in its child's environment
 * only (its own, as it started, never has it). Only children: a shell above several runs is
 * not taken for one of them. */
static int control_of_children(long pid, const char *proc_root, char *out, size_t cap)
{
    gs_proc_tree tree = {0};
    read_tree(proc_root, pid, &tree);
    bool found = false;
    for (size_t i = 0; i < tree.n && !found; i++)
        found = tree.v[i].ppid == pid && control_of((long)tree.v[i].pid, proc_root, out, cap) == 1;
    gs_proc_tree_free(&tree);
    return found;
}

int gs_capture_folder_of(long pid, const char *proc_root, char *out, size_t cap, gs_error *err)
{
    int found = control_of(pid, proc_root, out, cap);
    if (found < 0 && (errno == EACCES || errno == EPERM)) {
        struct stat st;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%ld", proc_root, pid);
        unsigned long uid = stat(path, &st) == 0 ? (unsigned long)st.st_uid : 0;
        return gs_fail(err, GS_EXIT_ENV,
                       "process %ld belongs to another user (uid %lu): only its owner or root "
                       "may capture it",
                       pid, uid);
    }
    if (found < 0)
        return gs_fail(err, GS_EXIT_USAGE, "no process %ld", pid);
    if (found || control_of_children(pid, proc_root, out, cap))
        return 0;
    return gs_fail(err, GS_EXIT_USAGE,
                   "process %ld was not started by `gpuscope run --on-demand`: it has no "
                   "agent to ask",
                   pid);
}

int gs_capture_check_folder(const char *folder, gs_error *err)
{
    struct stat st;
    if (lstat(folder, &st) != 0)
        return gs_fail(err, GS_EXIT_USAGE, "%s: %s", folder, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return gs_fail(err, GS_EXIT_USAGE, "%s is not a folder", folder);
    if (geteuid() != 0 && !gs_od_trusted_owner(st.st_uid, geteuid())) /* root may capture anyone */
        return gs_fail(err, GS_EXIT_ENV,
                       "%s belongs to another user (uid %lu): only its owner or root may "
                       "capture its processes",
                       folder, (unsigned long)st.st_uid);
    if (st.st_mode & (S_IWGRP | S_IWOTH))
        return gs_fail(err, GS_EXIT_ENV,
                       "%s can be written by others: its agents would obey anyone's requests "
                       "(chmod go-w it)",
                       folder);
    return 0;
}

/* A status an agent wrote: a process id names one process (kill() takes 0 and -1 for groups of
 * them, which would pass for a live agent and be waited on). */
static bool read_status(const char *folder, const char *name, gs_od_status *st)
{
    char text[GS_OD_TEXT_MAX], why[160];
    return gs_od_read_file(folder, name, text, sizeof text, NULL) >= 0 &&
           gs_od_status_parse(text, strlen(text), st, why, sizeof why) == 0 && st->pid > 0;
}

bool gs_capture_reread(const char *folder, gs_capture_agent *a)
{
    return read_status(folder, a->name, &a->st);
}

bool gs_capture_gone(const gs_capture_agent *a)
{
    return a->local && gs_od_process_ended(a->st.pid);
}

static int add(gs_capture_targets *t, const gs_capture_agent *a, size_t *cap)
{
    if (t->n == *cap) {
        size_t c = *cap ? 2 * *cap : 8;
        gs_capture_agent *v = realloc(t->v, c * sizeof *v);
        if (!v)
            return -1;
        t->v = v;
        *cap = c;
    }
    t->v[t->n++] = *a;
    return 0;
}

static int add_stale(gs_capture_targets *t, long pid)
{
    long *v = realloc(t->stale, (t->nstale + 1) * sizeof *v);
    if (!v)
        return -1;
    t->stale = v;
    t->stale[t->nstale++] = pid;
    return 0;
}

int gs_capture_find(const char *folder, long root_pid, const char *proc_root,
                    gs_capture_targets *t, gs_error *err)
{
    *t = (gs_capture_targets){0};
    snprintf(t->folder, sizeof t->folder, "%s", folder);
    DIR *d = opendir(folder);
    if (!d)
        return gs_fail(err, GS_EXIT_USAGE, "%s: %s", folder, strerror(errno));
    char host[GS_OD_HOST_MAX];
    this_host(host, sizeof host);
    gs_proc_tree tree = {0}; /* the processes a root_pid's capture may ask */
    if (root_pid > 0)
        read_tree(proc_root, root_pid, &tree);
    size_t cap = 0;
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));) {
        const char *dot = strrchr(e->d_name, '.');
        gs_capture_agent a = {0};
        if (e->d_name[0] == '.' || !dot || strcmp(dot, GS_OD_AGENT_SUFFIX) != 0 ||
            strlen(e->d_name) >= sizeof a.name || !read_status(folder, e->d_name, &a.st))
            continue;
        memcpy(a.name, e->d_name, strlen(e->d_name) + 1); /* fits: checked above */
        a.local = strcmp(a.st.host, host) == 0;
        if (gs_capture_gone(&a)) {
            char path[PATH_MAX];
            if (snprintf(path, sizeof path, "%s/%s", folder, e->d_name) < (int)sizeof path &&
                unlink(path) == 0 && add_stale(t, a.st.pid) != 0)
                rc = -1;
            continue;
        }
        if (root_pid > 0 && (!a.local || !in_tree(&tree, a.st.pid)))
            continue;
        if (add(t, &a, &cap) != 0)
            rc = -1;
    }
    closedir(d);
    gs_proc_tree_free(&tree);
    if (rc != 0)
        return gs_fail_oom(err);
    if (t->n == 0) {
        int code = GS_EXIT_INPUT;
        if (root_pid > 0)
            gs_fail(err, code,
                    "process %ld has no agent in %s yet (the agent starts with the program's "
                    "first CUDA or NVTX call)",
                    root_pid, folder);
        else
            gs_fail(err, code, "no agent in %s: no process of `gpuscope run --on-demand --job` "
                               "runs with it",
                    folder);
        return -1;
    }
    return 0;
}

void gs_capture_targets_free(gs_capture_targets *t)
{
    free(t->v);
    free(t->stale);
    *t = (gs_capture_targets){0};
}
