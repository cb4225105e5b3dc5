/* Opening NVML on a thread that the caller may leave behind. */
#include "probe/nvml_guard.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NS_PER_S 1000000000LL
/* How often the waiter looks at the caller's stop flag: a signal does not wake a timed wait. */
#define STOP_POLL_NS 50000000LL

/* Shared by the caller and the opening thread; freed by whichever of the two is the last. */
typedef struct opening {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool done, left; /* the open returned; the caller gave up waiting */
    char *library;   /* NULL: the default */
    gs_nvml *nvml;
    int rc;
    gs_error err;
} opening;

static void opening_free(opening *o)
{
    pthread_cond_destroy(&o->cv);
    pthread_mutex_destroy(&o->mu);
    free(o->library);
    free(o);
}

static void *open_thread(void *arg)
{
    opening *o = arg;
    gs_nvml *n = NULL;
    gs_error err;
    int rc = gs_nvml_open(o->library, &n, &err);
    pthread_mutex_lock(&o->mu);
    bool left = o->left;
    o->done = true;
    o->nvml = n;
    o->rc = rc;
    o->err = err;
    pthread_cond_signal(&o->cv);
    pthread_mutex_unlock(&o->mu);
    if (left) {
        /* Nobody will take it: the caller went on without NVML. */
        gs_nvml_close(n);
        opening_free(o);
    }
    return NULL;
}

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * NS_PER_S + ts.tv_nsec;
}

int gs_nvml_open_guarded(const char *library, int64_t wait_ns, const volatile sig_atomic_t *stop,
                         gs_nvml **out, gs_error *err)
{
    *out = NULL;
    opening *o = calloc(1, sizeof *o);
    if (!o || (library && !(o->library = strdup(library)))) {
        free(o);
        return gs_fail_oom(err);
    }
    pthread_mutex_init(&o->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&o->cv, &ca);
    pthread_condattr_destroy(&ca);
    pthread_t t;
    int rc = pthread_create(&t, NULL, open_thread, o);
    if (rc) {
        opening_free(o);
        return gs_fail(err, GS_EXIT_ENV, "NVML not available: cannot start a thread: %s",
                       strerror(rc));
    }
    int64_t start = mono_ns(), end = wait_ns > 0 ? start + wait_ns : INT64_MAX;
    pthread_mutex_lock(&o->mu);
    while (!o->done && !(stop && *stop)) {
        int64_t now = mono_ns();
        if (now >= end)
            break;
        int64_t until = end - now < STOP_POLL_NS ? end : now + STOP_POLL_NS;
        struct timespec ts = {(time_t)(until / NS_PER_S), (long)(until % NS_PER_S)};
        pthread_cond_timedwait(&o->cv, &o->mu, &ts);
    }
    bool done = o->done;
    o->left = !done;
    pthread_mutex_unlock(&o->mu);
    /* A thread that answered has only to return: joined, so that what it holds (dlerror's
     * per-thread buffer) is freed before this process may exit. One left in NVML is let go. */
    if (done)
        pthread_join(t, NULL);
    else
        pthread_detach(t);
    if (!done)
        return gs_fail(err, GS_EXIT_ENV,
                       "NVML did not answer within %.1f s: nvmlInit_v2 or the first device "
                       "queries hung (a GPU or its driver is stuck)",
                       (double)(mono_ns() - start) / NS_PER_S);
    *out = o->nvml;
    rc = o->rc;
    if (rc != 0 && err)
        *err = o->err;
    opening_free(o);
    return rc;
}
