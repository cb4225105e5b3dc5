/* Finding libcupti at run time (cupti_api.h). The program decides which CUDA it uses (a cu12 or
 * cu13 PyTorch wheel, a toolkit); the agent must follow it, because a second CUPTI major in one
 * process breaks both. So a libcupti the program already loaded wins, then one beside its
 * libcudart, and only then the environment and the toolkit. */
#include "agent/cupti_api.h"
#include "common/util.h"

#include <dlfcn.h>
#include <link.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ENV_CUPTI_PATH "GPUSCOPE_CUPTI_PATH"

/* What was tried, for the note the agent writes when no CUPTI could be used. */
typedef struct tried {
    char *msg;
    size_t cap, len;
} tried;

static void say(tried *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(tried *t, const char *fmt, ...)
{
    if (t->len + 1 >= t->cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->msg + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        t->len = t->len + (size_t)n < t->cap ? t->len + (size_t)n : t->cap - 1;
}

/* The major version in a name ending in ".so.N" (libcupti.so.12 -> 12), 0 when there is none. */
static int soname_major(const char *path)
{
    const char *so = strstr(path, ".so.");
    if (!so)
        return 0;
    int major = atoi(so + 4);
    return major > 0 ? major : 0;
}

typedef struct cudart {
    char dir[PATH_MAX]; /* the folder of the loaded libcudart.so.N */
    int major;
} cudart;

static int find_cudart(struct dl_phdr_info *info, size_t size, void *ctx)
{
    (void)size;
    cudart *found = ctx;
    const char *name = info->dlpi_name;
    const char *base = name ? strrchr(name, '/') : NULL;
    if (!base || strncmp(base + 1, "libcudart.so.", 13) != 0)
        return 0;
    size_t dirlen = (size_t)(base - name);
    if (dirlen >= sizeof found->dir)
        return 0;
    memcpy(found->dir, name, dirlen);
    found->dir[dirlen] = '\0';
    found->major = soname_major(base);
    return found->major > 0; /* stop at the first one */
}

#define LOAD(field, required)                                                                     \
    do {                                                                                           \
        void *sym_ = dlsym(handle, "cupti" #field);                                                \
        _Static_assert(sizeof sym_ == sizeof api->field, "function and data pointers differ");     \
        memcpy(&api->field, &sym_, sizeof sym_);                                                   \
        if ((required) && !sym_) {                                                                 \
            say(t, "%s lacks cupti" #field "; ", what);                                           \
            return -1;                                                                             \
        }                                                                                          \
    } while (0)

/* Fills the table from a loaded libcupti. */
static int bind(void *handle, const char *what, gsa_cupti_api *api, tried *t)
{
    memset(api, 0, sizeof *api);
    CUptiResult (*get_version)(uint32_t *) = NULL;
    void *sym = dlsym(handle, "cuptiGetVersion");
    memcpy(&get_version, &sym, sizeof sym);
    if (!get_version || get_version(&api->version) != CUPTI_SUCCESS) {
        say(t, "%s: cuptiGetVersion failed; ", what);
        return -1;
    }
    LOAD(Subscribe_v2, false);
    LOAD(Subscribe, true);
    LOAD(Unsubscribe, true);
    LOAD(EnableCallback, true);
    LOAD(GetCallbackName, true);
    LOAD(GetResultString, true);
    LOAD(SetThreadIdType, true);
    LOAD(ActivityEnable, true);
    LOAD(ActivityDisable, true);
    LOAD(ActivityEnableAndDump, false);
    LOAD(ActivityEnableRuntimeApi, false);
    LOAD(ActivityEnableDriverApi, false);
    LOAD(ActivityEnableAllSyncRecords, false);
    LOAD(ActivityRegisterCallbacks, true);
    LOAD(ActivityGetNextRecord, true);
    LOAD(ActivityFlushAll, true);
    LOAD(ActivityGetNumDroppedRecords, true);
    return 0;
}

/* Loads `path` if it exists. 1 when loaded (then the table is filled or the load failed for
 * good: a loaded CUPTI is never unloaded, so no other may follow), 0 when absent. */
static int try_path(const char *path, gsa_cupti_api *api, tried *t, int *rc)
{
    if (access(path, F_OK) != 0) {
        say(t, "%s (absent); ", path);
        return 0;
    }
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *err = dlerror();
        say(t, "%s (%s); ", path, err ? err : "dlopen failed");
        return 0;
    }
    *rc = bind(handle, path, api, t);
    return 1;
}

/* Loads a library by soname through the loader's search path (LD_LIBRARY_PATH, ld.so.cache). */
static int try_soname(const char *soname, int flags, gsa_cupti_api *api, tried *t, int *rc)
{
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL | flags);
    if (!handle) {
        say(t, "%s%s (not %s); ", soname, flags ? "" : " by soname",
            flags ? "loaded" : "found");
        return 0;
    }
    *rc = bind(handle, soname, api, t);
    return 1;
}

int gsa_cupti_load(gsa_cupti_api *api, char *msg, size_t msglen)
{
    tried t = {msg, msglen, 0};
    if (msglen)
        msg[0] = '\0';
    say(&t, "no usable libcupti, tried: ");
    int rc = -1;

    /* 1. The program's own: loading another would put two CUPTIs in the process. */
    static const char *const sonames[] = {"libcupti.so.13", "libcupti.so.12"};
    for (size_t i = 0; i < COUNT_OF(sonames); i++)
        if (try_soname(sonames[i], RTLD_NOLOAD, api, &t, &rc))
            return rc;

    /* 2. Beside the program's libcudart: its CUPTI has the same major version. */
    cudart rt = {"", 0};
    dl_iterate_phdr(find_cudart, &rt);
    char path[PATH_MAX + 64];
    if (rt.major > 0) {
        static const char *const layouts[] = {
            "%s/libcupti.so.%d",                   /* toolkit lib64, pip nvidia/cu13/lib */
            "%s/../../cuda_cupti/lib/libcupti.so.%d", /* pip nvidia/cuda_runtime -> cuda_cupti */
            "%s/../extras/CUPTI/lib64/libcupti.so.%d", /* classic toolkit layout */
        };
        for (size_t i = 0; i < COUNT_OF(layouts); i++) {
            snprintf(path, sizeof path, layouts[i], rt.dir, rt.major);
            if (try_path(path, api, &t, &rc))
                return rc;
        }
    }

    /* 3. The user's choice, unless it contradicts the program's CUDA major. */
    const char *env = getenv(ENV_CUPTI_PATH);
    if (env && *env) {
        int major = soname_major(env);
        if (rt.major > 0 && major > 0 && major != rt.major)
            say(&t, "%s=%s (the program uses libcudart.so.%d); ", ENV_CUPTI_PATH, env, rt.major);
        else if (try_path(env, api, &t, &rc))
            return rc;
    }

    /* 4. The toolkit, the program's major first when it is known. */
    const char *cuda_home = getenv("CUDA_HOME");
    const char *roots[] = {cuda_home && *cuda_home ? cuda_home : NULL, "/usr/local/cuda"};
    static const char *const subdirs[] = {"lib64", "extras/CUPTI/lib64"};
    int majors[] = {rt.major > 0 ? rt.major : 13, rt.major > 0 ? 0 : 12};
    for (size_t m = 0; m < 2 && majors[m]; m++) {
        for (size_t r = 0; r < 2; r++) {
            for (size_t s = 0; roots[r] && s < 2; s++) {
                snprintf(path, sizeof path, "%s/%s/libcupti.so.%d", roots[r], subdirs[s],
                         majors[m]);
                if (try_path(path, api, &t, &rc))
                    return rc;
            }
        }
        snprintf(path, sizeof path, "libcupti.so.%d", majors[m]);
        if (try_soname(path, 0, api, &t, &rc))
            return rc;
    }
    return -1;
}
