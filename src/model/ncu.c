#include "model/ncu.h"

#include <stdlib.h>

void gs_ncu_report_free(gs_ncu_report *r)
{
    if (r->path)
        gs_strtab_free(&r->strings);
    free(r->path);
    GS_VEC_FREE(&r->kernels);
    GS_VEC_FREE(&r->rules);
    *r = (gs_ncu_report){0};
}
