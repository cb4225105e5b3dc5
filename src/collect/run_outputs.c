#include "collect/run_outputs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/gst_format.h"
#include "common/log.h"
#include "common/out_pattern.h"


typedef struct process_file {
    long pid;
    char target[PATH_MAX];
} process_file;

static int by_target_then_pid(const void *a, const void *b)
{
    const process_file *x = a, *y = b;
    int c = strcmp(x->target, y->target);
    return c ? c : (x->pid > y->pid) - (x->pid < y->pid);
}

/* Where a process's records go: what the agent expanded in that process (its pid, its
 * environment), or, when it could not write that down, the pattern expanded here. */
static void expand_target(const char *run_dir, const char *pattern, long pid, char *out, size_t cap)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%ld.target", run_dir, pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t n = read(fd, out, cap - 1);
        close(fd);
        if (n > 0) {
            out[n] = '\0';
            return;
        }
    }
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    if (gs_expand_output(pattern, pid, -1, host, gs_env_lookup_getenv, NULL, out, cap) != 0)
        snprintf(out, cap, "%s", pattern);
}

static int list_processes(const char *run_dir, const char *pattern, process_file **out,
                          size_t *n, bool *has_sampler, gs_error *err)
{
    DIR *d = opendir(run_dir);
    if (!d)
        return gs_fail(err, GS_EXIT_ENV, "%s: %s", run_dir, strerror(errno));
    *out = NULL;
    *n = 0;
    *has_sampler = false;
    size_t cap = 0;
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (strcmp(e->d_name, GS_RUN_SAMPLER_FILE) == 0)
            *has_sampler = true;
        if (end == e->d_name || strcmp(end, ".gst") != 0)
            continue;
        if (*n == cap) {
            cap = cap ? cap * 2 : 16;
            process_file *p = realloc(*out, cap * sizeof *p);
            if (!p) {
                rc = gs_fail_oom(err);
                break;
            }
            *out = p;
        }
        (*out)[*n].pid = pid;
        expand_target(run_dir, pattern, pid, (*out)[*n].target, sizeof (*out)[*n].target);
        GS_LOG(GS_LOG_INFO, "run: process %ld recorded %s, for %s", pid, e->d_name,
               (*out)[*n].target);
        (*n)++;
    }
    closedir(d);
    if (rc == 0 && *n > 1)
        qsort(*out, *n, sizeof **out, by_target_then_pid);
    return rc;
}

static int merge_group(const char *run_dir, const char *target, const process_file *files,
                       size_t nfiles, bool has_sampler, bool force, gs_run_output *o,
                       gs_error *err)
{
    size_t ninputs = nfiles + (has_sampler ? 1 : 0);
    char (*paths)[PATH_MAX] = malloc((ninputs ? ninputs : 1) * sizeof *paths);
    const char **inputs = malloc((ninputs ? ninputs : 1) * sizeof *inputs);
    o->path = strdup(target);
    int rc = 0;
    if (!paths || !inputs || !o->path) {
        rc = gs_fail_oom(err);
    } else {
        size_t k = 0;
        if (has_sampler)
            snprintf(paths[k++], PATH_MAX, "%s/%s", run_dir, GS_RUN_SAMPLER_FILE);
        for (size_t i = 0; i < nfiles; i++)
            snprintf(paths[k++], PATH_MAX, "%s/%ld.gst", run_dir, files[i].pid);
        for (size_t i = 0; i < ninputs; i++)
            inputs[i] = paths[i];
        o->nprocesses = nfiles;
        GS_LOG(GS_LOG_INFO, "run: %s: merging %zu process file(s)%s", target, nfiles,
               has_sampler ? " and the sampler's" : "");
        rc = gs_gst_merge(inputs, ninputs, target, force, &o->stats, err);
        size_t len = err ? strlen(err->msg) : 0;
        if (rc != 0 && err && len < sizeof err->msg)
            snprintf(err->msg + len, sizeof err->msg - len,
                     "; the recorded files are kept in %s", run_dir);
    }
    free(paths);
    free(inputs);
    return rc;
}

static void remove_run_dir(const char *run_dir)
{
    DIR *d = opendir(run_dir);
    if (!d)
        return;
    char path[PATH_MAX];
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", run_dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(run_dir);
}

/* Nothing was recorded: what is at `target` cannot be this run's trace. Only a regular file that
 * starts as a .gst trace is removed, checked on the file opened without following a link. */
static enum gs_earlier_output clear_earlier(const char *target, bool force)
{
    struct stat st, opened;
    if (lstat(target, &st) != 0)
        return GS_EARLIER_NONE;
    if (!S_ISREG(st.st_mode))
        return GS_EARLIER_NOT_FILE;
    int fd = open(target, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return GS_EARLIER_FAILED;
    char head[GST_MAGIC_SIZE];
    bool same = fstat(fd, &opened) == 0 && S_ISREG(opened.st_mode) &&
                opened.st_dev == st.st_dev && opened.st_ino == st.st_ino;
    bool is_gst = same && read(fd, head, sizeof head) == (ssize_t)sizeof head &&
                  memcmp(head, GST_MAGIC, GST_MAGIC_SIZE) == 0;
    close(fd);
    if (!same)
        return GS_EARLIER_NOT_FILE; /* replaced between the two looks */
    if (!is_gst)
        return GS_EARLIER_NOT_GST;
    if (!force)
        return GS_EARLIER_NOT_FORCED;
    return unlink(target) == 0 ? GS_EARLIER_REMOVED : GS_EARLIER_FAILED;
}

int gs_run_outputs_write(const char *run_dir, const char *pattern, long launched_pid,
                         bool force, gs_run_outputs *outs, gs_error *err)
{
    outs->v = NULL;
    outs->n = 0;
    outs->earlier = GS_EARLIER_NONE;
    process_file *files = NULL;
    size_t n = 0;
    bool has_sampler = false;
    if (list_processes(run_dir, pattern, &files, &n, &has_sampler, err) != 0)
        return -1;
    if (n == 0 && !has_sampler) {
        free(files);
        remove_run_dir(run_dir);
        expand_target(run_dir, pattern, launched_pid, outs->earlier_path,
                      sizeof outs->earlier_path);
        outs->earlier = clear_earlier(outs->earlier_path, force);
        return 0; /* nothing was recorded: the caller says so */
    }
    outs->v = calloc(n ? n : 1, sizeof *outs->v);
    int rc = outs->v ? 0 : gs_fail_oom(err);
    if (rc == 0 && n == 0) {
        char target[PATH_MAX];
        expand_target(run_dir, pattern, launched_pid, target, sizeof target);
        rc = merge_group(run_dir, target, NULL, 0, true, force, &outs->v[0], err);
        outs->n = 1;
    }
    for (size_t i = 0; rc == 0 && i < n;) {
        size_t j = i;
        while (j < n && strcmp(files[j].target, files[i].target) == 0)
            j++;
        rc = merge_group(run_dir, files[i].target, files + i, j - i, has_sampler, force,
                         &outs->v[outs->n++], err);
        i = j;
    }
    free(files);
    if (rc == 0)
        remove_run_dir(run_dir);
    return rc;
}

void gs_run_outputs_free(gs_run_outputs *outs)
{
    for (size_t i = 0; i < outs->n; i++) {
        free(outs->v[i].path);
        gs_merge_stats_free(&outs->v[i].stats);
    }
    free(outs->v);
    outs->v = NULL;
    outs->n = 0;
}
