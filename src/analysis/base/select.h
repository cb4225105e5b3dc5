/* Which traces of a profile an analysis looks at: all of them, or those of one rank (--rank). */
#ifndef GS_ANALYSIS_SELECT_H
#define GS_ANALYSIS_SELECT_H

#include <stdbool.h>
#include <stdint.h>

#include "model/trace.h"

typedef struct gs_select {
    bool by_rank;
    int32_t rank;
} gs_select;

/* A NULL selection keeps every trace. */
static inline bool gs_selected(const gs_select *sel, const gs_trace *t)
{
    return !sel || !sel->by_rank || t->rank == sel->rank;
}

#endif
