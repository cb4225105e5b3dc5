/* NVTX domains and registered strings. Their handles are pointers to these entries, which live
 * for the whole process (NVTX never frees a handle while the program may use it). Every entry
 * is defined as a STRING record in the file; a new file (a forked child's) defines them all
 * again. */
#ifndef GS_AGENT_NVTX_REGISTRY_H
#define GS_AGENT_NVTX_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

#include "common/gst_format.h"

typedef struct gsa_registered {
    gst_strid id;
    gst_strid domain; /* of a registered string; 0 for a domain's own name */
    uint32_t len;
    struct gsa_registered *next;
    char text[];
} gsa_registered;

/* Any thread: a new entry, or NULL when out of memory. */
gsa_registered *gsa_registry_add(gst_strid domain, const char *text);

/* Writer only: defines the entries not yet defined in the current file. */
void gsa_registry_define_new(void);

/* A new file (a forked child's, a new window's) has none of them yet. */
void gsa_registry_new_file(void);

#endif
