/* The CUPTI functions the agent calls, looked up at run time (cupti_load.c).
 *
 * The agent has no link dependency on libcupti: one build serves programs that use CUDA 12 and
 * programs that use CUDA 13, with whichever libcupti matches the program's CUDA runtime. The
 * record layouts are the CUDA 13 headers'; cupti_decode.c reads only what CUDA 12 writes too.
 * Entries marked optional are NULL when the loaded CUPTI does not have them. */
#ifndef GS_AGENT_CUPTI_API_H
#define GS_AGENT_CUPTI_API_H

#include <stddef.h>
#include <stdint.h>

#include <cupti_activity.h>
#include <cupti_callbacks.h>
#include <cupti_result.h>
#include <cupti_version.h>

#if CUPTI_API_VERSION < 130000
#error "the agent needs the CUDA 13 CUPTI headers (its record layouts): set CUDA_HOME"
#endif

/* cuptiGetVersion() values where something the agent depends on changed (cupti_version.h). */
#define GSA_CUPTI_VERSION_12_6 24      /* OVERHEAD records are CUpti_ActivityOverhead3 */
#define GSA_CUPTI_VERSION_13_0 130000  /* from here the version is xxyyzz; Device5.name is ours */

typedef struct gsa_cupti_api {
    uint32_t version; /* cuptiGetVersion(): 19 to 28 for CUDA 12, 130000 and up for 13 */
    CUptiResult (*Subscribe_v2)(CUpti_SubscriberHandle *subscriber, CUpti_CallbackFunc callback,
                                void *userdata, CUpti_SubscriberParams *params); /* optional */
    CUptiResult (*Subscribe)(CUpti_SubscriberHandle *subscriber, CUpti_CallbackFunc callback,
                             void *userdata);
    CUptiResult (*Unsubscribe)(CUpti_SubscriberHandle subscriber);
    CUptiResult (*EnableCallback)(uint32_t enable, CUpti_SubscriberHandle subscriber,
                                  CUpti_CallbackDomain domain, CUpti_CallbackId cbid);
    CUptiResult (*GetCallbackName)(CUpti_CallbackDomain domain, uint32_t cbid, const char **name);
    CUptiResult (*GetResultString)(CUptiResult result, const char **str);
    CUptiResult (*SetThreadIdType)(CUpti_ActivityThreadIdType type);
    CUptiResult (*ActivityEnable)(CUpti_ActivityKind kind);
    CUptiResult (*ActivityDisable)(CUpti_ActivityKind kind);
    CUptiResult (*ActivityEnableAndDump)(CUpti_ActivityKind kind); /* optional */
    CUptiResult (*ActivityEnableRuntimeApi)(CUpti_CallbackId cbid, uint8_t enable); /* optional */
    CUptiResult (*ActivityEnableDriverApi)(CUpti_CallbackId cbid, uint8_t enable);  /* optional */
    CUptiResult (*ActivityEnableAllSyncRecords)(uint8_t enable);                    /* optional */
    CUptiResult (*ActivityRegisterCallbacks)(CUpti_BuffersCallbackRequestFunc requested,
                                             CUpti_BuffersCallbackCompleteFunc completed);
    CUptiResult (*ActivityGetNextRecord)(uint8_t *buffer, size_t valid_size,
                                         CUpti_Activity **record);
    CUptiResult (*ActivityFlushAll)(uint32_t flag);
    CUptiResult (*ActivityGetNumDroppedRecords)(CUcontext context, uint32_t stream_id,
                                                size_t *dropped);
} gsa_cupti_api;

/* Fills `api` from the libcupti this process should use, in this order: one already loaded
 * (libtorch_cuda loads its own at import), one beside the loaded libcudart (the toolkit, or the
 * pip wheels' nvidia/cuda_cupti or nvidia/cu13), $GPUSCOPE_CUPTI_PATH, then the toolkit
 * ($CUDA_HOME, /usr/local/cuda). Never loads a second CUPTI major into the process and never
 * unloads one. 0, or -1 with what was tried in `msg`. */
int gsa_cupti_load(gsa_cupti_api *api, char *msg, size_t msglen);

#endif
