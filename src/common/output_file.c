#include "common/output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Names a temporary file tries: one is taken only while another writer of the same path holds
 * it, so a few tries always suffice. */
enum { TMP_TRIES = 100 };

/* As fopen(path, "w") opens. */
static int open_in_place(const char *path)
{
    return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0666);
}

/* A new file beside path, named PATH.tmp-PID-N so that one left by a killed gpuscope says whose
 * it is: its descriptor and *tmp its name, or -1 with errno. */
static int open_temporary(const char *path, char **tmp)
{
    static unsigned counter;
    size_t cap = strlen(path) + 48;
    if (!(*tmp = malloc(cap))) {
        errno = ENOMEM;
        return -1;
    }
    int fd = -1;
    for (int t = 0; t < TMP_TRIES && fd < 0; t++) {
        snprintf(*tmp, cap, "%s.tmp-%ld-%u", path, (long)getpid(), counter++);
        fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        int e = errno;
        free(*tmp);
        *tmp = NULL;
        errno = e;
    }
    return fd;
}

/* The descriptor to write path through, or -1 with errno. */
static int open_file(gs_output *o, const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno != ENOENT)
            return -1;
        return open_temporary(path, &o->tmp);
    }
    if (!S_ISREG(st.st_mode))
        return open_in_place(path);
    /* A file gpuscope may not write stays so, though renaming over it would be allowed. */
    if (access(path, W_OK) != 0)
        return -1;
    int fd = open_temporary(path, &o->tmp);
    if (fd >= 0) {
        fchmod(fd, st.st_mode & 07777); /* the replacement keeps the file's permissions */
        return fd;
    }
    /* A folder where gpuscope may write this file but create none, or a name with no room for
     * the suffix: the file is written in place, as fopen would. */
    if (errno == EACCES || errno == EPERM || errno == ENAMETOOLONG)
        return open_in_place(path);
    return -1;
}

int gs_output_open(gs_output *o, const char *path, gs_error *err)
{
    *o = (gs_output){0};
    int fd = open_file(o, path);
    if (fd >= 0 && (!(o->path = strdup(path)) || !(o->f = fdopen(fd, "w")))) {
        if (o->tmp)
            unlink(o->tmp);
        close(fd);
        fd = -1;
        errno = ENOMEM;
    }
    if (fd >= 0)
        return 0;
    int e = errno;
    free(o->tmp);
    free(o->path);
    *o = (gs_output){0};
    return gs_fail(err, GS_EXIT_ENV, "%s: cannot write: %s", path, strerror(e));
}

const char *gs_output_name(const gs_output *o)
{
    return o->tmp ? o->tmp : o->path;
}

int gs_output_close(gs_output *o, bool keep, gs_error *err)
{
    bool failed = ferror(o->f) != 0;
    int saved = errno;
    if (fclose(o->f) != 0 && !failed) {
        failed = true;
        saved = errno;
    }
    int rc = 0;
    if (!keep)
        rc = -1;
    else if (failed)
        rc = gs_fail(err, GS_EXIT_ENV, "%s: write error: %s", o->path,
                     strerror(saved ? saved : EIO));
    else if (o->tmp && rename(o->tmp, o->path) != 0)
        rc = gs_fail(err, GS_EXIT_ENV, "%s: cannot replace: %s", o->path, strerror(errno));
    if (rc != 0 && o->tmp)
        unlink(o->tmp);
    free(o->tmp);
    free(o->path);
    *o = (gs_output){0};
    return rc;
}

int gs_output_check_inputs(const char *path, const char *const *inputs, size_t ninputs,
                           gs_error *err)
{
    struct stat out, in;
    if (stat(path, &out) != 0)
        return 0;
    for (size_t i = 0; i < ninputs; i++)
        if (stat(inputs[i], &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
            return gs_fail(err, GS_EXIT_USAGE,
                           "%s: the output is also an input: write it to another file", path);
    return 0;
}
