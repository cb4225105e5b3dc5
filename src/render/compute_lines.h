/* The report's compute lines (doc/flops.md): model FLOPs per step, achieved TFLOP/s and MFU with
 * the peak used, and Tensor Core use; as text and as a JSON object. */
#ifndef GS_RENDER_COMPUTE_LINES_H
#define GS_RENDER_COMPUTE_LINES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/trace/compute.h"
#include "common/json_write.h"

/* Whether a rank's compute facts are worth lines of text: it counted FLOPs, or ran Tensor Core
 * kernels or eligible operators. */
bool gs_compute_worth_text(const gs_compute *c);

void gs_render_compute_text(FILE *out, int32_t rank, const gs_compute *c);

/* The member "compute": {"flops_per_step": ..., "mfu": ..., ...}; unknown numbers as null. */
void gs_render_compute_json(gs_json_writer *w, const gs_compute *c);

/* "3.07 T", "512.0 G": FLOPs (or FLOP/s with the unit after) with an SI prefix. */
void gs_fmt_flops(char *buf, size_t size, double flops);

#endif
