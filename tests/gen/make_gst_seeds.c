/* Writes the .gst test fixture and the fuzz seeds with the real writer:
 *   make_gst_seeds FIXTURE.gst [CORPUS_DIR]
 * FIXTURE is tests/data/gst/sample.gst (the CLI goldens' input; the gen.gst_fixture test checks
 * that the writer still produces it byte for byte, so a format change cannot slip in unnoticed);
 * CORPUS_DIR receives the seeds of tests/fuzz/corpus/gst/. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../gen/gst_sample.h"

static uint8_t buffer[1 << 16];

/* The sample written with a buffer of `cap` bytes, cut to `keep` bytes (0: all). */
static int write_sample(const char *path, size_t cap, off_t keep)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        perror(path);
        return 1;
    }
    gst_writer w;
    int rc = gst_writer_open(&w, fd, buffer, cap, GST_CLOCK_MONOTONIC_RAW, 1700000000000000000);
    if (rc == 0 && cap > 0)
        rc = gst_write_sample(&w);
    if (rc == 0 && keep > 0 && ftruncate(fd, keep) != 0)
        rc = -1;
    close(fd);
    if (rc != 0)
        fprintf(stderr, "%s: write failed (%d)\n", path, rc);
    return rc != 0;
}

static int seed(const char *dir, const char *name, size_t cap, off_t keep)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return write_sample(path, cap, keep);
}

/* Times at the int64 extremes, an end before its start, calls overlapping in a range and an
 * empty string: the inputs that overflowed the index and the merge before the model's bounds. */
static int write_extremes(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/extreme_times.gst", dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    gst_writer w;
    if (fd < 0 || gst_writer_open(&w, fd, buffer, 4096, GST_CLOCK_REALTIME, 0) != 0) {
        perror(path);
        return 1;
    }
    gst_nvtx_range ranges[] = {{INT64_MAX, INT64_MIN, 1, 1, 1, 0, 0},
                               {INT64_MIN, INT64_MAX, 1, 1, 1, 0, 0},
                               {0, INT64_MAX, 1, 1, 1, 0, 0}};
    gst_api calls[] = {{0, INT64_MAX, 1, 1, 0, -1, 1, 0}, {1, INT64_MAX, 1, 1, 0, -1, 1, 0},
                       {2, INT64_MAX, 1, 1, 0, -1, 1, 0}};
    int rc = gst_writer_string(&w, 1, 0, "", 0);
    for (size_t i = 0; i < 3; i++)
        rc |= gst_writer_add(&w, GST_REC_NVTX_RANGE, &ranges[i]) |
              gst_writer_add(&w, GST_REC_API, &calls[i]);
    rc |= gst_writer_end(&w);
    close(fd);
    return rc != 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: make_gst_seeds FIXTURE.gst [CORPUS_DIR]\n");
        return 2;
    }
    int failed = write_sample(argv[1], 1024, 0); /* several chunks, so a cut keeps some */
    if (argc == 3) {
        failed |= seed(argv[2], "one_chunk.gst", sizeof buffer, 0);
        failed |= seed(argv[2], "small_chunks.gst", GST_WRITER_MIN_BUFFER, 0);
        failed |= seed(argv[2], "torn_last_chunk.gst", GST_WRITER_MIN_BUFFER, 1000);
        failed |= write_extremes(argv[2]);
        /* A header alone: the writer opened the file and the target died before a flush (a
         * capture cut short: no end marker). */
        char path[4096];
        snprintf(path, sizeof path, "%s/header_only.gst", argv[2]);
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        gst_writer w;
        failed |= fd < 0 || gst_writer_open(&w, fd, buffer, 4096, GST_CLOCK_REALTIME, 0) != 0;
        if (fd >= 0)
            close(fd);
    }
    return failed;
}
