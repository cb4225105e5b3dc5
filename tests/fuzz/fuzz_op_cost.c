/* Fuzz target for the readers of an operator's recorded arguments (src/analysis/base/op_args.c)
 * and the FLOP and byte models that read them (flops.c, op_cost.c, op_cost_vector.c,
 * op_cost_norm.c): the input is four lines, the operator's name, its Input Dims, Input type and
 * Concrete Inputs as the trace reader stores them (compact JSON). Every cost that comes out must
 * be finite and not negative. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/base/flops.h"
#include "analysis/base/op_cost.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *field[4] = {text, NULL, NULL, NULL};
    for (int i = 1; i < 4 && field[i - 1]; i++) {
        char *nl = strchr(field[i - 1], '\n');
        if (nl) {
            *nl = '\0';
            field[i] = nl + 1;
        }
    }
    gs_op_cost cost;
    gs_op_cost_compute(field[0], field[1], field[2], field[3], &cost);
    if (!isfinite(cost.flops) || !isfinite(cost.bytes) || cost.flops < 0 || cost.bytes < 0)
        abort();
    gs_op_flops f;
    gs_op_flops_compute(field[0], field[1], field[2], field[3], &f);
    if (!isfinite(f.bytes) || f.bytes < 0)
        abort();
    free(text);
    return 0;
}
