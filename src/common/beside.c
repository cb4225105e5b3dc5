#include "common/beside.h"

void gs_beside_start(gs_beside *b, void *(*fn)(void *), void *arg)
{
    b->result = NULL;
    b->threaded = pthread_create(&b->thread, NULL, fn, arg) == 0;
    if (!b->threaded)
        b->result = fn(arg);
}

void *gs_beside_join(gs_beside *b)
{
    if (b->threaded)
        pthread_join(b->thread, &b->result);
    b->threaded = false;
    return b->result;
}
