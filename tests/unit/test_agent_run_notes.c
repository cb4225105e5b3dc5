/* From CUPTI's records to what `gpuscope run` prints, without a GPU: the fake CUPTI
 * (fake_cupti.h) hands the real agent overhead records and lost-record counts, or refuses it as
 * when another profiler holds CUPTI; the agent's .gst is merged as the launcher merges it
 * (gst_merge.h) and worded as the run summary words it (run_notes.h). */
#include "collect/gst_merge.h"
#include "collect/run_notes.h"
#include "fake_cupti.h"

/* Ends the agent, merges its file into a fresh output, and words the notes for a run of run_ns. */
static gs_run_notes end_and_word(int64_t run_ns)
{
    char path[PATH_MAX], merged[] = "/tmp/test_agent_run_notes_XXXXXX";
    snprintf(path, sizeof path, "%s", gsa_file_path());
    gsa_shutdown();
    int fd = mkstemp(merged);
    CHECK(fd >= 0);
    close(fd);
    const char *inputs[] = {path};
    gs_merge_stats st;
    gs_error err;
    gs_run_notes notes = {0};
    CHECK_INT(gs_gst_merge(inputs, 1, merged, true, &st, &err), 0);
    CHECK_INT(gs_run_notes_make(&st, run_ns, &notes, &err), 0);
    gs_merge_stats_free(&st);
    unlink(path);
    unlink(merged);
    return notes;
}

static CUpti_ActivityOverhead3 overhead(CUpti_ActivityOverheadKind kind, int64_t start,
                                        int64_t ns)
{
    return (CUpti_ActivityOverhead3){.kind = CUPTI_ACTIVITY_KIND_OVERHEAD, .overheadKind = kind,
                                     .start = (uint64_t)(T0 + start),
                                     .end = (uint64_t)(T0 + start + ns),
                                     .overheadData = malloc(16)};
}

/* Three kinds of overhead and 5 records CUPTI dropped: one cost line, one loss line. */
static void test_overhead_and_loss(void)
{
    gsa_cupti_api api = fake_api(13, 130001);
    begin(NULL, NULL);
    CHECK(gsa_cupti_start(&api));
    CUpti_ActivityOverhead3 lazy = overhead(CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING, 0,
                                            1500000);
    CUpti_ActivityOverhead3 buffers = overhead(CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST,
                                               2000000, 2000000);
    CUpti_ActivityOverhead3 resource = overhead(CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE, 5000000,
                                                1000000);
    const void *records[] = {&lazy, &buffers, &resource};
    feed(records, 3);
    atomic_store(&fake.dropped, 5);
    gs_run_notes notes = end_and_word(90000000);
    CHECK_INT(notes.overhead_ns, 4500000);
    CHECK_INT(notes.n, 2);
    if (notes.n == 2) {
        CHECK_STR(notes.lines[0],
                  "CUDA tracing cost the program 4.5 ms (5.0 % of its 90.0 ms run): 1.5 ms "
                  "preparing kernels for tracing as CUDA loaded them, 2.0 ms handing its record "
                  "buffers over, 1.0 ms setting up for new CUDA contexts and streams");
        CHECK_STR(notes.lines[1],
                  "5 GPU records (kernels, copies, CUDA calls) were lost: CUDA's tracing buffers "
                  "were full; GPU totals are short by them (a shorter --flush-interval empties "
                  "the buffers sooner)");
    }
    gs_run_notes_free(&notes);
}

/* Another profiler holds CUPTI: the line says what is missing and what to do, in users' words. */
static void test_other_profiler(void)
{
    gsa_cupti_api api = fake_api(13, 130001);
    fake.subscribe_rc = CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    begin(NULL, NULL);
    CHECK(!gsa_cupti_start(&api));
    gs_run_notes notes = end_and_word(0);
    CHECK_INT(notes.overhead_ns, 0);
    CHECK_INT(notes.n, 1);
    if (notes.n == 1) {
        CHECK(strstr(notes.lines[0], "another profiler ('Nsight Systems') was already tracing "
                                     "CUDA in this process") == notes.lines[0]);
        CHECK(strstr(notes.lines[0], "run gpuscope without the other profiler") != NULL);
        CHECK(strstr(notes.lines[0], "note:") == NULL);
    }
    gs_run_notes_free(&notes);
}

int main(void)
{
    test_overhead_and_loss();
    test_other_profiler();
    return check_done("test_agent_run_notes");
}
