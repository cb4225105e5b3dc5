/* The Prometheus text exposition (format 0.0.4) of a snapshot: dcgm-exporter's metric names and
 * labels where DCGM has the field, gpuscope_* names for the rest (per-process GPU memory, host,
 * the exporter's health). doc/monitor.md lists every family. */
#ifndef GS_MONITOR_PROMETHEUS_H
#define GS_MONITOR_PROMETHEUS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "monitor/snapshot.h"

#define GS_PROM_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

typedef struct gs_prom_health {
    bool up;               /* a sample exists */
    uint64_t scrapes;      /* this one included */
    uint64_t samples;
    uint64_t nvml_errors;
    double sample_age_s;
} gs_prom_health;

/* Writes every family that has a sample, each with its HELP and TYPE lines. s may be NULL
 * (nothing sampled yet): only the health families are written. */
void gs_prom_write(FILE *out, const gs_snapshot *s, const gs_prom_health *h);

/* A label value escaped as the format wants (\\, \", \n), invalid UTF-8 as U+FFFD. */
void gs_prom_label_value(FILE *out, const char *s);

#endif
