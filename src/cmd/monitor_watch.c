#include "cmd/monitor_watch.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/say.h"
#include "collect/capture_targets.h"
#include "collect/child.h"
#include "monitor/feed.h"
#include "monitor/jsonl.h"

bool gs_watch_active(const gs_watch *w, bool webhook)
{
    return w->ntriggers > 0 || webhook;
}

/* last_capture_ms of a capture claimed before the first sample: the cooldown starts at the first
 * sample's time, which gs_watch_sample puts in (a replayed log's clock is not the wall clock). */
#define CLAIMED_BEFORE_SAMPLES (INT64_MIN + 1)

/* Claims the cooldown at `now` (ms): false when a capture started less than a cooldown ago. */
static bool claim(gs_watch *w, int64_t now)
{
    int64_t last = atomic_load(&w->last_capture_ms);
    do
        if (last == CLAIMED_BEFORE_SAMPLES || (last != INT64_MIN && now - last < w->cooldown_ms))
            return false;
    while (!atomic_compare_exchange_weak(&w->last_capture_ms, &last, now));
    return true;
}

static void reap(gs_watch *w, bool block)
{
    for (size_t i = 0; i < w->nchildren;) {
        int status;
        pid_t got = waitpid(w->children[i], &status, block ? 0 : WNOHANG);
        if (got == 0 || (got < 0 && errno == EINTR)) {
            i++;
            continue;
        }
        if (got > 0)
            gs_say("monitor: capture (process %ld) %s %d", (long)got,
                   WIFSIGNALED(status) ? "was killed by signal" : "ended with status",
                   WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
        w->children[i] = w->children[--w->nchildren];
    }
}

/* Starts `gpuscope capture TARGET ...` without waiting for it. */
static void spawn(gs_watch *w, const char *target, bool job, const char *why)
{
    char steps[32], duration[32];
    char *argv[12];
    int n = 0;
    argv[n++] = "/proc/self/exe"; /* this gpuscope, whatever PATH holds */
    argv[n++] = "capture";
    argv[n++] = "-q"; /* the monitor's stdout is its own (a table, JSON lines) */
    if (job)
        argv[n++] = "--job";
    argv[n++] = (char *)target;
    if (w->capture_steps) {
        snprintf(steps, sizeof steps, "%zu", w->capture_steps);
        argv[n++] = "--steps";
        argv[n++] = steps;
    } else {
        snprintf(duration, sizeof duration, "%g", w->capture_duration_s);
        argv[n++] = "--duration";
        argv[n++] = duration;
    }
    if (w->capture_output) {
        argv[n++] = "-o";
        argv[n++] = (char *)w->capture_output;
    }
    argv[n] = NULL;
    pid_t pid;
    gs_error err;
    if (w->nchildren == GS_WATCH_MAX_CHILDREN || gs_child_start(argv, &pid, &err) != 0) {
        gs_say("monitor: %s: cannot start a capture: %s", why,
               w->nchildren == GS_WATCH_MAX_CHILDREN ? "too many under way" : err.msg);
        return;
    }
    w->children[w->nchildren++] = pid;
    gs_say("monitor: %s: capture %s%s %s %s (process %ld)", why, job ? "--job " : "", target,
           argv[job ? 5 : 4], argv[job ? 6 : 5], (long)pid);
}

/* The watched programs: the job folder, else every GPU process that runs with an agent, when
 * the sample is this machine's (a replayed log's pids may be another's). */
static void capture(gs_watch *w, const char *why)
{
    if (w->agents) {
        spawn(w, w->agents, true, why);
        return;
    }
    char host[GS_MON_HOST_MAX] = "";
    gethostname(host, sizeof host - 1);
    if (strcmp(w->latest.hostname, host) != 0) {
        gs_say("monitor: %s, but the sample is %s's, not this machine's: give --agents DIR to "
               "capture",
               why, w->latest.hostname);
        return;
    }
    size_t started = 0;
    long seen[GS_WATCH_MAX_CHILDREN];
    size_t nseen = 0;
    for (size_t g = 0; g < w->latest.ngpus; g++)
        for (size_t p = 0; p < w->latest.gpus[g].nprocs; p++) {
            long pid = (long)w->latest.gpus[g].procs[p].pid;
            bool dup = false;
            for (size_t i = 0; i < nseen; i++)
                dup |= seen[i] == pid;
            char folder[PATH_MAX], text[32];
            gs_error err;
            if (dup || nseen == GS_WATCH_MAX_CHILDREN ||
                gs_capture_folder_of(pid, "/proc", folder, sizeof folder, &err) != 0)
                continue;
            seen[nseen++] = pid;
            snprintf(text, sizeof text, "%ld", pid);
            spawn(w, text, false, why);
            started++;
        }
    if (!started)
        gs_say("monitor: %s, but no GPU process runs under `gpuscope run --on-demand` (or give "
               "--agents DIR)",
               why);
}

/* "; slowest: rank R, process P on HOST": where to look first. */
static void slowest(const gs_mon_steps *st, char *out, size_t cap)
{
    char rank[32] = "";
    if (!st->slowest_pid)
        return;
    if (st->has_rank)
        snprintf(rank, sizeof rank, "rank %u, ", (unsigned)st->slowest_rank);
    snprintf(out, cap, "; slowest: %sprocess %u on %s", rank, (unsigned)st->slowest_pid,
             st->slowest_host);
}

/* The capture a webhook asked for, if one did, said with its alerts' names. */
static void webhook_capture(gs_watch *w)
{
    if (!atomic_exchange(&w->webhook_pending, false))
        return;
    char why[64 + GS_WEBHOOK_NAMES_MAX];
    pthread_mutex_lock(&w->webhook_lock);
    snprintf(why, sizeof why, "Alertmanager webhook%s%s%s", w->webhook_names[0] ? " (" : "",
             w->webhook_names, w->webhook_names[0] ? ")" : "");
    pthread_mutex_unlock(&w->webhook_lock);
    capture(w, why);
}

int gs_watch_sample(gs_watch *w, const gs_snapshot *s)
{
    reap(w, false);
    if (gs_snapshot_copy(&w->latest, s) != 0)
        return -1;
    atomic_store(&w->sample_ms, s->ts_ms);
    int64_t before_samples = CLAIMED_BEFORE_SAMPLES;
    atomic_compare_exchange_strong(&w->last_capture_ms, &before_samples, s->ts_ms);
    /* Every trigger sees every sample (its history is its baseline); the first that fired
     * outside the cooldown captures. */
    for (size_t i = 0; i < w->ntriggers; i++) {
        gs_trigger *t = &w->triggers[i];
        gs_trigger_eval e;
        if (gs_trigger_feed(t, s, &e) != 0)
            return -1;
        if (e.fired) {
            char from[GS_JSONL_NUMBER_BUF], to[GS_JSONL_NUMBER_BUF], who[160] = "", why[512];
            if (gs_trigger_needs_steps(t))
                slowest(&s->steps, who, sizeof who);
            snprintf(why, sizeof why, "trigger '%s' held from %s to %s (%.4g %s against %.4g%s)",
                     t->text, gs_jsonl_ts(from, e.since_ms), gs_jsonl_ts(to, s->ts_ms), e.value,
                     gs_trigger_unit(t), e.threshold, who);
            /* In the cooldown it stays fired, and captures as soon as the cooldown ends; after a
             * capture it must hold for its duration again. */
            if (claim(w, s->ts_ms)) {
                capture(w, why);
                gs_trigger_rearm(t);
            }
        }
    }
    webhook_capture(w);
    return 0;
}

void gs_watch_idle(gs_watch *w)
{
    reap(w, false);
    webhook_capture(w);
}

int gs_watch_webhook(void *ctx, const char *alert_names, const char **message)
{
    gs_watch *w = ctx;
    /* At the latest sample's time, the clock the triggers claim on: a replayed log's is not the
     * wall clock. Before the first sample, at the first sample's time. */
    int64_t now = atomic_load(&w->sample_ms);
    if (!claim(w, now != INT64_MIN ? now : CLAIMED_BEFORE_SAMPLES)) {
        *message = "too many requests: a capture started less than --cooldown ago\n";
        return 429;
    }
    pthread_mutex_lock(&w->webhook_lock);
    snprintf(w->webhook_names, sizeof w->webhook_names, "%s", alert_names);
    pthread_mutex_unlock(&w->webhook_lock);
    atomic_store(&w->webhook_pending, true);
    *message = "accepted: a capture starts with the next sample\n";
    return 202;
}

void gs_watch_finish(gs_watch *w)
{
    webhook_capture(w);
    reap(w, false);
    /* A capture of steps waits for them up to its --timeout (600 s): say why the monitor has
     * not ended yet. */
    if (w->nchildren) {
        char pids[128] = "";
        for (size_t i = 0, n = 0; i < w->nchildren && n < sizeof pids - 16; i++)
            n += (size_t)snprintf(pids + n, sizeof pids - n, "%s%ld", i ? ", " : "",
                                  (long)w->children[i]);
        gs_say("monitor: waiting for %zu capture%s under way (process%s %s)", w->nchildren,
               w->nchildren > 1 ? "s" : "", w->nchildren > 1 ? "es" : "", pids);
    }
    reap(w, true);
    for (size_t i = 0; i < w->ntriggers; i++)
        gs_trigger_free(&w->triggers[i]);
    gs_snapshot_free(&w->latest);
}
