/* JSON writing helpers shared by the views and the report. */
#ifndef GS_RENDER_JSON_H
#define GS_RENDER_JSON_H

#include <stdio.h>

#include "render/table.h"

/* A JSON string with every byte made safe: quotes, backslashes and control characters escaped,
 * bytes that are not valid UTF-8 written as \ufffd. NULL is written as null. */
void gs_json_string(FILE *out, const char *s);

/* A number with `decimals` digits after the point; null when it is not finite. */
void gs_json_number(FILE *out, double v, int decimals);

/* The table's rows as a JSON array of objects, one per line, each line starting with `indent`. */
void gs_json_rows(FILE *out, const gs_table *t, const char *indent);

#endif
