/* Pairing the kernels (or operators) of two runs and what changed for each: matched by name;
 * then, for kernels, the names left over on both sides by launch shape (grid and block), which
 * finds a kernel that was renamed (a regenerated Triton kernel, a template argument that changed)
 * but launched the same way. A shape pairs two kernels only when exactly one unmatched kernel on
 * each side has it, so a common shape (1x1x1 grids) never pairs strangers, and when they run
 * about as often per step (within a factor of 2). What is left is added
 * (only in NEW) or removed (only in BASE). Times and counts are per kept step. */
#ifndef GS_COMPARE_MATCH_H
#define GS_COMPARE_MATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "compare/activity.h"

enum { GS_SIDE_BASE, GS_SIDE_NEW, GS_SIDES };

enum gs_match { GS_MATCH_NAME, GS_MATCH_SHAPE, GS_MATCH_REMOVED, GS_MATCH_ADDED };

typedef struct gs_delta {
    enum gs_match match;
    const gs_act *act[GS_SIDES]; /* NULL on the side it is absent from */
    double time[GS_SIDES];  /* total per kept step, ns (CPU total for operators) */
    double count[GS_SIDES]; /* instances per kept step */
    double avg[GS_SIDES];   /* mean duration, ns; NaN when absent */
    double cuda[GS_SIDES];  /* operators: CUDA total per kept step, ns */
    double dtime;           /* time[NEW] - time[BASE] */
    double dtime_pct;       /* dtime / time[BASE] x 100; NaN when absent from BASE */
} gs_delta;

typedef struct gs_delta_list {
    gs_delta *v;
    size_t n;
} gs_delta_list;

/* "name", "shape", "removed", "added". */
const char *gs_match_key(enum gs_match m);

/* matched: on both sides, by |dtime| descending, then |change of cuda|, then name; only:
 * removed and added, by the time of the side they are on, descending, then name. steps[] are the
 * kept steps of each side (the divisor). The lists point into the sets. 0, or -1 when memory is
 * exhausted. */
int gs_match_sets(const gs_act_set *set[GS_SIDES], const size_t steps[GS_SIDES], bool by_shape,
                  gs_delta_list *matched, gs_delta_list *only);
void gs_delta_list_free(gs_delta_list *l);

#endif
