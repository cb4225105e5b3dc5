#include "monitor/agents.h"

#include <dirent.h>
#include <string.h>

#include "common/ondemand.h"

void gs_mon_agents_read(const char *folder, gs_mon_steps *out)
{
    *out = (gs_mon_steps){.watched = true};
    DIR *d = opendir(folder);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        const char *dot = strrchr(e->d_name, '.');
        char text[GS_OD_TEXT_MAX], why[160];
        gs_od_status st;
        if (e->d_name[0] == '.' || !dot || strcmp(dot, GS_OD_AGENT_SUFFIX) != 0 ||
            gs_od_read_file(folder, e->d_name, text, sizeof text, NULL) < 0 ||
            gs_od_status_parse(text, strlen(text), &st, why, sizeof why) != 0)
            continue;
        out->agents++;
        /* The slowest rank sets a synchronous job's pace: its step is the job's. */
        if (st.step_ns > out->step_ns)
            out->step_ns = st.step_ns;
    }
    closedir(d);
}
