/* The agent's own marking API (src/agent/gpuscope_marks.h), the one gpuscope run's Python hooks
 * call through ctypes: with no NVTX and no CUDA in the process, the first call starts the agent,
 * and push/pop, a range with its own times and a mark come back from the .gst file as NVTX
 * ranges and an instant with their names, times and thread; the API's own ProfilerStep ranges do
 * not count as the program's; nothing is recorded when the nvtx part is off. */
#include "agent/gpuscope_marks.h"
#include "fake_cupti.h"

static const gs_range *range_named(const gs_trace *t, const char *name)
{
    for (size_t i = 0; i < t->ranges.n; i++)
        if (strcmp(gs_trace_str(t, t->ranges.v[i].name), name) == 0)
            return &t->ranges.v[i];
    return NULL;
}

static void test_marks(void)
{
    begin("nvtx", NULL);
    CHECK_INT(gpuscope_recording(), 1);
    int64_t before = gpuscope_now_ns();
    CHECK_INT(gpuscope_range_push("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"), 0);
    CHECK_INT(gpuscope_range_push("inner"), 1);
    CHECK_INT(gpuscope_range_pop(), 1);
    CHECK_INT(gpuscope_range_pop(), 0);
    CHECK_INT(gpuscope_range_pop(), -1); /* nothing open */
    int64_t after = gpuscope_now_ns();
    CHECK_INT(gpuscope_range_at("ProfilerStep#0", T0 + 1000, T0 + 5000), 0);
    CHECK_INT(gpuscope_range_at("backwards", T0 + 5000, T0 + 4000), -1);
    gpuscope_mark("checkpoint");
    CHECK_INT(gpuscope_program_marks_steps(), 0); /* the API's own steps are not the program's */
    gs_trace *t = finish();
    CHECK(t != NULL);
    if (!t)
        return;
    CHECK_INT(t->ranges.n, 3);
    const gs_range *dl = range_named(t, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
    const gs_range *inner = range_named(t, "inner");
    const gs_range *step = range_named(t, "ProfilerStep#0");
    CHECK(dl && inner && step);
    if (dl && inner && step) {
        CHECK_INT(dl->kind, GS_RANGE_NVTX);
        CHECK(dl->start >= before && dl->end <= after && dl->start <= inner->start &&
              inner->end <= dl->end);
        CHECK_INT(dl->tid, gsa_tid());
        CHECK_INT(dl->pid, (int64_t)getpid());
        CHECK_INT(step->start, T0 + 1000);
        CHECK_INT(step->end, T0 + 5000);
        CHECK_INT(step->tid, gsa_tid());
    }
    CHECK_INT(t->instants.n, 1);
    if (t->instants.n == 1)
        CHECK_STR(gs_trace_str(t, t->instants.v[0].name), "checkpoint");
    gs_trace_delete(t);
}

/* --trace without nvtx: every call does nothing. */
static void test_nvtx_off(void)
{
    begin("cuda", NULL);
    CHECK_INT(gpuscope_recording(), 0);
    CHECK_INT(gpuscope_range_push("x"), -1);
    CHECK_INT(gpuscope_range_pop(), -1);
    CHECK_INT(gpuscope_range_at("ProfilerStep#0", T0, T0 + 1), -1);
    gs_trace *t = finish();
    if (t)
        CHECK_INT(t->ranges.n, 0);
    gs_trace_delete(t);
}

int main(void)
{
    test_marks();
    test_nvtx_off();
    return check_done("test_agent_marks");
}
