/* Fuzz target for the monitor's log reader (src/monitor/replay.c): every line of the input is
 * parsed as `gpuscope monitor --replay` would, and what parses is rendered as the Prometheus
 * exposition, the table and the log line again, so the renderers see whatever the parser
 * accepts (names with quotes, control bytes, invalid UTF-8, extreme numbers). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "monitor/jsonl.h"
#include "monitor/prometheus.h"
#include "monitor/replay.h"
#include "monitor/live_table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *sink = fopen("/dev/null", "w");
    if (!sink)
        return 0;
    const char *p = (const char *)data, *end = p + size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        gs_snapshot s = {0};
        gs_error err;
        if (gs_replay_parse_line(p, len, "fuzz: line 1", &s, &err) == 0) {
            gs_prom_health h = {true, 1, 1, 0, 0.5};
            gs_prom_write(sink, &s, &h);
            gs_live_table_text(sink, &s, NULL);
            gs_live_table_csv(sink, &s, true);
            gs_live_table_json(sink, &s);
            for (size_t i = 0; i < s.ngpus; i++)
                gs_jsonl_line(sink, &s, i);
        }
        gs_snapshot_free(&s);
        p += len + 1;
    }
    fclose(sink);
    return 0;
}
