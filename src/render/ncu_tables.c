#include "render/ncu_tables.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/json_write.h"
#include "common/util.h"
#include "render/json.h"

enum ncu_col {
    NCU_COL_ID, NCU_COL_COMPUTE, NCU_COL_MEMORY, NCU_COL_ACHIEVED, NCU_COL_THEORETICAL,
    NCU_COL_LIMITER, NCU_COL_INTENSITY, NCU_COL_BOUND, NCU_COL_EST_FLOPS, NCU_COL_FLOPS,
    NCU_COL_FLOPS_RATIO, NCU_COL_EST_BYTES, NCU_COL_BYTES, NCU_COL_BYTES_RATIO,
    NCU_COL_BYTES_FROM, NCU_COL_SHAPES, NCU_COL_CLASS, NCU_COL_SASS_FLOPS, NCU_COL_TENSOR_FLOPS,
    NCU_COL_DURATION, NCU_COL_INSTANCES,
    NCU_COL_TOTAL, NCU_COL_FINDING, NCU_COL_SPEEDUP, NCU_COL_MATCH, NCU_COL_GRID, NCU_COL_BLOCK,
    NCU_COL_NAME, NCU_COL_TRACE_NAME, NCU_NCOLS
};

static const gs_column ncu_columns[] = {
    [NCU_COL_ID] = {"id", "id", "ID", "ID", GS_COL_COUNT, 0, "ncu's ID of the profiled launch"},
    [NCU_COL_COMPUTE] = {"compute_pct", "compute", "Compute (%)", "Compute Throughput (%)",
                         GS_COL_PCT, 0, "Compute (SM) Throughput, % of peak, as ncu wrote it"},
    [NCU_COL_MEMORY] = {"memory_pct", "memory", "Memory (%)", "Memory Throughput (%)", GS_COL_PCT,
                        0, "Memory Throughput, % of peak, as ncu wrote it"},
    [NCU_COL_ACHIEVED] = {"achieved_occupancy_pct", "occupancy", "Occupancy (%)",
                          "Achieved Occupancy (%)", GS_COL_PCT, 0,
                          "achieved and theoretical occupancy"},
    [NCU_COL_THEORETICAL] = {"theoretical_occupancy_pct", "theoretical", "Theoretical (%)",
                             "Theoretical Occupancy (%)", GS_COL_PCT, 0, ""},
    [NCU_COL_LIMITER] = {"occupancy_limiter", "limiter", "Limiter", "Occupancy Limiter",
                         GS_COL_TEXT, 0,
                         "the resource allowing the fewest blocks per SM: registers,\n"
                         "shared memory, warps, barriers or blocks per SM"},
    [NCU_COL_INTENSITY] = {"flop_per_byte", "intensity", "FLOP/B", "FP32 FLOP per DRAM Byte",
                           GS_COL_FLOAT, 0,
                           "FP32 FLOP per DRAM byte (raw page's roofline metrics)"},
    [NCU_COL_BOUND] = {"roofline", "roofline", "Roofline", "Roofline", GS_COL_TEXT, 0,
                       "compute or memory: FLOP/B above or below the ridge point"},
    [NCU_COL_EST_FLOPS] = {"est_flops", "est_flops", "Est. FLOPs", "Estimated FLOPs",
                           GS_COL_COUNT, 0,
                           "gpuscope's estimate from the operator that launched the\n"
                           "trace's kernels of that launch, when that kernel is its\n"
                           "only or main one (doc/roofline.md)"},
    [NCU_COL_FLOPS] = {"ncu_flops", "ncu_flops", "ncu FLOPs", "Measured FLOPs", GS_COL_COUNT, 0,
                       "ncu's: SASS FP32/FP64/FP16 counts plus Tensor Core work\n"
                       "derived from the tensor pipe's activity (raw page)"},
    [NCU_COL_FLOPS_RATIO] = {"flops_ratio", "flops_ratio", "FLOP ratio", "Measured/Estimated FLOPs",
                             GS_COL_FLOAT, 0, "ncu FLOPs / Est. FLOPs"},
    [NCU_COL_EST_BYTES] = {"est_bytes", "est_bytes", "Est. bytes", "Estimated Bytes (bytes)",
                           GS_COL_BYTES, 0, "the estimate's minimum traffic"},
    [NCU_COL_BYTES] = {"dram_bytes", "dram_bytes", "DRAM bytes", "Measured DRAM Bytes (bytes)",
                       GS_COL_BYTES, 0,
                       "ncu's DRAM bytes read and written (from the counters,\n"
                       "else DRAM or memory throughput x duration: Bytes from)"},
    [NCU_COL_BYTES_RATIO] = {"bytes_ratio", "bytes_ratio", "Byte ratio", "Measured/Estimated Bytes",
                             GS_COL_FLOAT, 0, "DRAM bytes / Est. bytes"},
    [NCU_COL_BYTES_FROM] = {"dram_bytes_from", "bytes_from", "Bytes from", "DRAM Bytes From",
                            GS_COL_TEXT, GS_COL_NARROW_DROP,
                            "dram counters, dram rate or memory throughput"},
    [NCU_COL_SHAPES] = {"est_shapes", "shapes", "Shapes", "Estimated Shapes", GS_COL_COUNT,
                        GS_COL_NARROW_DROP,
                        "distinct costs among the trace's kernels of that launch;\n"
                        "the estimate is the one whose mean time is nearest ncu's"},
    [NCU_COL_CLASS] = {"est_class", "est_class", "Class", "Estimated Class", GS_COL_TEXT,
                       GS_COL_JSON_ONLY},
    [NCU_COL_SASS_FLOPS] = {"ncu_sass_flops", "sass_flops", "SASS FLOPs", "Measured SASS FLOPs",
                            GS_COL_COUNT, GS_COL_JSON_ONLY},
    [NCU_COL_TENSOR_FLOPS] = {"ncu_tensor_flops", "tensor_flops", "Tensor FLOPs",
                              "Measured Tensor FLOPs", GS_COL_COUNT, GS_COL_JSON_ONLY},
    [NCU_COL_DURATION] = {"duration_ns", "duration", "Duration", "Duration (ns)", GS_COL_NS, 0,
                          "ncu's duration of the profiled launch"},
    [NCU_COL_INSTANCES] = {"instances", "instances", "Instances", "Instances", GS_COL_COUNT, 0,
                           "the joined kernels of the trace (same function, grid\n"
                           "and block)"},
    [NCU_COL_TOTAL] = {"total_ns", "total", "Total", "Total Time (ns)", GS_COL_NS, 0, ""},
    [NCU_COL_FINDING] = {"top_finding", "finding", "Top finding", "Top Finding", GS_COL_TEXT, 0,
                         "ncu's rule with the largest estimated speedup"},
    [NCU_COL_SPEEDUP] = {"top_speedup_pct", "speedup", "Speedup (%)", "Estimated Speedup (%)",
                         GS_COL_PCT, 0, ""},
    [NCU_COL_MATCH] = {"match", "match", "Match", "Match", GS_COL_TEXT, 0,
                       "name, function (same function spelt differently) or\n"
                       "unmatched (no trace kernel of that function and launch)"},
    [NCU_COL_GRID] = {"grid", "grid", "GridXYZ", "GridXYZ", GS_COL_XYZ, 0,
                      "the launch and ncu's kernel name"},
    [NCU_COL_BLOCK] = {"block", "block", "BlockXYZ", "BlockXYZ", GS_COL_XYZ, 0, ""},
    [NCU_COL_NAME] = {"name", "name", "Name", "Name", GS_COL_TEXT, 0, ""},
    [NCU_COL_TRACE_NAME] = {"trace_name", "trace_name", "Trace name", "Trace Name", GS_COL_TEXT,
                            GS_COL_JSON_ONLY},
};
_Static_assert(COUNT_OF(ncu_columns) == NCU_NCOLS, "one column per enum ncu_col");

const gs_column *gs_ncu_columns(size_t *ncols)
{
    *ncols = COUNT_OF(ncu_columns);
    return ncu_columns;
}

static const char *match_name(enum gs_ncu_match m)
{
    switch (m) {
    case GS_NCU_MATCH_NAME: return "name";
    case GS_NCU_MATCH_FUNCTION: return "function";
    case GS_NCU_UNMATCHED: break;
    }
    return "unmatched";
}

/* A count or byte cell of a value that may be unknown (NaN) or not estimated (0 or less). */
static int64_t known_count(double v)
{
    return v >= 0 && v < 9e18 ? (int64_t)(v + 0.5) : GS_CELL_UNKNOWN;
}

static void estimate_cells(const gs_ncu_row *r, gs_cell *c)
{
    bool est = r->estimate.cls != GS_OPC_NONE;
    c[NCU_COL_EST_FLOPS].i = est ? known_count(r->estimate.flops) : gs_cell_known(0, false);
    c[NCU_COL_EST_BYTES].i = est && r->estimate.bytes > 0 ? known_count(r->estimate.bytes)
                                                          : gs_cell_known(0, false);
    c[NCU_COL_FLOPS].i = known_count(r->measured.flops);
    c[NCU_COL_BYTES].i = known_count(r->measured.dram_bytes);
    c[NCU_COL_FLOPS_RATIO].f = r->flops_ratio;
    c[NCU_COL_BYTES_RATIO].f = r->bytes_ratio;
    c[NCU_COL_BYTES_FROM].text = gs_ncu_bytes_from_name(r->measured.bytes_from);
    c[NCU_COL_SHAPES].i = gs_cell_known(r->shapes, r->trace != NULL);
    c[NCU_COL_CLASS].text = est ? gs_op_class_name(r->estimate.cls) : NULL;
    c[NCU_COL_SASS_FLOPS].i = known_count(r->measured.sass_flops);
    c[NCU_COL_TENSOR_FLOPS].i = known_count(r->measured.tensor_flops);
}

int gs_ncu_table(const gs_ncu_join *j, gs_table *out)
{
    gs_table_init(out, ncu_columns, COUNT_OF(ncu_columns), "no kernels in the Nsight Compute export");
    for (size_t i = 0; i < j->nrows; i++) {
        const gs_ncu_row *r = &j->rows[i];
        const double *m = r->k->metric;
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        c[NCU_COL_ID].i = r->k->id;
        c[NCU_COL_COMPUTE].f = m[GS_NCU_COMPUTE_PCT];
        c[NCU_COL_MEMORY].f = m[GS_NCU_MEMORY_PCT];
        c[NCU_COL_ACHIEVED].f = m[GS_NCU_ACHIEVED_OCC_PCT];
        c[NCU_COL_THEORETICAL].f = m[GS_NCU_THEORETICAL_OCC_PCT];
        c[NCU_COL_LIMITER].text = r->limiter;
        c[NCU_COL_INTENSITY].f = r->intensity;
        c[NCU_COL_BOUND].text = r->bound;
        estimate_cells(r, c);
        double d = m[GS_NCU_DURATION_NS];
        c[NCU_COL_DURATION].i = gs_cell_known((int64_t)(d + 0.5), d == d && d >= 0 && d < 9e18);
        c[NCU_COL_INSTANCES].i = gs_cell_known(r->trace ? (int64_t)r->trace->time.count : 0, r->trace);
        c[NCU_COL_TOTAL].i = gs_cell_known(r->trace ? r->trace->time.total : 0, r->trace);
        c[NCU_COL_FINDING].text = r->top_rule ? gs_ncu_str(j->ncu, r->top_rule->name) : NULL;
        c[NCU_COL_SPEEDUP].f = r->top_rule ? r->top_rule->speedup_pct : (double)NAN;
        c[NCU_COL_MATCH].text = match_name(r->match);
        memcpy(c[NCU_COL_GRID].xyz, r->k->grid, sizeof r->k->grid);
        memcpy(c[NCU_COL_BLOCK].xyz, r->k->block, sizeof r->k->block);
        c[NCU_COL_NAME].text = r->name;
        c[NCU_COL_TRACE_NAME].text = r->trace ? r->trace->name : NULL;
    }
    return 0;
}

enum finding_col {
    FINDING_COL_ID, FINDING_COL_SPEEDUP, FINDING_COL_SPEEDUP_TYPE, FINDING_COL_TYPE,
    FINDING_COL_SECTION, FINDING_COL_RULE, FINDING_COL_TEXT, FINDING_COL_KERNEL, FINDING_NCOLS
};

static const gs_column finding_columns[] = {
    [FINDING_COL_ID] = {"id", "id", "ID", "ID", GS_COL_COUNT, 0},
    [FINDING_COL_SPEEDUP] = {"speedup_pct", "speedup", "Speedup (%)", "Estimated Speedup (%)", GS_COL_PCT, 0},
    [FINDING_COL_SPEEDUP_TYPE] = {"speedup_type", "speedup_type", "Of", "Estimated Speedup Type", GS_COL_TEXT, 0},
    [FINDING_COL_TYPE] = {"type", "type", "Type", "Rule Type", GS_COL_TEXT, 0},
    [FINDING_COL_SECTION] = {"section", "section", "Section", "Section Name", GS_COL_TEXT, 0},
    [FINDING_COL_RULE] = {"rule", "rule", "Rule", "Rule Name", GS_COL_TEXT, 0},
    [FINDING_COL_TEXT] = {"description", "description", "Description", "Rule Description", GS_COL_TEXT, 0},
    [FINDING_COL_KERNEL] = {"name", "name", "Name", "Name", GS_COL_TEXT, GS_COL_JSON_ONLY},
};
_Static_assert(COUNT_OF(finding_columns) == FINDING_NCOLS, "one column per enum finding_col");

int gs_ncu_findings_table(const gs_ncu_join *j, gs_table *out)
{
    gs_table_init(out, finding_columns, COUNT_OF(finding_columns), "no rule findings in the export");
    const gs_ncu_report *ncu = j->ncu;
    for (size_t i = 0; i < ncu->rules.n; i++) {
        const gs_ncu_rule *rule = &ncu->rules.v[i];
        const gs_ncu_kernel *k = &ncu->kernels.v[rule->kernel];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        c[FINDING_COL_ID].i = k->id;
        c[FINDING_COL_SPEEDUP].f = rule->speedup_pct;
        const char *of = gs_ncu_str(ncu, rule->speedup_type);
        c[FINDING_COL_SPEEDUP_TYPE].text = *of ? of : NULL;
        c[FINDING_COL_TYPE].text = gs_ncu_str(ncu, rule->type);
        c[FINDING_COL_SECTION].text = gs_ncu_str(ncu, rule->section);
        c[FINDING_COL_RULE].text = gs_ncu_str(ncu, rule->name);
        c[FINDING_COL_TEXT].text = gs_ncu_str(ncu, rule->description);
        c[FINDING_COL_KERNEL].text = gs_ncu_str(ncu, k->name);
    }
    return 0;
}

int gs_render_ncu(FILE *out, const gs_ncu_join *j, enum gs_format format,
                  const gs_text_style *style, size_t limit, int sort_col, bool blank_first)
{
    gs_table kernels, findings;
    int rc = gs_ncu_table(j, &kernels);
    gs_table_init(&findings, finding_columns, COUNT_OF(finding_columns), NULL);
    if (rc == 0)
        rc = gs_ncu_findings_table(j, &findings);
    if (rc == 0 && sort_col >= 0)
        rc = gs_table_sort(&kernels, (size_t)sort_col);
    if (rc == 0) {
        char title[160];
        snprintf(title, sizeof title,
                 "Nsight Compute: %zu kernels, %zu joined with the trace's, %zu unmatched",
                 j->nrows, j->matched, j->nrows - j->matched);
        gs_section sections[] = {
            {"ncu_kernels", title, &kernels, false, 0},
            {"ncu_findings", "Nsight Compute rule findings", &findings, true, 0},
        };
        gs_json_writer w;
        gs_json_writer_init(&w, out);
        if (format == GS_FORMAT_JSON) {
            gs_json_begin_object(&w, NULL, GS_JSON_BLOCK);
            gs_json_put_str(&w, "command", "kernels");
            gs_json_put_str(&w, "ncu", j->ncu->path);
            gs_json_put_uint(&w, "matched", j->matched);
            gs_json_put_uint(&w, "unmatched", j->nrows - j->matched);
        }
        rc = gs_render_sections(out, &w, sections, COUNT_OF(sections), format, style, limit,
                                blank_first);
        if (format == GS_FORMAT_JSON)
            gs_json_end(&w);
    }
    gs_table_free(&kernels);
    gs_table_free(&findings);
    return rc;
}
