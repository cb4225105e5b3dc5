/* Fuzz target for the on-demand control files (src/common/ondemand.c): a request or a status as
 * any bytes, parsed both ways; what parses is written back and must parse to the same fields
 * (the agent reads files that anyone with access to the control folder may have written). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/ondemand.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256], text[GS_OD_TEXT_MAX];
    gs_od_request r, r2;
    if (gs_od_request_parse((const char *)data, size, &r, err, sizeof err) == 0 &&
        gs_od_request_format(&r, text, sizeof text) == 0) {
        if (gs_od_request_parse(text, strlen(text), &r2, err, sizeof err) != 0 || r2.id != r.id ||
            r2.steps != r.steps || strcmp(r2.dir, r.dir) != 0)
            __builtin_trap();
        (void)gs_od_request_targets(&r, "node7", 42);
    }
    gs_od_status s, s2;
    if (gs_od_status_parse((const char *)data, size, &s, err, sizeof err) == 0 &&
        gs_od_status_format(&s, text, sizeof text) == 0 &&
        (gs_od_status_parse(text, strlen(text), &s2, err, sizeof err) != 0 || s2.pid != s.pid ||
         s2.state != s.state))
        __builtin_trap();
    return 0;
}
