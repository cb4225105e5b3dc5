#include "agent/agent_notes.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "agent/agent.h"

#define MAX_PENDING_NOTES 64
#define NOTE_TEXT 1400 /* CUPTI's "not found" note lists every place it looked */

typedef struct pending_note {
    int64_t ts;
    uint64_t dropped;
    int64_t overhead_ns;
    uint32_t source;
    char text[NOTE_TEXT];
} pending_note;

static struct {
    pthread_mutex_t lock;
    pending_note v[MAX_PENDING_NOTES];
    int n;
    uint64_t lost;
} q = {.lock = PTHREAD_MUTEX_INITIALIZER};

void gsa_note(uint32_t source, const char *text, uint64_t records_dropped, int64_t overhead_ns)
{
    pthread_mutex_lock(&q.lock);
    if (q.n < MAX_PENDING_NOTES) {
        pending_note *n = &q.v[q.n++];
        *n = (pending_note){gsa_now_ns(), records_dropped, overhead_ns, source, ""};
        snprintf(n->text, sizeof n->text, "%s", text ? text : "");
    } else {
        q.lost++;
    }
    pthread_mutex_unlock(&q.lock);
}

void gsa_notes_write(void)
{
    pthread_mutex_lock(&q.lock);
    pending_note notes[MAX_PENDING_NOTES];
    int n = q.n;
    memcpy(notes, q.v, (size_t)n * sizeof notes[0]);
    q.n = 0;
    uint64_t lost = q.lost;
    q.lost = 0;
    pthread_mutex_unlock(&q.lock);
    for (int i = 0; i < n; i++) {
        gst_note rec = {notes[i].ts, notes[i].dropped, notes[i].overhead_ns, notes[i].source,
                        gsa_intern(notes[i].text, strlen(notes[i].text))};
        gsa_write(GST_REC_NOTE, &rec);
    }
    if (lost) {
        const char *text = "some of gpuscope's notes about this run were lost (too many at once)";
        gst_note rec = {gsa_now_ns(), lost, 0, GST_NOTE_AGENT, gsa_intern(text, strlen(text))};
        gsa_write(GST_REC_NOTE, &rec);
    }
}

void gsa_notes_fork(enum gsa_fork_stage stage)
{
    switch (stage) {
    case GSA_FORK_PREPARE:
        pthread_mutex_lock(&q.lock);
        break;
    case GSA_FORK_PARENT:
        pthread_mutex_unlock(&q.lock);
        break;
    case GSA_FORK_CHILD:
        pthread_mutex_init(&q.lock, NULL);
        q.n = 0;
        q.lost = 0;
        break;
    }
}
