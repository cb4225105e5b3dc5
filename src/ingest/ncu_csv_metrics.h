/* What the Nsight Compute CSV reader (ncu_csv.c) keeps of each page: the details page's (section,
 * metric) rows and the raw page's metric columns, each with its slot in gs_ncu_kernel, and the
 * units ncu writes values in. doc/FORMAT.md "Nsight Compute CSV" lists them. */
#ifndef GS_INGEST_NCU_CSV_METRICS_H
#define GS_INGEST_NCU_CSV_METRICS_H

#include <stdbool.h>

#include "model/ncu.h"

/* The slot of a details-page row, false when the reader does not keep it. A section given in
 * the table as a prefix matches older ncu versions' "GPU Speed Of Light" as well as "GPU Speed
 * Of Light Throughput". */
bool gs_ncu_details_slot(const char *section, const char *metric, enum gs_ncu_metric *slot);

/* The slot of a raw-page column, false when the reader does not keep it. */
bool gs_ncu_raw_slot(const char *column, enum gs_ncu_metric *slot);

/* What a value written in `unit` is in gpuscope's units: times in ns, sizes in bytes, rates per
 * second, frequencies in Hz; 1 for any other unit (%, inst/cycle, block). */
double gs_ncu_unit_scale(const char *unit);

#endif
