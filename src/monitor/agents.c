#include "monitor/agents.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/ondemand.h"

/* A status that a process of this machine left when it was killed (an agent that ends removes
 * its own): its last step is no step of the job. A process of another machine is taken as
 * running: only its own machine can tell. */
static bool ended_here(const gs_od_status *st, const char *host)
{
    return strcmp(st->host, host) == 0 && gs_od_process_ended(st->pid);
}

void gs_mon_agents_read(const char *folder, gs_mon_steps *out)
{
    *out = (gs_mon_steps){.watched = true};
    DIR *d = opendir(folder);
    if (!d)
        return;
    char host[256] = "", here[GS_OD_HOST_MAX];
    gethostname(host, sizeof host - 1);
    gs_mon_strlcpy(here, sizeof here, host, strlen(host)); /* cut as the agent cuts it */
    for (struct dirent *e; (e = readdir(d));) {
        const char *dot = strrchr(e->d_name, '.');
        char text[GS_OD_TEXT_MAX], why[160];
        gs_od_status st;
        if (e->d_name[0] == '.' || !dot || strcmp(dot, GS_OD_AGENT_SUFFIX) != 0 ||
            gs_od_read_file(folder, e->d_name, text, sizeof text, NULL) < 0 ||
            gs_od_status_parse(text, strlen(text), &st, why, sizeof why) != 0 ||
            ended_here(&st, here))
            continue;
        out->agents++;
        /* The slowest rank sets a synchronous job's pace: its step is the job's. */
        if (st.step_ns > out->step_ns) {
            out->step_ns = st.step_ns;
            out->slowest_pid = (uint32_t)st.pid;
            out->has_rank = st.rank >= 0;
            out->slowest_rank = out->has_rank ? (uint32_t)st.rank : 0;
            snprintf(out->slowest_host, sizeof out->slowest_host, "%s", st.host);
        }
    }
    closedir(d);
}
