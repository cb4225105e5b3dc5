/* The trace model's event classes as Chrome trace events in the Kineto dialect: one function
 * per class, each writing every event of its array in the model's order (so that a reader that
 * sorts stably rebuilds the same arrays). */
#ifndef GS_EXPORT_CHROME_EVENTS_H
#define GS_EXPORT_CHROME_EVENTS_H

#include "export/chrome_write.h"

void chrome_write_ranges(chrome_ctx *c);
void chrome_write_apis(chrome_ctx *c);
void chrome_write_kernels(chrome_ctx *c);
void chrome_write_memops(chrome_ctx *c);
void chrome_write_syncs(chrome_ctx *c);
void chrome_write_instants(chrome_ctx *c);
void chrome_write_mem_events(chrome_ctx *c);
void chrome_write_counters(chrome_ctx *c);

/* Kineto's category for each range kind; "nvtx" and "other" are gpuscope's own. */
const char *chrome_range_cat(enum gs_range_kind kind);

#endif
