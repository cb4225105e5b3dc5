/* Nsight Compute's CSV export, either page: `ncu --csv --page details` (one row per kernel,
 * section and metric, plus the rows of rule findings) or `ncu --csv --page raw` (one row per
 * kernel, a header of metric names and a row of units), read into a gs_ncu_report (model/ncu.h);
 * doc/FORMAT.md "Nsight Compute CSV" has the columns and metric names it reads. */
#ifndef GS_INGEST_NCU_CSV_H
#define GS_INGEST_NCU_CSV_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "model/ncu.h"

/* Bounds on what one export may hold, so memory stays bounded whatever the input. */
#define GS_NCU_MAX_RECORD (1u << 20) /* bytes of one CSV record */
#define GS_NCU_MAX_FIELDS 8192u
#define GS_NCU_MAX_KERNELS 100000u
#define GS_NCU_MAX_RULES 1000000u
#define GS_NCU_MAX_STRINGS ((size_t)64 << 20) /* bytes of names and rule texts */

/* Reads a file (or gzip of one). 0, or -1 with err naming the file and line (GS_EXIT_INPUT). */
int gs_ncu_read(const char *path, gs_ncu_report *out, gs_error *err);
int gs_ncu_read_buffer(const char *data, size_t size, const char *name, gs_ncu_report *out,
                       gs_error *err);

#endif
