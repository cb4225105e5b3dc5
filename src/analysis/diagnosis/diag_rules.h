/* The diagnosis rules (diagnose.c; the memory rules in diag_memory.c, the roofline's in
 * diag_roofline.c), one function each, for
 * the rule table (diag_table.c); private to this folder. */
#ifndef GS_DIAG_RULES_H
#define GS_DIAG_RULES_H

#include "analysis/diagnosis/diagnose.h"

void diag_rule_data_loading(const gs_diag_inputs *in, gs_finding *f);
void diag_rule_sync(const gs_diag_inputs *in, gs_finding *f);
void diag_rule_launch(const gs_diag_inputs *in, gs_finding *f);
void diag_rule_graphs(const gs_diag_inputs *in, gs_finding *f);
void diag_rule_host(const gs_diag_inputs *in, gs_finding *f);
void diag_rule_transfer(const gs_diag_inputs *in, gs_finding *f);
void diag_rule_communication(const gs_diag_inputs *in, gs_finding *f);
void diag_rule_straggler(const gs_diag_inputs *in, gs_finding *f);
void diag_rule_compute(const gs_diag_inputs *in, gs_finding *f);
void diag_rule_tensor_cores(const gs_diag_inputs *in, gs_finding *f);
void diag_rule_low_mfu(const gs_diag_inputs *in, gs_finding *f);
void diag_rule_roofline(const gs_diag_inputs *in, gs_finding *f);
void diag_rule_memory_growth(const gs_diag_inputs *in, gs_finding *f);
void diag_rule_memory_capacity(const gs_diag_inputs *in, gs_finding *f);
void diag_rule_no_gpu(const gs_diag_inputs *in, gs_finding *f);
void diag_rule_warmup(const gs_diag_inputs *in, gs_finding *f);
void diag_rule_first_use(const gs_diag_inputs *in, gs_finding *f);

/* Whether first uses of new shapes explain the slow steps (diag_first_use.c): the warm-up rule
 * then stays silent, its advice (run more steps) being no cure for them. */
bool diag_first_use_fires(const gs_diag_inputs *in);

#endif
