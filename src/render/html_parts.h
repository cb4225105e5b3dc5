/* The building blocks of the HTML report other than charts: result tables, the verdict and the
 * rules (report --explain). All text is escaped (gs_xml_text). */
#ifndef GS_RENDER_HTML_PARTS_H
#define GS_RENDER_HTML_PARTS_H

#include <stdio.h>

#include "analysis/diagnosis/diagnose.h"
#include "render/table.h"

/* A result table with numbers in the units the text report uses; long names are cut by CSS and
 * shown whole on hover. Columns flagged GS_COL_JSON_ONLY are left out, as in the text table. */
void gs_html_table(FILE *out, const gs_table *t);

/* The fired findings in rank order: title, severity, time at stake (with a bar), gain bound,
 * evidence and actions. */
void gs_html_verdict(FILE *out, const gs_diagnosis *d);

/* Every rule: severity, time at stake, inputs and why it fired or not. */
void gs_html_rules(FILE *out, const gs_diagnosis *d);

#endif
