/* `gpuscope run --steps W,WU,A[,R]`: torch.profiler's schedule (wait, warmup, active, repeat),
 * counted on step ranges. One parser for the launcher, which refuses a bad value before the
 * program starts, and for the agent, which reads it back from GPUSCOPE_CAPTURE. */
#ifndef GS_COMMON_STEP_SCHEDULE_H
#define GS_COMMON_STEP_SCHEDULE_H

/* The largest W, WU, A or R: a bound that keeps W + WU + A within an unsigned. */
#define GS_STEP_SCHEDULE_MAX 1000000u

typedef struct gs_step_schedule {
    unsigned wait, warmup, active; /* skip `wait` steps, warm up `warmup`, keep `active` */
    unsigned repeat;               /* cycles; 0 = for ever; 1 when not given */
} gs_step_schedule;

/* Three or four whole numbers (digits only, no sign or space) up to GS_STEP_SCHEDULE_MAX,
 * separated by single commas, with A >= 1. 0 and *out filled, or -1 and *out untouched. */
int gs_step_schedule_parse(const char *text, gs_step_schedule *out);

#endif
