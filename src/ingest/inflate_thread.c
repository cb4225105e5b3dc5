/* Inflate on its own core: a producer thread runs igzip (gunzip.h) into a small ring of
 * fixed-size blocks while the parser consumes them, so reading a .json.gz costs max(inflate,
 * parse) instead of their sum (doc/design.md §6). Memory is the ring: four blocks, whatever the
 * file size. */
#include "ingest/inflate_thread.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RING = 4, BLOCK = 1 << 20 };

struct inflate_thread {
    gs_gunzip *gz;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t changed;
    char *block[RING];
    size_t len[RING];
    size_t head, count; /* blocks ready: head .. head+count-1 (mod RING) */
    size_t head_pos;    /* bytes of the head block already handed out */
    bool done, stop;
    bool joined; /* paused: the producer has returned */
    bool failed, truncated; /* how the stream ended */
    char message[128];
    uint64_t file_offset; /* compressed bytes consumed so far */
};

static void *produce(void *arg)
{
    inflate_thread *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        while (p->count == RING && !p->stop)
            pthread_cond_wait(&p->changed, &p->mu);
        if (p->stop) {
            pthread_mutex_unlock(&p->mu);
            return NULL;
        }
        size_t slot = (p->head + p->count) % RING;
        pthread_mutex_unlock(&p->mu);

        /* Only this thread touches gz and the free slot, so no lock while inflating. */
        ssize_t got = gs_gunzip_read(p->gz, p->block[slot], BLOCK);

        pthread_mutex_lock(&p->mu);
        p->file_offset = gs_gunzip_in_offset(p->gz);
        if (got > 0) {
            p->len[slot] = (size_t)got;
            p->count++;
        } else {
            p->done = true;
            if (got < 0) {
                p->failed = true;
                p->truncated = gs_gunzip_truncated(p->gz);
                snprintf(p->message, sizeof p->message, "%s", gs_gunzip_message(p->gz));
            }
        }
        pthread_cond_broadcast(&p->changed);
        bool finished = p->done;
        pthread_mutex_unlock(&p->mu);
        if (finished)
            return NULL;
    }
}

inflate_thread *inflate_thread_start(gs_gunzip *gz)
{
    inflate_thread *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->gz = gz;
    for (size_t i = 0; i < RING; i++) {
        p->block[i] = malloc(BLOCK);
        if (!p->block[i])
            goto fail;
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->changed, NULL);
    if (pthread_create(&p->thread, NULL, produce, p) != 0) {
        pthread_mutex_destroy(&p->mu);
        pthread_cond_destroy(&p->changed);
        goto fail;
    }
    return p;
fail:
    for (size_t i = 0; i < RING; i++)
        free(p->block[i]);
    free(p);
    return NULL;
}

ssize_t inflate_thread_read(inflate_thread *p, char *buf, size_t n, bool *truncated,
                            const char **message)
{
    pthread_mutex_lock(&p->mu);
    while (p->count == 0 && !p->done && !p->stop)
        pthread_cond_wait(&p->changed, &p->mu);
    if (p->count == 0 && !p->done) {
        pthread_mutex_unlock(&p->mu);
        return INFLATE_DRAINED;
    }
    if (p->count == 0) {
        *truncated = p->truncated;
        *message = p->message;
        pthread_mutex_unlock(&p->mu);
        return p->failed ? -1 : 0;
    }
    size_t avail = p->len[p->head] - p->head_pos;
    pthread_mutex_unlock(&p->mu);

    /* The head block is the consumer's until it is released below. */
    size_t take = n < avail ? n : avail;
    memcpy(buf, p->block[p->head] + p->head_pos, take);

    pthread_mutex_lock(&p->mu);
    p->head_pos += take;
    if (p->head_pos == p->len[p->head]) {
        p->head = (p->head + 1) % RING;
        p->head_pos = 0;
        p->count--;
        pthread_cond_broadcast(&p->changed);
    }
    pthread_mutex_unlock(&p->mu);
    return (ssize_t)take;
}

uint64_t inflate_thread_file_offset(inflate_thread *p)
{
    pthread_mutex_lock(&p->mu);
    uint64_t off = p->file_offset;
    pthread_mutex_unlock(&p->mu);
    return off;
}

void inflate_thread_pause(inflate_thread *p)
{
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_broadcast(&p->changed);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
    p->joined = true;
}

void inflate_thread_stop(inflate_thread *p)
{
    if (!p)
        return;
    if (!p->joined)
        inflate_thread_pause(p);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->changed);
    for (size_t i = 0; i < RING; i++)
        free(p->block[i]);
    free(p);
}
