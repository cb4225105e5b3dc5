#include "collect/run_sampler.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "collect/run_outputs.h"

int gs_run_sampler_start(gs_run_sampler *rs, const char *dir, gs_nvml *nvml, long pid,
                         double rate_hz, int64_t from, int64_t until, gs_error *err)
{
    *rs = (gs_run_sampler){.nvml = nvml, .fd = -1};
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/" GS_RUN_SAMPLER_FILE, dir) >= (int)sizeof path)
        return gs_fail(err, GS_EXIT_ENV, "%s: the path is too long", dir);
    if ((rs->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)) < 0)
        return gs_fail(err, GS_EXIT_ENV, "%s: %s", path, strerror(errno));
    gs_sampler_opts o = {rs->fd, nvml, "/proc", pid, rate_hz, from, until};
    if (gs_sampler_create(&o, &rs->smp, err) != 0 || gs_sampler_start(rs->smp, err) != 0) {
        gs_sampler_destroy(rs->smp);
        rs->smp = NULL;
        return -1;
    }
    return 0;
}

int gs_run_sampler_stop(gs_run_sampler *rs, gs_error *err)
{
    int rc = 0;
    if (rs->smp) {
        rc = gs_sampler_stop(rs->smp, GS_SAMPLER_STOP_WAIT_NS, err);
        rs->samples = gs_sampler_samples(rs->smp);
        gs_sampler_destroy(rs->smp);
        rs->smp = NULL;
    }
    if (rs->fd >= 0)
        close(rs->fd);
    rs->fd = -1;
    if (rc != GS_SAMPLER_ABANDONED) /* else its thread may still be inside NVML */
        gs_nvml_close(rs->nvml);
    rs->nvml = NULL;
    return rc < 0 ? -1 : 0;
}
