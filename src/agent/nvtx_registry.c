#include "agent/nvtx_registry.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "agent/agent.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static gsa_registered *first, *last;
static gsa_registered *defined_upto; /* the last entry defined in the current file */

gsa_registered *gsa_registry_add(gst_strid domain, const char *text)
{
    if (!text)
        text = "";
    size_t len = strnlen(text, 4096);
    gsa_registered *e = malloc(sizeof *e + len + 1);
    if (!e)
        return NULL;
    e->id = gsa_new_strid();
    e->domain = domain;
    e->len = (uint32_t)len;
    e->next = NULL;
    memcpy(e->text, text, len);
    e->text[len] = '\0';
    pthread_mutex_lock(&lock);
    if (last)
        last->next = e;
    else
        first = e;
    last = e;
    pthread_mutex_unlock(&lock);
    return e;
}

void gsa_registry_define_new(void)
{
    pthread_mutex_lock(&lock);
    gsa_registered *e = defined_upto ? defined_upto->next : first;
    gsa_registered *end = last;
    pthread_mutex_unlock(&lock);
    /* Entries are only appended, so the ones up to `end` are stable without the lock. */
    for (; e; e = e->next) {
        gsa_define_string(e->id, e->domain, e->text, e->len);
        defined_upto = e;
        if (e == end)
            break;
    }
}

void gsa_registry_new_file(void)
{
    pthread_mutex_init(&lock, NULL); /* after a fork it may have been held */
    defined_upto = NULL;
}
