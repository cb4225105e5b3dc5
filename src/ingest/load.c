#include "ingest/load.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "common/log.h"
#include "common/strbuf.h"
#include "common/util.h"
#include "common/vec.h"
#include "ingest/gst.h"
#include "ingest/json.h"
#include "ingest/kineto.h"
#include "ingest/kineto_window.h"
#include "ingest/legacy.h"
#include "ingest/load_log.h"
#include "ingest/source.h"

/* "rank-3.Jul_15.pt.trace.json", "sampled_rank-1.json.gz", "bs_32_rank0.json": the digits after
 * the last "rank" in the file name. */
static bool rank_from_filename(const char *path, int32_t *rank)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    bool found = false;
    for (const char *p = base; *p; p++) {
        if (strncasecmp(p, "rank", 4) != 0)
            continue;
        const char *d = p + 4;
        if (*d == '-' || *d == '_')
            d++;
        if (!isdigit((unsigned char)*d))
            continue;
        long v = strtol(d, NULL, 10);
        if (v >= 0 && v < INT32_MAX) {
            *rank = (int32_t)v;
            found = true;
        }
    }
    return found;
}

static int read_trace(gs_source *src, gs_trace *t, const gs_load_opts *opts, bool is_gst,
                      gs_error *err)
{
    if (is_gst)
        return gst_read(src, t, opts, err);
    gs_json j;
    if (gs_json_init(&j, src, err) != 0)
        return -1;
    int rc;
    switch (gs_json_next(&j)) {
    case GS_JSON_OBJECT:
        rc = kineto_read_object(&j, t, opts);
        break;
    case GS_JSON_ARRAY:
        rc = legacy_read_array(&j, t, opts);
        break;
    case GS_JSON_END:
        rc = gs_fail(err, GS_EXIT_INPUT, "%s: empty file", t->id.path);
        break;
    case GS_JSON_ERROR:
        rc = -1;
        break;
    default:
        rc = gs_json_fail(&j, "not a profiler trace (expected a JSON object or array)");
        break;
    }
    gs_json_free(&j);
    return rc;
}

/* The options, with the caller's budget or else the default one, kept in *fallback. */
static int with_budget(const gs_load_opts *opts, gs_mem_budget *fallback, gs_load_opts *o,
                       gs_error *err)
{
    *o = opts ? *opts : (gs_load_opts){0};
    if (o->budget)
        return 0;
    if (gs_mem_budget_default(fallback, err) != 0)
        return -1;
    o->budget = fallback;
    return 0;
}

/* Whether the trace read is over the budget (err says so); for a Kineto trace, notes that a
 * window of it may be read instead (load_window). */
static bool over_budget(const gs_load_opts *o, const gs_trace *t, const gs_source *src,
                        bool is_gst, gs_error *err)
{
    if (gs_mem_budget_check(o->budget, t, gs_source_file_offset(src), err) == 0)
        return false;
    o->budget->over = !is_gst;
    return true;
}

/* An SQLite database: what `gpuscope export --format sqlite` writes (and nsys export, whose
 * schema it follows), easily given back as if it were the trace. Its header starts "SQLite
 * format 3"; no JSON text starts with 'S'. */
static bool is_sqlite(const char *head, ssize_t got)
{
    static const char magic[] = "SQLite f";
    return got >= (ssize_t)sizeof magic - 1 && !memcmp(head, magic, sizeof magic - 1);
}

/* Reads a trace from an open source into a new, indexed trace; closes the source. The format
 * is told by the first bytes, not the name: a .gst file may be renamed or gzipped. */
static int load_source(gs_source *src, const char *path, const gs_load_opts *opts, gs_trace **out,
                       gs_error *err)
{
    *out = NULL;
    if (!src)
        return -1;
    gs_load_opts o;
    gs_mem_budget budget;
    if (with_budget(opts, &budget, &o, err) != 0) {
        gs_source_close(src);
        return -1;
    }
    char head[GS_SOURCE_PEEK_MAX];
    ssize_t got = gs_source_peek(src, head, sizeof head, err);
    bool is_gst = got > 0 && gst_is_magic(head, (size_t)got);
    if (is_sqlite(head, got)) {
        gs_source_close(src);
        return gs_fail(err, GS_EXIT_INPUT,
                       "%s: an SQLite database (gpuscope export --format sqlite writes these), "
                       "not a trace: give the trace it was exported from",
                       path);
    }
    double started = gs_log_clock(GS_LOG_INFO);
    if (gs_log_on(GS_LOG_INFO))
        gs_load_log_opened(path, src, is_gst);
    gs_trace *t = got < 0 ? NULL : gs_trace_new(path, err);
    bool windowed = o.window && !o.window->survey;
    if (!t || read_trace(src, t, &o, is_gst, err) != 0 ||
        (windowed && kwindow_drop_unlaunched(t) != 0 && gs_fail_oom(err)) ||
        over_budget(&o, t, src, is_gst, err)) {
        gs_source_close(src);
        gs_trace_delete(t);
        return -1;
    }
    gs_source_close(src);
    /* A part's rank is its entry's: the file's name names several. */
    if (!o.part && t->id.source == GS_RANK_DEFAULT && rank_from_filename(path, &t->id.rank))
        t->id.source = GS_RANK_FROM_FILENAME;
    double parsed = gs_log_clock(GS_LOG_INFO);
    if (gs_trace_check(t, err) != 0 || gs_trace_index(t, err) != 0) {
        gs_trace_delete(t);
        return -1;
    }
    if (gs_log_on(GS_LOG_INFO))
        gs_load_log_read(t, started, parsed, gs_log_clock(GS_LOG_INFO));
    *out = t;
    return 0;
}

/* While they are read, the model's arrays grow by doubling: on average they hold 1/ln 2 times
 * their elements (the first read measured 1.45 on the 5 GB trace of doc/performance.md). */
#define GROWTH_ROOM 1.4427

/* The share of the trace that fits in the budget, from the survey's measure of the whole model:
 * the same on every run (the first read, on several threads, ran out of budget wherever each
 * thread happened to be then). */
static double survey_fits(const gs_mem_budget *b, const kwindow *survey, const gs_trace *steps)
{
    double bytes = (double)survey->model_bytes * GROWTH_ROOM +
                   (double)gs_strtab_bytes(&steps->strings);
    double fits = gs_mem_budget_fits(b, (uint64_t)bytes);
    GS_LOG(GS_LOG_INFO, "%s: the whole trace's model would take about %.0f MB (its arrays "
           "%.0f MB as they grow while read, strings %.0f MB): %.1f %% of it fits",
           steps->id.path, bytes / 1048576.0,
           (double)survey->model_bytes * GROWTH_ROOM / 1048576.0,
           (double)gs_strtab_bytes(&steps->strings) / 1048576.0, 100 * fits);
    return fits;
}

/* The trace did not fit in the memory budget: read it again, a survey of its steps first, then
 * the window of them that fits (ingest/kineto_window.h), narrower if it still does not. A pipe
 * cannot be read twice: it keeps the budget's error. */
static int load_window(const char *path, const gs_load_opts *o, gs_trace **out, gs_error *err)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return -1;
    gs_error over = *err;
    kwindow survey;
    kwindow_survey_init(&survey);
    gs_load_opts so = *o;
    so.window = &survey;
    gs_trace *steps = NULL;
    if (load_source(gs_source_open(path, err), path, &so, &steps, err) != 0)
        return -1;
    double fits = survey_fits(o->budget, &survey, steps);
    int rc = -1;
    bool shrunk_out = false; /* no window is smaller than the whole trace */
    for (unsigned shrink = 0; shrink < 3; shrink++) {
        kwindow w;
        kwindow_plan plan;
        if (!kwindow_choose(steps, &survey, fits, shrink, &w, &plan)) {
            shrunk_out = true;
            break;
        }
        gs_load_opts wo = *o;
        wo.window = &w;
        o->budget->over = false;
        rc = load_source(gs_source_open(path, err), path, &wo, out, err);
        if (rc == 0)
            gs_load_log_window(*out, steps, &plan, fits);
        if (rc == 0 || !o->budget->over)
            break;
    }
    gs_trace_delete(steps);
    if (rc != 0 && (o->budget->over || shrunk_out))
        *err = over;
    return rc;
}

int gs_load_trace(const char *path, const gs_load_opts *opts, gs_trace **out, gs_error *err)
{
    gs_load_opts o;
    gs_mem_budget budget;
    if (with_budget(opts, &budget, &o, err) != 0)
        return -1;
    o.budget->over = false;
    int rc = load_source(gs_source_open(path, err), path, &o, out, err);
    if (rc == 0 || !o.budget->over || o.window)
        return rc;
    return load_window(path, &o, out, err);
}

int gs_load_trace_buffer(const char *data, size_t size, const char *name, const gs_load_opts *opts,
                         gs_trace **out, gs_error *err)
{
    return load_source(gs_source_memory(data, size, name, err), name, opts, out, err);
}

/* Trace files, and with_gsum also rank summaries (.gsum, the last suffix). */
static bool is_trace_name(const char *name, bool with_gsum)
{
    static const char *const suffixes[] = {".json", ".json.gz", ".gst", ".gsum"};
    size_t n = strlen(name), count = COUNT_OF(suffixes) - !with_gsum;
    for (size_t i = 0; i < count; i++) {
        size_t k = strlen(suffixes[i]);
        if (n > k && !strcmp(name + n - k, suffixes[i]))
            return true;
    }
    return false;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef GS_VEC(char *) path_list;

/* What an entry named like a trace is when it is not a file; a folder reads regular files only,
 * since a FIFO there would wait for a writer, and a device or socket is no trace. */
static const struct {
    mode_t type;
    const char *what;
} not_files[] = {
    {S_IFIFO, "a FIFO"},         {S_IFDIR, "a folder"}, {S_IFCHR, "a character device"},
    {S_IFBLK, "a block device"}, {S_IFSOCK, "a socket"},
};

/* Why the entry at path is not read as a trace, or NULL when it is a regular file. */
static const char *not_a_file(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return errno == ENOENT ? "a link to nothing" : strerror(errno);
    for (size_t i = 0; i < COUNT_OF(not_files); i++)
        if ((st.st_mode & S_IFMT) == not_files[i].type)
            return not_files[i].what;
    return S_ISREG(st.st_mode) ? NULL : "not a regular file";
}

/* The trace files directly inside a folder, sorted by name. */
static int list_folder(const char *dir, bool with_gsum, path_list *files, gs_error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return gs_fail(err, GS_EXIT_INPUT, "%s: %s", dir, strerror(errno));
    struct dirent *e;
    int rc = 0;
    size_t first = files->n, nrefused = 0;
    gs_strbuf refused;
    gs_strbuf_init(&refused);
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || !is_trace_name(e->d_name, with_gsum))
            continue;
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        char *path = malloc(len);
        char **slot = path ? GS_VEC_PUSH(files) : NULL;
        if (!slot) {
            free(path);
            rc = gs_fail_oom(err);
            break;
        }
        size_t dlen = strlen(dir);
        bool slash = dlen > 0 && dir[dlen - 1] == '/';
        snprintf(path, len, "%s%s%s", dir, slash ? "" : "/", e->d_name);
        /* Skipped, it would leave its rank out of the analysis without a word: the folder is
         * refused, every such entry named. */
        const char *what = not_a_file(path);
        if (what) {
            gs_strbuf_appendf(&refused, "%s%s (%s)", nrefused ? ", " : "", e->d_name, what);
            nrefused++;
            free(path);
            files->n--;
            continue;
        }
        *slot = path;
    }
    closedir(d);
    if (rc == 0 && gs_strbuf_failed(&refused))
        rc = gs_fail_oom(err);
    else if (rc == 0 && nrefused > 0)
        rc = gs_fail(err, GS_EXIT_INPUT,
                     "%s: %s named like a trace but not a file: %s; move %s out of the folder, or "
                     "name the traces to read",
                     dir, nrefused == 1 ? "an entry" : "entries", gs_strbuf_str(&refused),
                     nrefused == 1 ? "it" : "them");
    gs_strbuf_free(&refused);
    if (rc != 0) {
        for (size_t i = first; i < files->n; i++)
            free(files->v[i]);
        files->n = first;
        return rc;
    }
    /* files may hold the files of the paths before this one: only this folder's count here. */
    size_t n = files->n - first;
    if (n == 0)
        return gs_fail(err, GS_EXIT_INPUT,
                       "%s: no traces in this folder (looked for *.json, *.json.gz, *.gst)", dir);
    if (n > 1)
        qsort(files->v + first, n, sizeof *files->v, cmp_str);
    GS_LOG(GS_LOG_INFO, "%s: a folder: %zu file(s) named *.json, *.json.gz, *.gst%s", dir, n,
           with_gsum ? " or *.gsum" : "");
    return 0;
}

/* ---- a file's ranks ------------------------------------------------------------------------ */

/* The ranks the trace file at path holds: 0 for one (any trace but gpuscope's chrome export of
 * several), else the entries of its gpuscopeRanks, read from the start of the file. A file that
 * cannot be read as JSON is left to its load, which says why. -1 with err: a broken table. */
static int count_parts(const char *path, uint32_t *n, gs_error *err)
{
    *n = 0;
    gs_error peek_err = {0};
    gs_source *src = gs_source_open_head(path, &peek_err);
    if (!src)
        return 0;
    char head[4];
    ssize_t got = gs_source_peek(src, head, sizeof head, &peek_err);
    gs_json j;
    int rc = 0;
    if (got > 0 && !gst_is_magic(head, (size_t)got) && gs_json_init(&j, src, &peek_err) == 0) {
        if (gs_json_next(&j) == GS_JSON_OBJECT)
            rc = kineto_count_parts(&j, n);
        gs_json_free(&j);
    }
    gs_source_close(src);
    if (rc != 0 && err)
        *err = peek_err;
    if (rc == 0 && *n)
        GS_LOG(GS_LOG_INFO, "%s: %" PRIu32 " ranks in one file (gpuscopeRanks): each is read on "
               "its own, %" PRIu32 " reads of the file", path, *n, *n);
    return rc;
}

typedef struct input {
    char *path;
    uint32_t part; /* gs_load_opts.part */
} input;

typedef GS_VEC(input) input_list;

static void free_inputs(input_list *in)
{
    for (size_t i = 0; i < in->n; i++)
        free(in->v[i].path);
    GS_VEC_FREE(in);
}

/* The file at path (owned: taken, or freed on failure) as inputs: itself, or each of its ranks.
 * Only regular files are looked into (a pipe is read once) and not rank summaries. */
static int add_file(input_list *out, char *path, bool regular, gs_error *err)
{
    static const char gsum[] = ".gsum";
    size_t len = strlen(path);
    bool summary = len >= strlen(gsum) && !strcmp(path + len - strlen(gsum), gsum);
    uint32_t n = 0;
    if (regular && !summary && count_parts(path, &n, err) != 0) {
        free(path);
        return -1;
    }
    for (uint32_t i = 0; i < (n ? n : 1); i++) {
        char *copy = i == 0 ? path : strdup(path);
        input *slot = copy ? GS_VEC_PUSH(out) : NULL;
        if (!slot) {
            free(copy); /* path itself when the first fails, else out holds it */
            return gs_fail_oom(err);
        }
        *slot = (input){copy, n ? i + 1 : 0};
    }
    return 0;
}

/* Every input the paths name: files, folders' trace files, the ranks of files of several. */
static int list_all(const char *const *paths, size_t npaths, bool with_gsum, input_list *out,
                    gs_error *err)
{
    int rc = 0;
    for (size_t i = 0; i < npaths && rc == 0; i++) {
        struct stat st;
        if (stat(paths[i], &st) != 0) {
            rc = gs_fail(err, GS_EXIT_INPUT, "%s: %s", paths[i], strerror(errno));
        } else if (S_ISDIR(st.st_mode)) {
            path_list files = {0};
            rc = list_folder(paths[i], with_gsum, &files, err);
            size_t f = 0;
            for (; f < files.n && rc == 0; f++)
                rc = add_file(out, files.v[f], true, err);
            for (; f < files.n; f++)
                free(files.v[f]);
            GS_VEC_FREE(&files);
        } else {
            char *copy = strdup(paths[i]);
            rc = copy ? add_file(out, copy, S_ISREG(st.st_mode), err) : gs_fail_oom(err);
        }
    }
    if (rc != 0)
        free_inputs(out);
    return rc;
}

/* ---- loading ------------------------------------------------------------------------------- */

static int cmp_trace(const void *pa, const void *pb)
{
    const gs_trace *a = *(gs_trace *const *)pa, *b = *(gs_trace *const *)pb;
    return gs_rank_id_cmp(&a->id, &b->id);
}

static int load_one(const input *in, const gs_load_opts *opts, gs_profile *out, gs_error *err)
{
    gs_trace *t;
    gs_load_opts o = *opts;
    o.part = in->part;
    if (gs_load_trace(in->path, &o, &t, err) != 0)
        return -1;
    gs_trace **slot = GS_VEC_PUSH(&out->traces);
    if (!slot) {
        gs_trace_delete(t);
        return gs_fail_oom(err);
    }
    *slot = t;
    opts->budget->used += gs_trace_bytes(t);
    return 0;
}

int gs_load_profile(const char *const *paths, size_t npaths, const gs_load_opts *opts,
                    gs_profile *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    /* One budget for all the traces: they are all in memory at once. */
    gs_load_opts o;
    gs_mem_budget budget;
    if (with_budget(opts, &budget, &o, err) != 0)
        return -1;
    input_list inputs = {0};
    int rc = list_all(paths, npaths, false, &inputs, err);
    for (size_t i = 0; i < inputs.n && rc == 0; i++)
        rc = load_one(&inputs.v[i], &o, out, err);
    free_inputs(&inputs);
    if (rc != 0) {
        gs_profile_free(out);
        return -1;
    }
    if (out->traces.n > 1)
        qsort(out->traces.v, out->traces.n, sizeof *out->traces.v, cmp_trace);
    GS_LOG(GS_LOG_INFO, "%zu trace(s) loaded together (the full-trace path: every trace in memory)",
           out->traces.n);
    for (size_t i = 0; i < out->traces.n && out->traces.n > 1; i++)
        GS_LOG(GS_LOG_INFO, "rank %" PRId32 ": %s", out->traces.v[i]->id.rank,
               out->traces.v[i]->id.path);
    return 0;
}

int gs_list_inputs(const char *const *paths, size_t npaths, bool with_gsum, char ***out,
                   uint32_t **parts, size_t *n, gs_error *err)
{
    input_list all = {0};
    if (list_all(paths, npaths, with_gsum, &all, err) != 0)
        return -1;
    *out = gs_array_new(all.n, sizeof **out);
    *parts = gs_array_new(all.n, sizeof **parts);
    if (!*out || !*parts) {
        free(*out);
        free(*parts);
        free_inputs(&all);
        return gs_fail_oom(err);
    }
    for (size_t i = 0; i < all.n; i++) {
        (*out)[i] = all.v[i].path;
        (*parts)[i] = all.v[i].part;
    }
    *n = all.n;
    GS_VEC_FREE(&all);
    GS_LOG(GS_LOG_INFO, "inputs: %zu trace(s) from %zu argument(s)", *n, npaths);
    return 0;
}
