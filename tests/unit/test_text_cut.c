/* Names cut to a column's width so that no two rows read the same (render/text_cut.h): when the
 * end, the middle and the start all make two read the same, each is cut around where its name
 * differs from the others, and failing that numbered. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "render/render.h"
#include "render/text_cut.h"

/* PyTorch's elementwise kernels: one template, told apart only by the functor in its middle, whose
 * name comes again near the end (the GP100 trace's mse, mse_backward, sigmoid and
 * sigmoid_backward kernels read the same four times at 44 columns). */
#define KERNEL(f, args)                                                                            \
    "void at::native::vectorized_elementwise_kernel<4, at::native::" f "(at::TensorIteratorBase&)" \
    "::{lambda()#1}::operator()() const::{lambda(" args ")#1}, at::detail::Array<char*, 3> >(int, " \
    "at::native::" f "(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#1}, " \
    "at::detail::Array<char*, 3>)"

static char *render(const char *const *names, size_t n, size_t width)
{
    static const gs_column one[] = {{"name", "name", "Name", "Name", GS_COL_TEXT, 0}};
    gs_table t;
    gs_table_init(&t, one, 1, NULL);
    for (size_t i = 0; i < n; i++)
        gs_table_add_row(&t)[0].text = names[i];
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    gs_text_style style = {.width = width};
    CHECK_INT(gs_render_text(f, &t, &style), 0);
    fclose(f);
    gs_table_free(&t);
    return text;
}

/* The kernels' cut names are told apart by the functor: the name's first third, then from the
 * word where it differs from every other name on. */
static void test_kernels_of_one_template_read_apart(void)
{
    const char *names[] = {KERNEL("mse_backward_cuda_kernel", "float, float, float"),
                           KERNEL("mse_kernel_cuda", "float, float"),
                           KERNEL("sigmoid_backward_kernel_cuda", "float, float"),
                           KERNEL("sigmoid_kernel_cuda", "float"),
                           KERNEL("mse_kernel_cuda", "float, float")}; /* a name twice: alike */
    char *text = render(names, 5, 44);
    CHECK_STR(text, "Name\n"
                    "void at::nativ…mse_backward_cuda_kernel(at:…\n"
                    "void at::nativ…mse_kernel_cuda(at::TensorIt…\n"
                    "void at::nativ…sigmoid_backward_kernel_cuda…\n"
                    "void at::nativ…sigmoid_kernel_cuda(at::Tens…\n"
                    "void at::nativ…mse_kernel_cuda(at::TensorIt…\n");
    free(text);
}

/* Too narrow for a window: the cells that still read the same are numbered, in name order, the
 * number taking the place of the name's end. */
static void test_numbered_when_nothing_else_tells_them_apart(void)
{
    const char *cells[] = {"abcdefWVUghijk", "abcdefXYZghijk", "abcdefWVUghijk", "other name"};
    char *shown[4];
    CHECK_INT(gs_text_cut_column(cells, 4, 6, GS_CUT_END, shown), 0);
    CHECK_STR(shown[0], "ab… #1");
    CHECK_STR(shown[1], "ab… #2");
    CHECK_STR(shown[2], "ab… #1");
    CHECK_STR(shown[3], "other…");
    for (size_t i = 0; i < 4; i++)
        free(shown[i]);
}

int main(void)
{
    test_kernels_of_one_template_read_apart();
    test_numbered_when_nothing_else_tells_them_apart();
    return check_done("test_text_cut");
}
