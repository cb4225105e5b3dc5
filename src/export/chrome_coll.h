/* A collective's arguments (gs_coll_args: "Collective name", "In msg nelems", "dtype", ...) put
 * back on the event PyTorch wrote them on: an operator's by its External id, a kernel's by its
 * correlation id, the keys the reader and the comm analysis join them by. Without them the export
 * read back would know what each collective is but not how much it moved. */
#ifndef GS_EXPORT_CHROME_COLL_H
#define GS_EXPORT_CHROME_COLL_H

#include "export/chrome_write.h"

/* The trace's args ordered by (where, key), in c->coll; 0, or -1 out of memory. */
int chrome_coll_index(chrome_ctx *c);
void chrome_coll_index_free(chrome_ctx *c);

/* The args of the event `on` with this key (External id or correlation, as the trace has it),
 * when the trace has some, as arguments of the open event. */
void chrome_write_coll_args(chrome_ctx *c, enum gs_coll_args_on on, int64_t key);

#endif
