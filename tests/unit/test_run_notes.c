/* gs_run_notes_make: what `gpuscope run` prints after the program, from the notes merged out of
 * the processes' traces: CUPTI's overhead records folded into one line of what CUDA tracing cost
 * and what it was spent on, every other note once with how often it was said. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "collect/run_notes.h"

static gs_merge_note note(const char *text, uint32_t source, uint64_t count, int64_t overhead)
{
    return (gs_merge_note){strdup(text), source, count, 0, overhead};
}

int main(void)
{
    gs_merge_note notes[] = {
        note("lazy function loading", GST_NOTE_CUPTI, 74, 3874704),
        note("runtime-triggered module loading", GST_NOTE_CUPTI, 5, 6781981),
        note("CUPTI instrumentation", GST_NOTE_CUPTI, 2, 69399),
        note("activity buffer request", GST_NOTE_CUPTI, 17, 14442059),
        note("CUPTI buffer flush", GST_NOTE_CUPTI, 7, 3367192),
        note("CUPTI resource", GST_NOTE_CUPTI, 4, 5862301),
        note("5 GPU records (kernels, copies, CUDA calls) were lost: CUDA's tracing buffers were "
             "full; GPU totals are short by them (a shorter --flush-interval empties the buffers "
             "sooner)", GST_NOTE_CUPTI, 1, 0),
        note("2 NVTX ranges were still open when the program or its thread ended (a push "
             "without a pop): they are not in the trace", GST_NOTE_NVTX, 3, 0),
        /* A note of CUPTI's kind names without a time is a note, not a cost. */
        note("CUPTI resource", GST_NOTE_AGENT, 1, 0),
        /* The merge's note of a torn chunk carries its count apart from its text. */
        note("records of a chunk cut short (the process was killed while writing)",
             GST_NOTE_MERGE, 2, 0),
    };
    notes[9].records_dropped = 17;
    gs_merge_stats st = {.notes = notes, .nnotes = sizeof notes / sizeof notes[0]};
    gs_run_notes out;
    gs_error err;
    CHECK_INT(gs_run_notes_make(&st, 2144360817, &out, &err), 0);
    CHECK_INT(out.overhead_ns, 34397636);
    CHECK_INT(out.n, 5);
    if (out.n == 5) {
        CHECK_STR(out.lines[0],
                  "CUDA tracing cost the program 34.4 ms (1.6 % of its 2.14 s run): 10.7 ms "
                  "preparing kernels for tracing as CUDA loaded them, 17.8 ms handing its record "
                  "buffers over, 5.9 ms setting up for new CUDA contexts and streams");
        CHECK(strncmp(out.lines[1], "5 GPU records (kernels, copies, CUDA calls) were lost", 52) ==
              0);
        CHECK_STR(out.lines[2], "2 NVTX ranges were still open when the program or its thread "
                                "ended (a push without a pop): they are not in the trace (3 "
                                "times)");
        CHECK_STR(out.lines[3], "CUPTI resource");
        CHECK_STR(out.lines[4], "17 records were lost: a process was killed while writing its "
                                "trace (the end of its file was cut short)");
    }
    /* No word of CUPTI's own vocabulary in what is said about the cost. */
    CHECK(out.n && !strstr(out.lines[0], "CUPTI"));
    gs_run_notes_free(&out);

    /* Without the run's length: the cost alone; without overhead records: no cost line. */
    gs_merge_stats one = {.notes = notes, .nnotes = 1};
    CHECK_INT(gs_run_notes_make(&one, 0, &out, &err), 0);
    CHECK_INT(out.n, 1);
    if (out.n == 1)
        CHECK_STR(out.lines[0], "CUDA tracing cost the program 3.9 ms: 3.9 ms preparing kernels "
                                "for tracing as CUDA loaded them");
    gs_run_notes_free(&out);
    gs_merge_stats none = {.notes = notes + 6, .nnotes = 1};
    CHECK_INT(gs_run_notes_make(&none, 1000, &out, &err), 0);
    CHECK_INT(out.n, 1);
    CHECK_INT(out.overhead_ns, 0);
    gs_run_notes_free(&out);

    for (size_t i = 0; i < sizeof notes / sizeof notes[0]; i++)
        free(notes[i].text);
    return check_done("test_run_notes");
}
