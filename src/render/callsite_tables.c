#include "render/callsite_tables.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "render/json.h"
#include "render/units.h"

/* The numbers every table has, after its leading columns. */
enum stat_col { ST_CALLS, ST_GPU_TOTAL, ST_GPU_PCT, ST_GPU_SELF, ST_LAUNCHES, ST_CPU_TOTAL,
                ST_CPU_SELF, ST_NCOLS };

#define STAT_COLUMNS(o)                                                                            \
    [(o) + ST_CALLS] = {"calls", "calls", "Calls", "Calls", GS_COL_COUNT, 0,                       \
                        "frames (module calls) inside the window"},                                \
    [(o) + ST_GPU_TOTAL] = {"gpu_total_ns", "gpu_total", "GPU total", "GPU Total (ns)",            \
                            GS_COL_NS, 0,                                                          \
                            "time of the kernels, copies and sets launched while the frame was\n"  \
                            "on the launching thread's stack (a frame that recurs counts once)"},  \
    [(o) + ST_GPU_PCT] = {"gpu_pct", "gpu_pct", "GPU %", "GPU (%)", GS_COL_PCT, 0,                 \
                          "GPU total / all GPU time launched inside the window x 100, by any\n"    \
                          "thread (backward's GPU time is launched by autograd's own thread,\n"    \
                          "which has no Python frames: the line under the table says how much)"},  \
    [(o) + ST_GPU_SELF] = {"gpu_self_ns", "gpu_self", "GPU self", "GPU Self (ns)", GS_COL_NS, 0,   \
                           "the part launched while it was the innermost frame (module)"},         \
    [(o) + ST_LAUNCHES] = {"launches", "launches", "Launches", "Launches", GS_COL_COUNT, 0,        \
                           "kernels, copies and sets in GPU total"},                               \
    [(o) + ST_CPU_TOTAL] = {"cpu_total_ns", "cpu_total", "CPU total", "CPU Total (ns)",            \
                            GS_COL_NS, 0,                                                          \
                            "the frames' time inside the window (a recursive call once)"},         \
    [(o) + ST_CPU_SELF] = {"cpu_self_ns", "cpu_self", "CPU self", "CPU Self (ns)", GS_COL_NS, 0,   \
                           "CPU total minus the time of the frames (modules) directly inside"}

#define DEPTH_COLUMN                                                                               \
    {"depth", "depth", "Depth", "Depth", GS_COL_COUNT, 0,                                          \
     "--tree: 0 for an outermost frame (module), then one more a level"}
#define FRAME_COLUMN                                                                               \
    {"frame", "frame", "Frame", "Frame", GS_COL_TEXT, 0,                                           \
     "as the trace names it: \"file.py(line): function\", a built-in\n"                            \
     "(\"<built-in method addmm ...>\") or a module (\"nn.Module: Linear_0\")"}
#define MODULE_COLUMN                                                                              \
    {"module", "module", "Module", "Module", GS_COL_TEXT, 0,                                       \
     "--modules: the module path from the outermost module; with --tree\n"                         \
     "the module's name (json adds its path)"}

static const gs_column frame_columns[] = {[0] = FRAME_COLUMN, STAT_COLUMNS(1)};
static const gs_column tree_columns[] = {[0] = DEPTH_COLUMN, [1] = FRAME_COLUMN, STAT_COLUMNS(2)};
static const gs_column module_columns[] = {[0] = MODULE_COLUMN, STAT_COLUMNS(1)};
static const gs_column module_tree_columns[] = {
    [0] = DEPTH_COLUMN,
    [1] = MODULE_COLUMN,
    [2] = {"path", "path", "Path", "Path", GS_COL_TEXT, GS_COL_JSON_ONLY},
    STAT_COLUMNS(3),
};
_Static_assert(COUNT_OF(frame_columns) == 1 + ST_NCOLS, "frame, then the numbers");
_Static_assert(COUNT_OF(tree_columns) == 2 + ST_NCOLS, "depth, frame, then the numbers");
_Static_assert(COUNT_OF(module_columns) == 1 + ST_NCOLS, "module path, then the numbers");
_Static_assert(COUNT_OF(module_tree_columns) == 3 + ST_NCOLS, "depth, module, path, numbers");

static const struct {
    const gs_column *cols;
    size_t ncols, lead; /* columns before the numbers */
    const char *key;    /* its name in JSON */
} tables[] = {
    [GS_CALLSITES_FRAMES] = {frame_columns, COUNT_OF(frame_columns), 1, "frames"},
    [GS_CALLSITES_TREE] = {tree_columns, COUNT_OF(tree_columns), 2, "tree"},
    [GS_CALLSITES_MODULES] = {module_columns, COUNT_OF(module_columns), 1, "modules"},
    [GS_CALLSITES_MODULE_TREE] = {module_tree_columns, COUNT_OF(module_tree_columns), 3,
                                  "module_tree"},
};

const gs_column *gs_callsite_columns(enum gs_callsite_view which, size_t *ncols)
{
    *ncols = tables[which].ncols;
    return tables[which].cols;
}

static void fill_stats(gs_cell *c, const gs_callsite_row *r, gs_ns gpu_time)
{
    c[ST_CALLS].i = (int64_t)r->calls;
    c[ST_GPU_TOTAL].i = r->gpu_total;
    c[ST_GPU_PCT].f = gpu_time > 0 ? 100.0 * (double)r->gpu_total / (double)gpu_time : NAN;
    c[ST_GPU_SELF].i = r->gpu_self;
    c[ST_LAUNCHES].i = (int64_t)r->launches;
    c[ST_CPU_TOTAL].i = r->cpu_total;
    c[ST_CPU_SELF].i = r->cpu_self;
}

/* "  " per level, then the name, for each row of a tree kept under max_depth, in one block. */
static char *indent_names(const gs_callsite_row *rows, size_t n, size_t max_depth)
{
    size_t size = 1;
    for (size_t i = 0; i < n; i++)
        if (!max_depth || rows[i].depth < max_depth)
            size += 2 * (size_t)rows[i].depth + strlen(rows[i].name) + 1;
    char *block = malloc(size), *p = block;
    if (!block)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        if (max_depth && rows[i].depth >= max_depth)
            continue;
        memset(p, ' ', 2 * (size_t)rows[i].depth);
        p += 2 * (size_t)rows[i].depth;
        size_t len = strlen(rows[i].name);
        memcpy(p, rows[i].name, len + 1);
        p += len + 1;
    }
    return block;
}

int gs_callsite_table(const gs_callsites *s, enum gs_callsite_view which, size_t max_depth,
                      bool indent, gs_table *out, char **owned)
{
    bool modules = which == GS_CALLSITES_MODULES || which == GS_CALLSITES_MODULE_TREE;
    bool tree = which == GS_CALLSITES_TREE || which == GS_CALLSITES_MODULE_TREE;
    const gs_callsite_row *rows = which == GS_CALLSITES_FRAMES ? s->frames
                                  : modules                    ? s->modules
                                                               : s->tree;
    size_t n = which == GS_CALLSITES_FRAMES ? s->nframes : modules ? s->nmodules : s->ntree;
    *owned = NULL;
    gs_table_init(out, tables[which].cols, tables[which].ncols,
                  modules ? "no nn.Module frames in the selected traces (torch.profiler's "
                            "with_modules=True records them)"
                          : "no Python frames in the selected traces (torch.profiler's "
                            "with_stack=True records them)");
    if (tree && indent && !(*owned = indent_names(rows, n, max_depth)))
        return -1;
    const char *name = *owned;
    for (size_t i = 0; i < n; i++) {
        const gs_callsite_row *r = &rows[i];
        if (tree && max_depth && r->depth >= max_depth)
            continue;
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        size_t col = 0;
        if (tree)
            c[col++].i = r->depth;
        if (tree && indent) {
            c[col++].text = name;
            name += strlen(name) + 1;
        } else {
            c[col++].text = which == GS_CALLSITES_MODULES ? r->path : r->name;
        }
        if (which == GS_CALLSITES_MODULE_TREE)
            c[col++].text = r->path;
        fill_stats(c + tables[which].lead, r, s->gpu_time);
    }
    /* Module paths flat by GPU total; equal ones keep the tree's order. */
    if (which == GS_CALLSITES_MODULES)
        return gs_table_sort(out, tables[which].lead + ST_GPU_TOTAL);
    return 0;
}

int gs_render_callsites(FILE *out, const gs_table *t, const gs_callsites *s,
                        enum gs_callsite_view which, const gs_window_notes *window,
                        enum gs_format format, const gs_text_style *style)
{
    if (format == GS_FORMAT_CSV) {
        gs_render_csv(out, t);
        return 0;
    }
    if (format == GS_FORMAT_JSON) {
        gs_json_writer w;
        gs_json_writer_init(&w, out);
        gs_json_begin_object(&w, NULL, GS_JSON_BLOCK);
        gs_json_put_str(&w, "command", "callsites");
        gs_json_put_str(&w, "table", tables[which].key);
        gs_json_put_int(&w, "gpu_ns", s->gpu_time);
        gs_json_put_int(&w, "unattributed_gpu_ns", s->gpu_unattributed);
        gs_json_put_uint(&w, "python_frames", s->python_frames);
        gs_window_notes_json(&w, window);
        gs_json_rows(&w, "rows", t);
        gs_json_end(&w);
        return 0;
    }
    gs_window_notes_text(out, window, style);
    if (gs_render_text(out, t, style) != 0)
        return -1;
    if (s->gpu_unattributed > 0 && t->nrows > 0) {
        char all[32], none[32];
        gs_fmt_duration(all, sizeof all, s->gpu_time);
        gs_fmt_duration(none, sizeof none, s->gpu_unattributed);
        fprintf(out,
                "GPU time launched: %s; %s of it (%.1f %%) with no Python frame on the "
                "launching thread (autograd's backward thread, or a launch not recorded)\n",
                all, none, 100.0 * (double)s->gpu_unattributed / (double)s->gpu_time);
    }
    return 0;
}
