/* PyTorch's name for a training step: torch.profiler records each step as a range named
 * "ProfilerStep#" followed by the step's number. Defined here, in common, because the agent (which
 * includes nothing else) matches it too; the analyses test names with gs_is_profiler_step
 * (model/trace.h). */
#ifndef GS_COMMON_PROFILER_STEP_H
#define GS_COMMON_PROFILER_STEP_H

#define GS_PROFILER_STEP_PREFIX "ProfilerStep#"

#endif
