/* Fuzz target for the streaming JSON scanner: any bytes, every token, skips and conversions. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ingest/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gs_error err;
    gs_source *src = gs_source_memory((const char *)data, size, "fuzz", &err);
    gs_json j;
    if (!src || gs_json_init(&j, src, &err) != 0) {
        gs_source_close(src);
        return 0;
    }
    char *out = NULL;
    /* Alternate between walking every token and skipping values, driven by the input. */
    for (size_t n = 0;; n++) {
        enum gs_json_tok tok = gs_json_next(&j);
        if (tok == GS_JSON_END || tok == GS_JSON_ERROR)
            break;
        if ((tok == GS_JSON_OBJECT || tok == GS_JSON_ARRAY) && (n + size) % 3 == 0 &&
            gs_json_skip(&j) != 0)
            break;
        int64_t i;
        double d;
        if (tok == GS_JSON_NUMBER) {
            gs_json_scaled(&j, 3, &i);
            gs_json_double(&j, &d);
        }
        if (tok == GS_JSON_STRING || tok == GS_JSON_KEY) {
            char *grown = realloc(out, j.tok_len + 1);
            if (!grown)
                break;
            out = grown;
            if (gs_json_decode(&j, out) > j.tok_len)
                abort(); /* decoding never grows a string */
        }
    }
    free(out);
    gs_json_free(&j);
    gs_source_close(src);
    return 0;
}
