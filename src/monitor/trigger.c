#include "monitor/trigger.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "probe/nvml.h"

/* ---- the metrics: what a condition can watch ---- */

static bool step_time_ms(const gs_snapshot *s, double *v)
{
    *v = (double)s->steps.step_ns / 1e6;
    return s->steps.step_ns > 0;
}

/* The busiest GPU: a job stalls when one of its GPUs does. */
static bool gpu_util(const gs_snapshot *s, double *v)
{
    bool known = false;
    for (size_t i = 0; i < s->ngpus; i++)
        if (s->gpus[i].avail[GS_NVML_UTIL_GPU] == GS_NVML_OK &&
            (!known || s->gpus[i].value[GS_NVML_UTIL_GPU] > *v)) {
            *v = s->gpus[i].value[GS_NVML_UTIL_GPU];
            known = true;
        }
    return known;
}

/* The fullest GPU's memory, in % of its total. */
static bool mem_used(const gs_snapshot *s, double *v)
{
    bool known = false;
    for (size_t i = 0; i < s->ngpus; i++) {
        const gs_mon_gpu *g = &s->gpus[i];
        if (g->avail[GS_NVML_MEM_USED] != GS_NVML_OK || g->avail[GS_NVML_MEM_TOTAL] != GS_NVML_OK ||
            g->value[GS_NVML_MEM_TOTAL] <= 0)
            continue;
        double pct = 100.0 * g->value[GS_NVML_MEM_USED] / g->value[GS_NVML_MEM_TOTAL];
        if (!known || pct > *v)
            *v = pct;
        known = true;
    }
    return known;
}

/* The fullest GPU's memory in GiB: against a size (`mem_used>70GiB`) rather than a share. */
static bool mem_used_gib(const gs_snapshot *s, double *v)
{
    bool known = false;
    for (size_t i = 0; i < s->ngpus; i++) {
        const gs_mon_gpu *g = &s->gpus[i];
        if (g->avail[GS_NVML_MEM_USED] != GS_NVML_OK)
            continue;
        double gib = g->value[GS_NVML_MEM_USED] / (double)(1ull << 30);
        if (!known || gib > *v)
            *v = gib;
        known = true;
    }
    return known;
}

typedef struct unit {
    const char *name;
    double scale; /* to the metric's unit */
} unit;

static const unit time_units[] = {{"ms", 1}, {"s", 1000}, {"us", 1e-3}, {"", 1}};
static const unit pct_units[] = {{"%", 1}, {"", 1}};
static const unit byte_units[] = {
    {"B", 1.0 / (1ull << 30)}, {"KiB", 1.0 / (1 << 20)}, {"MiB", 1.0 / (1 << 10)}, {"GiB", 1},
    {"TiB", 1 << 10},          {"kB", 1e3 / (1ull << 30)}, {"MB", 1e6 / (1ull << 30)},
    {"GB", 1e9 / (1ull << 30)}, {"TB", 1e12 / (1ull << 30)}};

/* A name may have several rows, one per kind of unit: the value's unit picks the row
 * (`mem_used>95` is a share, `mem_used>70GiB` a size); K*baseline takes the first. */
static const struct metric {
    const char *name, *unit;
    bool (*get)(const gs_snapshot *s, double *v);
    const unit *units;
    size_t nunits;
} metrics[] = {
    {"step_time", "ms", step_time_ms, time_units, COUNT_OF(time_units)},
    {"gpu_util", "%", gpu_util, pct_units, COUNT_OF(pct_units)},
    {"mem_used", "%", mem_used, pct_units, COUNT_OF(pct_units)},
    {"mem_used", "GiB", mem_used_gib, byte_units, COUNT_OF(byte_units)},
};

static bool at_least(double v, double t) { return v >= t; }
static bool at_most(double v, double t) { return v <= t; }
static bool above(double v, double t) { return v > t; }
static bool below(double v, double t) { return v < t; }

/* Longest first: ">=" before ">". */
static const struct op {
    const char *text;
    bool (*test)(double v, double threshold);
} ops[] = {
    {">=", at_least}, {"<=", at_most}, {">", above}, {"<", below},
};

static const unit duration_units[] = {{"ms", 1}, {"s", 1000}, {"m", 60000}, {"h", 3600000}};

/* ---- parsing ---- */

static const char *skip_space(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* A number followed by one of `units` (matched whole, up to a space, '*' or the end). */
static const char *number_with_unit(const char *p, const unit *units, size_t n, double *out)
{
    char *end;
    double v = strtod(p, &end);
    if (end == p || !isfinite(v) || v < 0)
        return NULL;
    size_t len = strcspn(end, " \t*");
    for (size_t i = 0; i < n; i++)
        if (strlen(units[i].name) == len && strncmp(end, units[i].name, len) == 0) {
            *out = v * units[i].scale;
            return end + len;
        }
    return NULL;
}

static int fail(char *err, size_t errlen, const char *text, const char *why)
{
    snprintf(err, errlen,
             "--trigger '%s': %s (write METRIC OP VALUE [for DURATION]: METRIC step_time, "
             "gpu_util or mem_used; OP >, <, >= or <=; VALUE a number with its unit (ms, s, us; "
             "%%; B, KiB, MiB, GiB, TiB, kB, MB, GB, TB), or "
             "K*baseline; DURATION with s, m or h, e.g. 'step_time>1.2*baseline for 20s')",
             text, why);
    return -1;
}

int gs_trigger_parse(const char *text, gs_trigger *t, char *err, size_t errlen)
{
    *t = (gs_trigger){.holding_since_ms = -1, .metric = -1, .op = -1};
    if (snprintf(t->text, sizeof t->text, "%s", text) >= (int)sizeof t->text)
        return fail(err, errlen, "...", "longer than 159 bytes");
    const char *p = skip_space(text);
    for (size_t i = 0; i < COUNT_OF(metrics) && t->metric < 0; i++)
        if (strncmp(p, metrics[i].name, strlen(metrics[i].name)) == 0) {
            t->metric = (int)i;
            p += strlen(metrics[i].name);
        }
    if (t->metric < 0)
        return fail(err, errlen, text, "no metric");
    p = skip_space(p);
    for (size_t i = 0; i < COUNT_OF(ops) && t->op < 0; i++)
        if (strncmp(p, ops[i].text, strlen(ops[i].text)) == 0) {
            t->op = (int)i;
            p += strlen(ops[i].text);
        }
    if (t->op < 0)
        return fail(err, errlen, text, "no comparison");
    p = skip_space(p);
    char *end;
    double k = strtod(p, &end);
    if (end != p && strncmp(skip_space(end), "*", 1) == 0 &&
        strncmp(skip_space(skip_space(end) + 1), "baseline", 8) == 0) {
        if (!isfinite(k) || k <= 0)
            return fail(err, errlen, text, "the factor of baseline must be above 0");
        t->relative = true;
        t->value = k;
        p = skip_space(skip_space(end) + 1) + 8;
    } else {
        const char *value = p;
        p = NULL;
        for (size_t i = (size_t)t->metric; !p && i < COUNT_OF(metrics) &&
                                            strcmp(metrics[i].name, metrics[t->metric].name) == 0;
             i++)
            if ((p = number_with_unit(value, metrics[i].units, metrics[i].nunits, &t->value)))
                t->metric = (int)i;
        if (!p)
            return fail(err, errlen, text, "no value, or a unit this metric does not take");
    }
    p = skip_space(p);
    if (strncmp(p, "for", 3) == 0 && (p[3] == ' ' || p[3] == '\t')) {
        double ms;
        p = number_with_unit(skip_space(p + 3), duration_units, COUNT_OF(duration_units), &ms);
        if (!p || ms > 1e10)
            return fail(err, errlen, text, "a duration needs ms, s, m or h");
        t->for_ms = (int64_t)ms;
        p = skip_space(p);
    }
    if (*p)
        return fail(err, errlen, text, "unexpected text at the end");
    return 0;
}

bool gs_trigger_needs_steps(const gs_trigger *t)
{
    return metrics[t->metric].get == step_time_ms;
}

const char *gs_trigger_unit(const gs_trigger *t)
{
    return metrics[t->metric].unit;
}

/* ---- evaluation ---- */

/* The k-th smallest of v[0..n) (reordered): quickselect, linear on average, so that a replayed
 * log pays no sort per sample. */
static double select_kth(double *v, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        double a = v[lo], b = v[lo + (hi - lo) / 2], c = v[hi];
        double pivot = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
        size_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            if (i <= j) {
                double x = v[i];
                v[i++] = v[j];
                v[j] = x;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return v[k];
    }
    return v[k];
}

/* The median of the samples in [from, to); false with fewer than the minimum. The ring is in the
 * samples' order: walked from the newest, it stops at the first sample before `from`. */
static bool baseline(const gs_trigger *t, int64_t from, int64_t to, double *out)
{
    double v[GS_TRIGGER_HISTORY];
    size_t n = 0;
    for (size_t k = 0; k < t->nhistory; k++) {
        const gs_trigger_sample *h =
            &t->history[(t->next + GS_TRIGGER_HISTORY - 1 - k) % GS_TRIGGER_HISTORY];
        if (h->ts_ms < from)
            break;
        if (h->ts_ms < to)
            v[n++] = h->value;
    }
    if (n < GS_TRIGGER_MIN_BASELINE)
        return false;
    double upper = select_kth(v, n, n / 2);
    if (n % 2) {
        *out = upper;
        return true;
    }
    /* v[0..n/2) now holds the lower half: its largest is the other middle value. */
    double lower = v[0];
    for (size_t i = 1; i < n / 2; i++)
        lower = v[i] > lower ? v[i] : lower;
    *out = (lower + upper) / 2;
    return true;
}

int gs_trigger_feed(gs_trigger *t, const gs_snapshot *s, gs_trigger_eval *out)
{
    *out = (gs_trigger_eval){.since_ms = -1};
    if (!t->history && !(t->history = malloc(GS_TRIGGER_HISTORY * sizeof *t->history)))
        return -1;
    int64_t now = s->ts_ms;
    out->known = metrics[t->metric].get(s, &out->value);
    if (!out->known) {
        t->holding_since_ms = -1;
        return 0;
    }
    bool have_threshold = true;
    if (t->relative) {
        double b;
        have_threshold = baseline(t, now - t->for_ms - GS_TRIGGER_BASELINE_MS, now - t->for_ms, &b);
        out->threshold = have_threshold ? t->value * b : NAN;
    } else {
        out->threshold = t->value;
    }
    t->history[t->next] = (gs_trigger_sample){now, out->value};
    t->next = (t->next + 1) % GS_TRIGGER_HISTORY;
    if (t->nhistory < GS_TRIGGER_HISTORY)
        t->nhistory++;
    out->holds = have_threshold && ops[t->op].test(out->value, out->threshold);
    if (!out->holds) {
        t->holding_since_ms = -1;
        return 0;
    }
    if (t->holding_since_ms < 0)
        t->holding_since_ms = now;
    out->since_ms = t->holding_since_ms;
    out->fired = now - t->holding_since_ms >= t->for_ms;
    return 0;
}

void gs_trigger_rearm(gs_trigger *t)
{
    t->holding_since_ms = -1;
}

void gs_trigger_free(gs_trigger *t)
{
    free(t->history);
    t->history = NULL;
}
