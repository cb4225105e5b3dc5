/* What was lost between the program and the model, in words for people and keys for programs. */
#include <inttypes.h>
#include <stdio.h>

#include "model/trace.h"

static const struct {
    const char *why; /* after the count: "2 with a time out of range" */
    const char *key;
} reasons[GS_LOSS__COUNT] = {
    [GS_LOSS_DROPPED] = {"dropped by the collector", "dropped_by_collector"},
    [GS_LOSS_NO_TIME] = {"without a time", "no_time"},
    [GS_LOSS_TIME_RANGE] = {"with a time out of range", "time_out_of_range"},
    [GS_LOSS_NEGATIVE_DURATION] = {"with a negative duration", "negative_duration"},
    [GS_LOSS_SIZE_RANGE] = {"with a size out of range", "size_out_of_range"},
    [GS_LOSS_TORN_CHUNK] = {"in a torn .gst chunk", "torn_chunk"},
    [GS_LOSS_OUTSIDE_WINDOW] = {"outside the steps kept to fit the memory budget",
                                "outside_memory_window"},
    [GS_LOSS_CUT_SHORT] = {NULL, "captures_cut_short"}, /* said apart: gs_loss_note */
};

uint64_t gs_loss_total(const uint64_t lost[GS_LOSS__COUNT])
{
    uint64_t n = 0;
    for (int i = 0; i < GS_LOSS__COUNT; i++)
        if (reasons[i].why)
            n = n + lost[i] >= n ? n + lost[i] : UINT64_MAX;
    return n;
}

const char *gs_loss_key(enum gs_loss why)
{
    return (unsigned)why < GS_LOSS__COUNT ? reasons[why].key : "";
}

const char *gs_loss_note(const uint64_t lost[GS_LOSS__COUNT], char *buf, size_t cap)
{
    if (cap)
        buf[0] = '\0';
    uint64_t total = gs_loss_total(lost), cut = lost[GS_LOSS_CUT_SHORT];
    if ((!total && !cut) || !cap)
        return buf;
    size_t n = 0;
    if (total) {
        n = (size_t)snprintf(buf, cap, "%" PRIu64 " event%s skipped (", total,
                             total == 1 ? "" : "s");
        const char *sep = "";
        for (int i = 0; i < GS_LOSS__COUNT && n < cap; i++) {
            if (!lost[i] || !reasons[i].why)
                continue;
            n += (size_t)snprintf(buf + n, cap - n, "%s%" PRIu64 " %s", sep, lost[i],
                                  reasons[i].why);
            sep = ", ";
        }
        if (n < cap)
            n += (size_t)snprintf(buf + n, cap - n, ")%s", cut ? "; " : "");
    }
    if (cut == 1 && n < cap)
        snprintf(buf + n, cap - n, "the capture was cut short: it has no end marker, so what was "
                                   "recorded last is missing");
    else if (cut && n < cap)
        snprintf(buf + n, cap - n, "%" PRIu64 " captures were cut short: they have no end "
                                   "marker, so what they recorded last is missing", cut);
    return buf;
}
