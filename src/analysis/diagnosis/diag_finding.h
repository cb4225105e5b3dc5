/* How a diagnosis rule fills its finding: named inputs and thresholds, the evidence and the
 * reason in words, the share of the step and the time at stake. Shared by the rules
 * (diagnose.c); private to this folder. */
#ifndef GS_DIAG_FINDING_H
#define GS_DIAG_FINDING_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "analysis/diagnosis/diagnose.h"

static inline void add_input(gs_finding *f, const char *name, double value, enum gs_unit unit)
{
    if (f->ninputs < GS_RULE_MAX_VALUES)
        f->inputs[f->ninputs++] = (gs_rule_value){name, value, (uint8_t)unit};
}

static inline void add_threshold(gs_finding *f, const char *name, double value, enum gs_unit unit)
{
    if (f->nthresholds < GS_RULE_MAX_VALUES)
        f->thresholds[f->nthresholds++] = (gs_rule_value){name, value, (uint8_t)unit};
}

static inline void say(char *buf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline void say(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
}

#define EVIDENCE(f, ...) say((f)->evidence, sizeof (f)->evidence, __VA_ARGS__)
#define WHY(f, ...) say((f)->why, sizeof (f)->why, __VA_ARGS__)

static inline double share(const gs_diag_inputs *in, gs_ns ns)
{
    return in->step_ns > 0 ? (double)ns / (double)in->step_ns : 0.0;
}

/* Time at stake per step, and the speed-up if it all went away. */
static inline void set_stake(const gs_diag_inputs *in, gs_finding *f, gs_ns ns, bool time_bound)
{
    f->at_stake_ns = ns > 0 ? ns : 0;
    f->at_stake_share = share(in, f->at_stake_ns);
    f->speedup_bound = time_bound && f->at_stake_ns < in->step_ns
                           ? (double)in->step_ns / (double)(in->step_ns - f->at_stake_ns)
                           : 0.0;
}

static inline double ms(gs_ns ns)
{
    return (double)ns / 1e6;
}

#endif
