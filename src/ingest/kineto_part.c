#include "ingest/kineto_part.h"

#include <inttypes.h>

#include "ingest/rank_parts.h"

static int count_entries(gs_json *j, uint32_t *n)
{
    if (gs_json_next(j) != GS_JSON_ARRAY)
        return gs_json_fail(j, "gpuscopeRanks is not an array");
    *n = 0;
    for (;;) {
        enum gs_json_tok tok = gs_json_next(j);
        if (tok == GS_JSON_ARRAY_END)
            break;
        if (tok == GS_JSON_ERROR)
            return -1;
        if (tok != GS_JSON_OBJECT)
            return gs_json_fail(j, "gpuscopeRanks holds something other than objects");
        if (*n == GS_PARTS_MAX)
            return gs_json_fail(j, "gpuscopeRanks holds more than %d ranks (each is one read of "
                                   "the whole file)", GS_PARTS_MAX);
        if (gs_json_skip(j) != 0)
            return -1;
        ++*n;
    }
    return *n ? 0 : gs_json_fail(j, "gpuscopeRanks is empty");
}

int kineto_count_parts(gs_json *j, uint32_t *n)
{
    *n = 0;
    for (;;) {
        /* Anything but a key (the end of the object, a syntax error) leaves the file to the
         * reader, which says what is wrong with it as it always has. */
        if (gs_json_next(j) != GS_JSON_KEY || gs_json_tok_is(j, "traceEvents"))
            return 0;
        if (gs_json_tok_is(j, "gpuscopeRanks"))
            return count_entries(j, n);
        if (gs_json_next(j) == GS_JSON_ERROR || gs_json_skip(j) != 0)
            return 0;
    }
}

/* Within +-GS_TIME_MAX, so that their difference, and an event's time less it, fit in 64 bits. */
static bool time_fits(gs_ns t)
{
    return t >= -GS_TIME_MAX && t <= GS_TIME_MAX;
}

int kpart_start(gs_json *j, kpart *p)
{
    if (!p->found)
        return gs_json_fail(j, "traceEvents before gpuscopeRanks, or no entry %" PRIu32
                               " in it: the file changed while it was read?", p->index);
    if (!time_fits(p->base) || !time_fits(p->file_base) ||
        !time_fits(p->base - p->file_base))
        return gs_json_fail(j, "baseTimeNanoseconds of gpuscopeRanks entry %" PRIu32
                               " is out of range (more than 146 years from the file's)",
                            p->index);
    p->shift = p->base - p->file_base;
    return 0;
}

bool kpart_take(const kpart *p, kevent *ev)
{
    if (ev->pid_is_text || ev->pid < GS_PART_PID_STRIDE ||
        ev->pid / GS_PART_PID_STRIDE - 1 != (int64_t)p->index)
        return false;
    int64_t local = ev->pid % GS_PART_PID_STRIDE;
    ev->pid = local >= GS_PART_GPU_OFFSET ? local - GS_PART_GPU_OFFSET : local;
    /* In unsigned arithmetic, the inverse of the writer's: exact for every id it moved. */
    uint64_t id_base = gs_part_id_base(p->index);
    if (ev->correlation)
        ev->correlation = (int64_t)((uint64_t)ev->correlation - id_base);
    if (ev->external_id > 0)
        ev->external_id = (int64_t)((uint64_t)ev->external_id - id_base);
    /* A time beyond the bounds stays as it is, for the reader to count as out of range. */
    if ((ev->have & KARG_TS) && time_fits(ev->ts))
        ev->ts -= p->shift;
    return true;
}
