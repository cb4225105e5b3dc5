/* The result table and its three renderers: sorting, alignment, truncation, CSV quoting and
 * formulas, JSON rows (the JSON writer itself: test_json_write.c). */
#include <stdlib.h>

#include "check.h"
#include "render/json.h"
#include "render/render.h"

static const gs_column cols[] = {
    {"total_ns", "total", "Total", "Total Time (ns)", GS_COL_NS, 0},
    {"count", "count", "Count", "Count", GS_COL_COUNT, 0},
    {"time_pct", "time", "Time (%)", "Time (%)", GS_COL_PCT, 0},
    {"kind", "kind", "Kind", "Kind", GS_COL_TEXT, GS_COL_JSON_ONLY},
    {"name", "name", "Name", "Name", GS_COL_TEXT, 0},
};
#define NCOLS (sizeof cols / sizeof cols[0])

static void add(gs_table *t, int64_t total, int64_t count, double pct, const char *name)
{
    gs_cell *c = gs_table_add_row(t);
    c[0].i = total;
    c[1].i = count;
    c[2].f = pct;
    c[3].text = "k";
    c[4].text = name;
}

/* Output of a renderer as a string (freed by the caller). */
typedef struct capture {
    char *text;
    size_t len;
    FILE *f;
} capture;

static FILE *open_capture(capture *c)
{
    c->text = NULL;
    c->f = open_memstream(&c->text, &c->len);
    return c->f;
}

static char *close_capture(capture *c)
{
    fclose(c->f);
    return c->text;
}

static void test_sort_is_stable_and_limit_keeps_the_first_rows(void)
{
    gs_table t;
    gs_table_init(&t, cols, NCOLS, NULL);
    add(&t, 10, 3, 10, "b");
    add(&t, 30, 1, 30, "a");
    add(&t, 10, 2, 10, "c");
    add(&t, 50, 1, 50, NULL);
    CHECK_INT(gs_columns_find_sort(cols, NCOLS, "total"), 0);
    CHECK_INT(gs_columns_find_sort(cols, NCOLS, "total_ns"), 0);
    CHECK_INT(gs_columns_find_sort(cols, NCOLS, "time"), 2);
    CHECK_INT(gs_columns_find_sort(cols, NCOLS, "nope"), -1);

    CHECK_INT(gs_table_sort(&t, 0), 0); /* descending; b before c as they were */
    CHECK_INT(gs_table_cell(&t, 0, 0)->i, 50);
    CHECK_STR(gs_table_cell(&t, 1, 4)->text, "a");
    CHECK_STR(gs_table_cell(&t, 2, 4)->text, "b");
    CHECK_STR(gs_table_cell(&t, 3, 4)->text, "c");

    CHECK_INT(gs_table_sort(&t, 4), 0); /* names ascending, unknown last */
    CHECK_STR(gs_table_cell(&t, 0, 4)->text, "a");
    CHECK_STR(gs_table_cell(&t, 2, 4)->text, "c");
    CHECK(gs_table_cell(&t, 3, 4)->text == NULL);

    gs_table_limit(&t, 0);
    CHECK_INT(t.nrows, 4);
    gs_table_limit(&t, 2);
    CHECK_INT(t.nrows, 2);
    gs_table_free(&t);
}

static void test_text_alignment(void)
{
    gs_table t;
    gs_table_init(&t, cols, NCOLS, "nothing here");
    add(&t, 1234000, 1200, 75.26, "long_kernel_name");
    add(&t, 812, 3, 0.04, "k");
    capture c;
    gs_text_style plain = {0};
    CHECK_INT(gs_render_text(open_capture(&c), &t, &plain), 0);
    CHECK_STR(close_capture(&c), "   Total  Count  Time (%)  Name\n"
                                 "1.234 ms  1,200      75.3  long_kernel_name\n"
                                 "  812 ns      3       0.0  k\n");
    free(c.text);

    gs_text_style tty = {.tty = true};
    CHECK_INT(gs_render_text(open_capture(&c), &t, &tty), 0);
    CHECK_STR(close_capture(&c), "\033[1m   Total  Count  Time (%)  Name\033[0m\n"
                                 "1.234 ms  1,200      75.3  long_kernel_name\n"
                                 "  812 ns      3       0.0  k\n");
    free(c.text);

    t.nrows = 0;
    CHECK_INT(gs_render_text(open_capture(&c), &t, &plain), 0);
    CHECK_STR(close_capture(&c), "nothing here\n");
    free(c.text);
    gs_table_free(&t);
}

static void test_text_truncates_long_names_and_cleans_control_bytes(void)
{
    gs_table t;
    gs_table_init(&t, cols, NCOLS, NULL);
    add(&t, 1, 1, 1, "abcdefghijklmnopqrstuvwxyz0123456789");
    add(&t, 1, 1, 1, "tab\there\x1b[31m\xff µ");
    capture c;
    /* The numbers take 5 + 2 + 5 + 2 + 8 + 2 = 24 columns; 40 leaves 16, below the 24 minimum. */
    gs_text_style narrow = {.width = 40};
    CHECK_INT(gs_render_text(open_capture(&c), &t, &narrow), 0);
    CHECK_STR(close_capture(&c), "Total  Count  Time (%)  Name\n"
                                 " 1 ns      1       1.0  abcdefghijklmnopqrstuvw…\n"
                                 " 1 ns      1       1.0  tab\xEF\xBF\xBDhere\xEF\xBF\xBD[31m"
                                 "\xEF\xBF\xBD µ\n");
    free(c.text);
    gs_table_free(&t);
}

/* Two text columns: the short one keeps its width, the long one gets the rest of the line. */
static void test_text_columns_share_the_line(void)
{
    static const gs_column two[] = {
        {"format", "format", "Format", "Format", GS_COL_TEXT, 0},
        {"span_ns", "span", "Span", "Span (ns)", GS_COL_NS, 0},
        {"path", "path", "Path", "Path", GS_COL_TEXT, 0},
    };
    gs_table t;
    gs_table_init(&t, two, 3, NULL);
    gs_cell *c = gs_table_add_row(&t);
    c[0].text = "kineto";
    c[1].i = 440000;
    c[2].text = "/traces/run-1/rank-0.pt.trace.json.gz/extra/long/path";
    capture out;
    gs_text_style style = {.width = 50}; /* 6 + 2 + 9 + 2 leaves 31 for the path: 50 in all */
    CHECK_INT(gs_render_text(open_capture(&out), &t, &style), 0);
    CHECK_STR(close_capture(&out), "Format       Span  Path\n"
                                   "kineto  440.00 µs  /traces/run-1/rank-0.pt.trace.…\n");
    free(out.text);
    gs_table_free(&t);
}

/* Figures the caller formatted are text aligned right and never cut, whatever the width. */
static void test_text_figures_align_right(void)
{
    static const gs_column figures[] = {
        {"name", "name", "Name", "Name", GS_COL_TEXT, 0},
        {"power", "power", "Power", "Power", GS_COL_TEXT, GS_COL_FIGURES},
    };
    gs_table t;
    gs_table_init(&t, figures, 2, NULL);
    gs_cell *c = gs_table_add_row(&t);
    c[0].text = "H100";
    c[1].text = "512.3 W";
    c = gs_table_add_row(&t);
    c[0].text = "a name longer than the line allows it to be";
    c[1].text = "a figure longer than the line allows it to be";
    capture out;
    gs_text_style narrow = {.width = 40};
    CHECK_INT(gs_render_text(open_capture(&out), &t, &narrow), 0);
    CHECK_STR(close_capture(&out),
              "Name                                                              Power\n"
              "H100                                                            512.3 W\n"
              "a name longer than the \xe2\x80\xa6  "
              "a figure longer than the line allows it to be\n");
    free(out.text);
    gs_table_free(&t);
}

static void test_csv_quoting_and_units(void)
{
    gs_table t;
    gs_table_init(&t, cols, NCOLS, NULL);
    add(&t, 1234000, 1200, 75.256, "void k<4, float>(\"x\")");
    add(&t, 5, 1, 100, "two\nlines");
    add(&t, 6, 1, 0, NULL);
    capture c;
    gs_render_csv(open_capture(&c), &t);
    CHECK_STR(close_capture(&c), "Total Time (ns),Count,Time (%),Name\n"
                                 "1234000,1200,75.26,\"void k<4, float>(\"\"x\"\")\"\n"
                                 "5,1,100.00,\"two\nlines\"\n"
                                 "6,1,0.00,\n");
    free(c.text);
    gs_table_free(&t);
}

/* Names a spreadsheet would run as formulas get a ' in front (inside the quotes when quoted);
 * plain numbers, in a text column too, keep their sign; number columns are never touched. */
static void test_csv_formulas(void)
{
    static const char *const names[] = {
        "=1+2", "+SUM(1)", "-2+3", "@SUM(A1)", "\tx", "\rx", "=a,\"b\"", "-", "1e", "-.",
        "-3", "+1.5e3", "-.5", "-2E-7", "a=b", "",
    };
    static const char *const want = "Total Time (ns),Count,Time (%),Name\n"
                                    "-7,1,-2.50,'=1+2\n"
                                    "-7,1,-2.50,'+SUM(1)\n"
                                    "-7,1,-2.50,'-2+3\n"
                                    "-7,1,-2.50,'@SUM(A1)\n"
                                    "-7,1,-2.50,'\tx\n"
                                    "-7,1,-2.50,\"'\rx\"\n"
                                    "-7,1,-2.50,\"'=a,\"\"b\"\"\"\n"
                                    "-7,1,-2.50,'-\n"
                                    "-7,1,-2.50,1e\n"
                                    "-7,1,-2.50,'-.\n"
                                    "-7,1,-2.50,-3\n"
                                    "-7,1,-2.50,+1.5e3\n"
                                    "-7,1,-2.50,-.5\n"
                                    "-7,1,-2.50,-2E-7\n"
                                    "-7,1,-2.50,a=b\n"
                                    "-7,1,-2.50,\n";
    gs_table t;
    gs_table_init(&t, cols, NCOLS, NULL);
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        add(&t, -7, 1, -2.5, names[i]);
    capture c;
    gs_render_csv(open_capture(&c), &t);
    CHECK_STR(close_capture(&c), want);
    free(c.text);
    gs_table_free(&t);
}

static void test_json_rows(void)
{
    gs_table t;
    gs_table_init(&t, cols, NCOLS, NULL);
    add(&t, 1234000, 1200, 75.256, "a\"b");
    add(&t, 5, 1, 1.0 / 3, NULL);
    capture c;
    gs_render_json(open_capture(&c), &t, "kernels");
    CHECK_STR(close_capture(&c),
              "{\n  \"command\": \"kernels\",\n  \"rows\": [\n"
              "    {\"total_ns\": 1234000, \"count\": 1200, \"time_pct\": 75.26, \"kind\": \"k\","
              " \"name\": \"a\\\"b\"},\n"
              "    {\"total_ns\": 5, \"count\": 1, \"time_pct\": 0.33, \"kind\": \"k\","
              " \"name\": null}\n"
              "  ]\n}\n");
    free(c.text);

    t.nrows = 0;
    gs_render_json(open_capture(&c), &t, "kernels");
    CHECK_STR(close_capture(&c), "{\n  \"command\": \"kernels\",\n  \"rows\": []\n}\n");
    free(c.text);
    gs_table_free(&t);
}

/* Names that share their first 23 columns would read the same cut at the end, and cut in the
 * middle (their last 11 columns are alike too): the column is cut from the left, where they
 * differ, so no two rows read the same; a path is cut from the left first, its end naming the
 * file. */
static void test_text_cuts_so_rows_differ(void)
{
    static const gs_column two[] = {
        {"name", "name", "Name", "Name", GS_COL_TEXT, 0},
        {"path", "path", "Path", "Path", GS_COL_TEXT, GS_COL_CUT_START},
    };
    gs_table t;
    gs_table_init(&t, two, 2, NULL);
    gs_cell *c = gs_table_add_row(&t);
    c[0].text = "void at::native::vectorized_elementwise_kernel<4, AddFunctor<float>>";
    c[1].text = "/data/traces/job-17/rank-0.json";
    c = gs_table_add_row(&t);
    c[0].text = "void at::native::vectorized_elementwise_kernel<4, MulFunctor<float>>";
    c[1].text = "/data/traces/job-17/rank-1.json";
    capture out;
    gs_text_style style = {.width = 50}; /* 24 columns each, a gap of 2 */
    CHECK_INT(gs_render_text(open_capture(&out), &t, &style), 0);
    CHECK_STR(close_capture(&out), "Name                      Path\n"
                                   "…l<4, AddFunctor<float>>  …aces/job-17/rank-0.json\n"
                                   "…l<4, MulFunctor<float>>  …aces/job-17/rank-1.json\n");
    free(out.text);
    gs_table_free(&t);
}

/* A column the others make up for is left out while the line would not fit, and only then. */
static void test_text_leaves_out_narrow_drop_columns(void)
{
    static const gs_column three[] = {
        {"total_ns", "total", "Total", "Total (ns)", GS_COL_NS, 0},
        {"avg_ns", "avg", "Average", "Avg (ns)", GS_COL_NS, GS_COL_NARROW_DROP},
        {"name", "name", "Name", "Name", GS_COL_TEXT, 0},
    };
    gs_table t;
    gs_table_init(&t, three, 3, NULL);
    gs_cell *c = gs_table_add_row(&t);
    c[0].i = 1000, c[1].i = 500, c[2].text = "aten::mm";
    capture out;
    gs_text_style wide = {.width = 30}, narrow = {.width = 20};
    CHECK_INT(gs_render_text(open_capture(&out), &t, &wide), 0);
    CHECK_STR(close_capture(&out), "  Total  Average  Name\n"
                                   "1.00 µs   500 ns  aten::mm\n");
    free(out.text);
    CHECK_INT(gs_render_text(open_capture(&out), &t, &narrow), 0); /* 7 + 2 + 7 + 2 + 8 > 20 with it */
    CHECK_STR(close_capture(&out), "  Total  Name\n"
                                   "1.00 µs  aten::mm\n");
    free(out.text);
    gs_table_free(&t);
}

/* Free text wraps at spaces within the width, each new line under the hanging indent; text that
 * fits is written as it is. */
static void test_text_wraps_at_spaces(void)
{
    capture out;
    FILE *f = open_capture(&out);
    gs_text_put_wrapped(f, "the GPU waits on host work 6.662 ms per step", 4, 4, 24);
    CHECK_STR(close_capture(&out), "the GPU waits on\n    host work 6.662 ms\n    per step");
    free(out.text);
    f = open_capture(&out);
    gs_text_put_wrapped(f, "fits  as it is", 4, 4, 24);
    CHECK_STR(close_capture(&out), "fits  as it is");
    free(out.text);
}

int main(void)
{
    test_text_leaves_out_narrow_drop_columns();
    test_text_wraps_at_spaces();
    test_text_cuts_so_rows_differ();
    test_sort_is_stable_and_limit_keeps_the_first_rows();
    test_text_alignment();
    test_text_truncates_long_names_and_cleans_control_bytes();
    test_text_columns_share_the_line();
    test_text_figures_align_right();
    test_csv_quoting_and_units();
    test_csv_formulas();
    test_json_rows();
    return check_done("test_render");
}
