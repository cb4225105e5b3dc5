/* The environment through which `gpuscope run` talks to the agent it injects (the only channel:
 * the agent lives in another program). Shared by the launcher and the agent. */
#ifndef GS_COMMON_RUN_ENV_H
#define GS_COMMON_RUN_ENV_H

#define GS_ENV_RUN_DIR "GPUSCOPE_RUN_DIR"   /* where per-process files go */
#define GS_ENV_OUTPUT "GPUSCOPE_OUTPUT"     /* the -o pattern, expanded in each process */
#define GS_ENV_TRACE "GPUSCOPE_TRACE"       /* "cuda,nvtx,memory": the parts to record */
#define GS_ENV_FLUSH_MS "GPUSCOPE_FLUSH_MS" /* the writer's period, default 200 */
#define GS_ENV_CAPTURE "GPUSCOPE_CAPTURE"   /* capture windows: src/agent/capture.h */

/* The Python hooks (doc/run.md): the launcher puts their folder first on PYTHONPATH, and tells
 * them where the agent is (they load it with ctypes) and whether to mark every operator. */
#define GS_ENV_PYTHONPATH "PYTHONPATH"
#define GS_ENV_AGENT "GPUSCOPE_AGENT"         /* the agent's path */
#define GS_ENV_TORCH_OPS "GPUSCOPE_TORCH_OPS" /* "1": --torch-ops */

/* Set by the launcher; the CUDA driver and NVTX load the agent from them. */
#define GS_ENV_CUDA_INJECTION "CUDA_INJECTION64_PATH"
#define GS_ENV_NVTX_INJECTION "NVTX_INJECTION64_PATH"

/* The agent's file name, looked for beside the gpuscope binary. */
#define GS_AGENT_FILE "libgpuscope_agent.so"
/* The Python hooks' folder (its sitecustomize.py), beside the agent. */
#define GS_PYTHON_HOOKS_DIR "python-hooks"

#endif
