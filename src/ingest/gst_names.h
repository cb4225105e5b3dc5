/* Names in a .gst trace as torch.profiler shows them (internal to src/ingest): CUPTI hands the
 * agent kernel symbols mangled and runtime calls with a version suffix, and PyTorch's emit_nvtx
 * writes each operator call as its own NVTX range name. Done when reading, so traces recorded
 * before this reader benefit too. */
#ifndef GS_INGEST_GST_NAMES_H
#define GS_INGEST_GST_NAMES_H

#include "common/error.h"
#include "model/trace.h"

/* On a read, not yet indexed trace:
 * - kernel names demangled as libkineto does (common/demangle.h); the symbol is kept in `mangled`;
 * - runtime and driver call names without CUPTI's trailing version suffix `_vNNNN` (4 or more
 *   digits: cudaMemcpyAsync_v3020 is cudaMemcpyAsync, as Kineto and nsys name it; the driver's
 *   own `_v2` symbols such as cuMemAlloc_v2 are real function names and stay);
 * - NVTX ranges of the default domain named as emit_nvtx names operator calls
 *   (ingest/nvtx_op_name.h) become operators: their name, input shapes, sequence number and op id.
 * 0, or -1 out of memory. */
int gst_names_refine(gs_trace *t, gs_error *err);

#endif
