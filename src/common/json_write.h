/* A plain JSON writer, below every folder that writes JSON (the views, the report, the exports,
 * the monitor's log and the .gsum summaries). */
#ifndef GS_COMMON_JSON_WRITE_H
#define GS_COMMON_JSON_WRITE_H

#include <stdio.h>

/* A JSON string with every byte made safe: quotes, backslashes and control characters escaped,
 * bytes that are not valid UTF-8 written as \ufffd. NULL is written as null. */
void gs_json_string(FILE *out, const char *s);

/* A number with `decimals` digits after the point; null when it is not finite. */
void gs_json_number(FILE *out, double v, int decimals);

#endif
