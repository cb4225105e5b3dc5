/* The replay's actions: what each transformation changes and what it assumes (doc/whatif.md
 * derives each). The transformations themselves are in replay_transform.c, in the same order. */
#include "analysis/replay/replay.h"

#include <string.h>

static const gs_replay_action_info actions[GS_REPLAY__COUNT] = {
    [GS_REPLAY_CUDA_GRAPHS] =
        {"cuda_graphs", "CUDA graphs",
         "each run of launches between two blocking calls becomes one graph launch: the launch "
         "calls and the operators' dispatch time around them go, Python time stays, and the "
         "graph's kernels follow one another at the stream's least gap",
         "the step's launches can be captured (static shapes, no host sync inside a graph); one "
         "graph launch costs what the first launch call of the run cost (PyTorch's CUDA Graphs "
         "post, 2021; torch.compile mode=\"reduce-overhead\")"},
    [GS_REPLAY_COMPILE] =
        {"compile", "torch.compile fusion",
         "chains of elementwise kernels that follow one another on a stream become one kernel "
         "as long as the chain's longest, their launch calls go, and the operators' dispatch "
         "time leaves the host (Python time and the other launch calls stay)",
         "a fused chain makes one memory pass instead of one per kernel, and the generated code "
         "launches kernels without ATen's dispatcher (TorchInductor, PyTorch 2 paper, ASPLOS "
         "2024); the matmuls, convolutions and collectives, the optimizer's step and regions "
         "compiled already are not changed"},
    [GS_REPLAY_DATALOADER_WORKERS] =
        {"dataloader_workers", "More DataLoader workers",
         "the step's wait for its batch becomes what k worker processes leave: batches arrive "
         "one per loading time / k, and the main process keeps a tenth of the loading time per "
         "batch to receive it",
         "loading in the main process (_SingleProcessDataLoaderIter) costs what it waited; with "
         "workers already (_MultiProcessingDataLoaderIter) their number is unknown and doubling "
         "it halves the time between batches; workers run on other cores (PyTorch's "
         "torch.utils.data documentation, num_workers)"},
    [GS_REPLAY_PINNED_MEMORY] =
        {"pinned_memory", "Pinned memory and non_blocking copies",
         "copies from or to pageable host memory run at the pinned bandwidth the trace shows "
         "(else the GPU generation's PCIe bandwidth) and host-to-device ones no longer block "
         "the host",
         "pin_memory=True and .to(non_blocking=True) (PyTorch's pinned memory tutorial); "
         "device-to-host results are used on the host, so those copies still block"},
    [GS_REPLAY_REMOVE_SYNCS] =
        {"remove_syncs", "No host synchronization",
         "blocking calls (synchronize, .item(), blocking copies to the host) stop waiting for "
         "the GPU: the host goes on and queues the next work",
         "the values read on the host are not needed at once (a loss logged every N steps, a "
         "check moved to the GPU); the call's own cost after the GPU finished stays"},
    [GS_REPLAY_MIXED_PRECISION] =
        {"mixed_precision", "Mixed precision on Tensor Cores",
         "kernels of Tensor-Core-eligible operators that ran without Tensor Cores run 3x faster, "
         "on a GPU whose Tensor Cores take a precision the model can use",
         "NVIDIA's Automatic Mixed Precision page: up to 3x on whole models; the peak ratios "
         "are above what kernels not at the fp32 peak gain; other kernels are left as they ran"},
    [GS_REPLAY_FUSED_OPTIMIZER] =
        {"fused_optimizer", "Fused optimizer",
         "the optimizer step's kernels follow one another without gaps and its host time "
         "(operators and launches) shrinks to one launch per 100 kernels it made",
         "torch.optim's foreach/fused implementations apply one kernel to many parameters "
         "(multi_tensor_apply); the bytes moved, and so the kernels' own time, stay"},
    [GS_REPLAY_OVERLAP_COMM] =
        {"overlap_comm", "Communication overlapped with compute",
         "collectives launched in the backward pass or after it may start as soon as the "
         "backward compute before them in proportion has run (gradients ready bucket by "
         "bucket), on their own stream",
         "gradients become ready evenly over the backward pass (DDP's bucketing, Li et al., "
         "VLDB 2020); collectives in the forward pass (tensor parallel) keep their place"},
    [GS_REPLAY_ROOF_TARGET] =
        {"roof_target", "The largest operator group brought up to half its roof",
         "the kernels, memsets and device copies launched by the operator group with the most "
         "GPU time, when it reached under half of its roof (doc/roofline.md), take the time "
         "that half of the roof allows: their time x the share reached / 0.5",
         "a fix exists that brings the group to half its roof (fusion, a smaller type, a "
         "layout or shapes the library's fast kernels take): tuned libraries reach 60 to 80 % "
         "of a roof on large problems; the other operators' work and the host are unchanged"},
    [GS_REPLAY_NO_PROFILER] =
        {"no_profiler", "Without the profiler's cost",
         "each recorded operator, range and traced GPU activity gives back the profiler's "
         "estimated host cost per event",
         "the unit costs of doc/diagnosis.md (\"The profiler's own cost\"), measured on one "
         "machine"},
};

const gs_replay_action_info *gs_replay_action_get(enum gs_replay_action a)
{
    return a > GS_REPLAY_NONE && a < GS_REPLAY__COUNT ? &actions[a] : NULL;
}

enum gs_replay_action gs_replay_action_find(const char *name, size_t len)
{
    for (int a = GS_REPLAY_NONE + 1; a < GS_REPLAY__COUNT; a++)
        if (strlen(actions[a].name) == len && memcmp(actions[a].name, name, len) == 0)
            return (enum gs_replay_action)a;
    return GS_REPLAY_NONE;
}
