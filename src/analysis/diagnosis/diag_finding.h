/* How a diagnosis rule fills its finding: named inputs and thresholds, the evidence and the
 * reason in words, the share of the step and the time at stake. Shared by the rules
 * (diagnose.c, diag_memory.c); private to this folder. */
#ifndef GS_DIAG_FINDING_H
#define GS_DIAG_FINDING_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>

#include "analysis/diagnosis/diagnose.h"
#include "common/strbuf.h"

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

/* Hands what b holds to *text (owned by the finding), b left empty. NULL when b failed (out of
 * memory): every rule says its evidence and why on every path, so gs_diagnose reads a NULL text
 * after a rule as out of memory. */
static inline void keep_text(char **text, gs_strbuf *b)
{
    free(*text);
    *text = gs_strbuf_steal(b);
}

/* A text said in one go. */
static inline void say(char **text, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void say(char **text, const char *fmt, ...)
{
    gs_strbuf b;
    gs_strbuf_init(&b);
    va_list ap;
    va_start(ap, fmt);
    gs_strbuf_vappendf(&b, fmt, ap);
    va_end(ap);
    keep_text(text, &b);
}

#define EVIDENCE(f, ...) say(&(f)->evidence, __VA_ARGS__)
#define WHY(f, ...) say(&(f)->why, __VA_ARGS__)

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

/* A gain estimated otherwise than by removing the time at stake (the kernel-speed rules). */
static inline void set_gain(const gs_diag_inputs *in, gs_finding *f, gs_ns ns, uint8_t basis)
{
    f->gain_ns = ns > 0 ? ns : 0;
    f->gain_share = share(in, f->gain_ns);
    f->gain_speedup = f->gain_ns > 0 && f->gain_ns < in->step_ns
                          ? (double)in->step_ns / (double)(in->step_ns - f->gain_ns)
                          : 0.0;
    f->gain_basis = f->gain_ns > 0 ? basis : GS_GAIN_NONE;
}

static inline double ms(gs_ns ns)
{
    return (double)ns / 1e6;
}

#endif
