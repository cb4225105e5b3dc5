/* One device per physical GPU (trace.h, gs_trace_merge_devices). */
#include <stdbool.h>
#include <stdlib.h>

#include "common/vec.h"
#include "model/trace.h"

/* CUPTI always reports the SM count; NVML's records (the sampler's) never do. */
static bool from_cuda(const gs_device *d)
{
    return d->num_sms > 0;
}

static void fill_unknown(gs_device *into, const gs_device *from)
{
    if (into->name == GS_STR_EMPTY)
        into->name = from->name;
    if (!into->total_memory)
        into->total_memory = from->total_memory;
    if (!into->compute_major && !into->compute_minor) {
        into->compute_major = from->compute_major;
        into->compute_minor = from->compute_minor;
    }
    if (!into->max_threads_per_sm)
        into->max_threads_per_sm = from->max_threads_per_sm;
}

static bool id_taken(const gs_device *v, size_t n, int32_t id)
{
    for (size_t i = 0; i < n; i++)
        if (v[i].id == id)
            return true;
    return false;
}

/* The NVML index a counter names -> the id of the merged device. */
typedef struct renumber {
    int32_t from, to;
} renumber;

int gs_trace_merge_devices(gs_trace *t, gs_error *err)
{
    size_t n = t->devices.n;
    if (n < 2)
        return 0;
    gs_device *in = t->devices.v;
    gs_device *out = gs_array_new(n, sizeof *out);
    bool *used = gs_array_zeroed(n, sizeof *used);
    renumber *moves = gs_array_new(n, sizeof *moves);
    if (!out || !used || !moves) {
        free(out), free(used), free(moves);
        return gs_fail_oom(err);
    }
    size_t nout = 0, nmoves = 0;
    /* CUDA's records first, so that their ids are taken before an NVML-only GPU picks one. */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < n; i++) {
            if (used[i] || from_cuda(&in[i]) != (pass == 0))
                continue;
            gs_device d = in[i];
            used[i] = true;
            if (!from_cuda(&d) && id_taken(out, nout, d.id)) {
                int32_t id = 0;
                while (id_taken(out, nout, id) || id_taken(in, n, id))
                    id++;
                moves[nmoves++] = (renumber){d.id, id};
                d.id = id;
            } else if (!from_cuda(&d)) {
                moves[nmoves++] = (renumber){d.id, d.id};
            }
            /* The same GPU's other records, CUDA's before NVML's: they fill what is unknown. */
            for (size_t k = 0; k < 2 * n && d.uuid != GS_STR_EMPTY; k++) {
                size_t j = k % n;
                if (used[j] || in[j].uuid != d.uuid || from_cuda(&in[j]) != (k < n))
                    continue;
                used[j] = true;
                fill_unknown(&d, &in[j]);
                if (!from_cuda(&in[j]))
                    moves[nmoves++] = (renumber){in[j].id, d.id};
            }
            out[nout++] = d;
        }
    }
    for (size_t c = 0; c < t->counters.n && nmoves; c++) {
        gs_counter *k = &t->counters.v[c];
        for (size_t m = 0; m < nmoves && k->device >= 0; m++)
            if (k->device == moves[m].from) {
                k->device = moves[m].to;
                break;
            }
    }
    for (size_t i = 0; i < nout; i++)
        in[i] = out[i];
    t->devices.n = nout;
    free(out), free(used), free(moves);
    return 0;
}
