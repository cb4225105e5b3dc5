#include "export/view_csv.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "export/out_file.h"
#include "render/render.h"
#include "render/view_tables.h"

/* Each view: build its summary, turn it into the table its command prints, write the CSV. The
 * tables keep the views' default order, as the commands do without --sort. */

static int kernels_csv(const gs_profile *p, const gs_select *sel, FILE *out, gs_error *err)
{
    gs_kernel_summary s;
    gs_table t;
    if (gs_kernel_summary_build(p, sel, false, &s, err) != 0)
        return -1;
    int rc = gs_kernel_table(&s, &t) == 0 ? (gs_render_csv(out, &t), 0) : gs_fail_oom(err);
    gs_table_free(&t);
    gs_kernel_summary_free(&s);
    return rc;
}

static int ops_csv(const gs_profile *p, const gs_select *sel, FILE *out, gs_error *err)
{
    gs_op_summary s;
    gs_table t;
    if (gs_op_summary_build(p, sel, false, &s, err) != 0)
        return -1;
    int rc = gs_op_table(&s, &t) == 0 ? (gs_render_csv(out, &t), 0) : gs_fail_oom(err);
    gs_table_free(&t);
    gs_op_summary_free(&s);
    return rc;
}

static int api_csv(const gs_profile *p, const gs_select *sel, FILE *out, gs_error *err)
{
    gs_api_summary s;
    gs_table t;
    if (gs_api_summary_build(p, sel, &s, err) != 0)
        return -1;
    int rc = gs_api_table(&s, &t) == 0 ? (gs_render_csv(out, &t), 0) : gs_fail_oom(err);
    gs_table_free(&t);
    gs_api_summary_free(&s);
    return rc;
}

static int memcpy_csv(const gs_profile *p, const gs_select *sel, FILE *out, gs_error *err)
{
    gs_memcpy_summary s;
    gs_table t;
    if (gs_memcpy_summary_build(p, sel, &s, err) != 0)
        return -1;
    int rc = gs_memcpy_table(&s, &t) == 0 ? (gs_render_csv(out, &t), 0) : gs_fail_oom(err);
    gs_table_free(&t);
    gs_memcpy_summary_free(&s);
    return rc;
}

static const struct {
    const char *name;
    int (*write)(const gs_profile *p, const gs_select *sel, FILE *out, gs_error *err);
} views[] = {
    {"kernels", kernels_csv},
    {"ops", ops_csv},
    {"api", api_csv},
    {"memcpy", memcpy_csv},
};

const char *gs_csv_view_name(size_t i)
{
    return i < sizeof views / sizeof views[0] ? views[i].name : NULL;
}

int gs_export_csv_view(const gs_profile *p, const gs_select *sel, const char *name, FILE *out,
                       gs_error *err)
{
    for (size_t i = 0; i < sizeof views / sizeof views[0]; i++)
        if (!strcmp(views[i].name, name))
            return views[i].write(p, sel, out, err);
    return gs_fail(err, GS_EXIT_USAGE, "no CSV table named '%s'", name);
}

int gs_export_csv_dir(const gs_profile *p, const gs_select *sel, const char *dir, gs_error *err)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return gs_fail(err, GS_EXIT_ENV, "%s: cannot create the folder: %s", dir, strerror(errno));
    for (size_t i = 0; i < sizeof views / sizeof views[0]; i++) {
        char path[4096];
        if ((size_t)snprintf(path, sizeof path, "%s/%s.csv", dir, views[i].name) >= sizeof path)
            return gs_fail(err, GS_EXIT_USAGE, "%s: path too long", dir);
        FILE *f = gs_out_open(path, err);
        if (!f)
            return -1;
        int rc = views[i].write(p, sel, f, err);
        if (gs_out_close(f, path, rc == 0 ? err : NULL) != 0 || rc != 0)
            return -1;
    }
    return 0;
}
