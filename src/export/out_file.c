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

FILE *gs_out_open(const char *path, gs_error *err)
{
    if (gs_out_is_stdout(path))
        return stdout;
    FILE *f = NULL;
    if (gs_ends_with(path, ".gz")) {
        gzFile gz = gzopen(path, "wb6");
        if (gz) {
            cookie_io_functions_t io = {.write = gz_write, .close = gz_close};
            f = fopencookie(gz, "w", io);
            if (!f)
                gzclose(gz);
        }
    } else {
        f = fopen(path, "w");
    }
    if (!f)
        gs_fail(err, GS_EXIT_ENV, "%s: cannot write: %s", path, strerror(errno ? errno : EIO));
    return f;
}

int gs_out_close(FILE *f, const char *path, gs_error *err)
{
    if (f == stdout)
        return fflush(f) != 0 || ferror(f)
                   ? gs_fail(err, GS_EXIT_ENV, "write error on standard output")
                   : 0;
    bool failed = ferror(f) != 0;
    int saved = errno;
    if (fclose(f) != 0 && !failed) {
        failed = true;
        saved = errno;
    }
    if (!failed)
        return 0;
    remove(path);
    return gs_fail(err, GS_EXIT_ENV, "%s: write error: %s", path, strerror(saved ? saved : EIO));
}
