/* gzip output goes through fopencookie so that the writers keep one code path (fprintf on a
 * FILE *) and stdio's buffering, whatever the destination. */
#include "export/out_file.h"
#include "common/util.h"

#include <errno.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#include <zlib.h>

bool gs_out_is_stdout(const char *path)
{
    return !path || !strcmp(path, "-");
}

static ssize_t gz_write(void *cookie, const char *buf, size_t size)
{
    /* gzwrite takes an unsigned count: write in slices a 32-bit count can hold. */
    size_t done = 0;
    while (done < size) {
        size_t n = size - done > (1u << 30) ? (1u << 30) : size - done;
        int w = gzwrite((gzFile)cookie, buf + done, (unsigned)n);
        if (w <= 0) {
            errno = EIO;
            return done ? (ssize_t)done : -1;
        }
        done += (size_t)w;
    }
    return (ssize_t)done;
}

static int gz_close(void *cookie)
{
    return gzclose((gzFile)cookie) == Z_OK ? 0 : EOF;
}

/* A gzip stream over the output file: zlib writes its own duplicate of the descriptor, which
 * gzclose closes; the file's stream, never written, is closed by gs_output_close. */
static FILE *gz_stream(gs_output *file)
{
    int fd = dup(fileno(file->f));
    gzFile gz = fd >= 0 ? gzdopen(fd, "wb6") : NULL;
    if (!gz) {
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    cookie_io_functions_t io = {.write = gz_write, .close = gz_close};
    FILE *f = fopencookie(gz, "w", io);
    if (!f)
        gzclose(gz);
    return f;
}

int gs_out_open(gs_out *o, const char *path, gs_error *err)
{
    *o = (gs_out){0};
    if (gs_out_is_stdout(path)) {
        o->f = stdout;
        return 0;
    }
    if (gs_output_open(&o->file, path, err) != 0)
        return -1;
    o->f = gs_ends_with(path, ".gz") ? gz_stream(&o->file) : o->file.f;
    if (o->f)
        return 0;
    int e = errno;
    gs_output_close(&o->file, false, NULL);
    return gs_fail(err, GS_EXIT_ENV, "%s: cannot write: %s", path, strerror(e ? e : ENOMEM));
}

int gs_out_close(gs_out *o, bool keep, gs_error *err)
{
    if (o->f == stdout) {
        bool failed = fflush(stdout) != 0 || ferror(stdout);
        if (failed && keep)
            gs_fail(err, GS_EXIT_ENV, "write error on standard output");
        return keep && !failed ? 0 : -1;
    }
    if (o->f != o->file.f) { /* the gzip stream: its write errors are the file's */
        bool failed = ferror(o->f) != 0;
        if (fclose(o->f) != 0)
            failed = true;
        int saved = errno;
        if (failed) {
            if (keep)
                gs_fail(err, GS_EXIT_ENV, "%s: write error: %s", o->file.path,
                        strerror(saved ? saved : EIO));
            keep = false;
        }
    }
    return gs_output_close(&o->file, keep, err);
}
