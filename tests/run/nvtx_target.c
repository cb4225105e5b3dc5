/* A program for tests of `gpuscope run` on a machine without a GPU: NVTX ranges of every kind
 * with known counts and nesting, on several threads and in a forked child.
 *
 *   nvtx_target ranges EXIT_CODE   the ranges below, then exits with EXIT_CODE
 *   nvtx_target hang PID_FILE      10 "before" ranges, writes its pid, then ranges until killed
 *   nvtx_target steps N            N ProfilerStep#i ranges, each around one "work" range
 *   nvtx_target closefds PREFIX    10 "before" ranges, then, as a daemon does, closes every
 *                                  descriptor from 3 up, opens files PREFIX.own0..7 (the numbers
 *                                  the agent's files had), and records 25000 "after" ranges in
 *                                  bursts between lines it writes to them; exits 0 when its files
 *                                  hold exactly its lines, 3 when anything else got into them
 *   nvtx_target train N MS EXIT_CODE PID_FILE [CHILDREN]
 *                                  a training loop for capture on demand: forks CHILDREN
 *                                  processes that do the same, appends each process's pid to
 *                                  PID_FILE, then N steps ProfilerStep#0..N-1 of MS ms, each
 *                                  around a "work" range; exits with EXIT_CODE (children 0)
 *   nvtx_target emit_nvtx N        N ProfilerStep#i ranges of operator calls named as PyTorch's
 *                                  emit_nvtx names them: two aten::conv2d of two shapes, each
 *                                  around an aten::convolution, and an aten::div whose only
 *                                  child is an aten::div
 *
 * Expected from `ranges`: outer 1, inner 3 (inside outer), async 1 (started here, ended on a
 * worker thread), registered-range 2 (domain "test-domain", a registered string), worker 10,
 * work-item 20 (2 inside each worker), child 2 (in a forked child); marks: tick 4. */
#include <nvtx3/nvToolsExt.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void spin_us(long us)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do
        clock_gettime(CLOCK_MONOTONIC, &t);
    while ((t.tv_sec - t0.tv_sec) * 1000000L + (t.tv_nsec - t0.tv_nsec) / 1000 < us);
}

static void *worker(void *arg)
{
    nvtxRangeId_t *async = arg;
    for (int i = 0; i < 5; i++) {
        nvtxRangePushA("worker");
        for (int j = 0; j < 2; j++) {
            /* A temporary name, overwritten after the push: the agent must copy it. */
            char name[32];
            snprintf(name, sizeof name, "work-item");
            nvtxRangePushA(name);
            memset(name, 'x', sizeof name - 1);
            spin_us(50);
            nvtxRangePop();
        }
        spin_us(20);
        nvtxRangePop();
    }
    if (async)
        nvtxRangeEnd(*async);
    return NULL;
}

static int ranges(int exit_code)
{
    /* Libraries create their domain before any range: the first NVTX call of the program. */
    nvtxDomainHandle_t domain = nvtxDomainCreateA("test-domain");

    nvtxRangePushA("outer");
    /* After the first range, so the agent's files are open: run with stdout or stderr closed,
     * these lines must not land in them. */
    printf("target stdout line\n");
    fflush(stdout);
    fprintf(stderr, "target stderr line\n");
    for (int i = 0; i < 3; i++) {
        nvtxRangePushA("inner");
        spin_us(100);
        nvtxRangePop();
    }
    spin_us(30);
    nvtxRangePop();

    nvtxRangeId_t async = nvtxRangeStartA("async");
    nvtxStringHandle_t reg = nvtxDomainRegisterStringA(domain, "registered-range");
    nvtxEventAttributes_t a;
    memset(&a, 0, sizeof a);
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    a.message.registered = reg;
    for (int i = 0; i < 2; i++) {
        nvtxDomainRangePushEx(domain, &a);
        spin_us(40);
        nvtxDomainRangePop(domain);
    }
    for (int i = 0; i < 4; i++)
        nvtxMarkA("tick");

    pthread_t t1, t2;
    pthread_create(&t1, NULL, worker, &async);
    pthread_create(&t2, NULL, worker, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);

    pid_t child = fork();
    if (child == 0) {
        for (int i = 0; i < 2; i++) {
            nvtxRangePushA("child");
            spin_us(30);
            nvtxRangePop();
        }
        exit(0);
    }
    waitpid(child, NULL, 0);
    return exit_code;
}

static int hang(const char *pid_file)
{
    for (int i = 0; i < 10; i++) {
        nvtxRangePushA("before");
        spin_us(10);
        nvtxRangePop();
    }
    /* Long enough for the agent's writer to have flushed them (its period is set short). */
    struct timespec pause = {0, 300 * 1000000L};
    nanosleep(&pause, NULL);
    FILE *f = fopen(pid_file, "w");
    if (!f)
        return 1;
    fprintf(f, "%ld\n", (long)getpid());
    fclose(f);
    for (;;) {
        nvtxRangePushA("until-killed");
        spin_us(1000);
        nvtxRangePop();
    }
}

/* N steps as a PyTorch loop annotated for gpuscope run has them: ProfilerStep#i ranges, each
 * with a "work" range inside. */
static int steps(int n)
{
    for (int i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "ProfilerStep#%d", i);
        nvtxRangePushA(name);
        nvtxRangePushA("work");
        spin_us(200);
        nvtxRangePop();
        nvtxRangePop();
        spin_us(50);
    }
    return 0;
}

/* Every descriptor from 3 up, as daemons and some launchers close them: close_range where the
 * kernel has it, else one by one up to the limit. */
static void close_from_3(void)
{
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3u, ~0u, 0u) == 0)
        return;
#endif
    struct rlimit rl;
    rlim_t top = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
                         rl.rlim_cur < (1u << 20)
                     ? rl.rlim_cur
                     : (1u << 20);
    for (rlim_t fd = 3; fd < top; fd++)
        close((int)fd);
}

#define OWN_FILES 8
#define OWN_ROUNDS 5

static int closefds(const char *prefix)
{
    for (int i = 0; i < 10; i++) {
        nvtxRangePushA("before");
        nvtxRangePop();
    }
    /* The agent's writer has flushed by now: its files are open. */
    struct timespec pause = {0, 300 * 1000000L};
    nanosleep(&pause, NULL);
    close_from_3();
    char path[OWN_FILES][4096];
    int fd[OWN_FILES];
    for (int i = 0; i < OWN_FILES; i++) {
        snprintf(path[i], sizeof path[i], "%s.own%d", prefix, i);
        fd[i] = open(path[i], O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd[i] < 0)
            return 1;
    }
    struct timespec round_pause = {0, 50 * 1000000L};
    for (int r = 0; r < OWN_ROUNDS; r++) {
        /* A burst fills the thread's buffer past half: the agent wakes its writer. */
        for (int k = 0; k < 5000; k++) {
            nvtxRangePushA("after");
            nvtxRangePop();
        }
        for (int i = 0; i < OWN_FILES; i++) {
            char line[64];
            int n = snprintf(line, sizeof line, "round %d of file %d\n", r, i);
            if (write(fd[i], line, (size_t)n) != n)
                return 1;
        }
        nanosleep(&round_pause, NULL);
    }
    nanosleep(&pause, NULL);
    int foreign = 0;
    for (int i = 0; i < OWN_FILES; i++) {
        close(fd[i]);
        char want[1024] = "", got[1024];
        for (int r = 0; r < OWN_ROUNDS; r++)
            snprintf(want + strlen(want), sizeof want - strlen(want), "round %d of file %d\n", r,
                     i);
        FILE *f = fopen(path[i], "rb");
        size_t n = f ? fread(got, 1, sizeof got, f) : 0;
        if (f)
            fclose(f);
        if (n != strlen(want) || memcmp(got, want, n) != 0) {
            fprintf(stderr, "nvtx_target: %s holds bytes it did not write\n", path[i]);
            foreign = 1;
        }
    }
    return foreign ? 3 : 0;
}

/* One operator call as torch.autograd.profiler.emit_nvtx names it. */
static void push_op(const char *name, int *seq, int *op_id, const char *sizes)
{
    char text[160];
    snprintf(text, sizeof text, "%s, seq = %d, op_id = %d%s%s", name, (*seq)++, (*op_id)++,
             sizes ? ", sizes = " : "", sizes ? sizes : "");
    nvtxRangePushA(text);
}

static int emit_nvtx(int n)
{
    static const char *const shapes[] = {"[[8, 3, 32, 32], [16, 3, 3, 3], [], [], [], [], []]",
                                         "[[8, 16, 16, 16], [32, 16, 3, 3], [], [], [], [], []]"};
    int seq = 0, op_id = 1;
    for (int i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "ProfilerStep#%d", i);
        nvtxRangePushA(name);
        for (int c = 0; c < 2; c++) {
            push_op("aten::conv2d", &seq, &op_id, shapes[c]);
            push_op("aten::convolution", &seq, &op_id, shapes[c]);
            spin_us(30);
            nvtxRangePop();
            nvtxRangePop();
        }
        push_op("aten::div", &seq, &op_id, "[[8], []]");
        push_op("aten::div", &seq, &op_id, "[[8], [8]]");
        spin_us(20);
        nvtxRangePop();
        nvtxRangePop();
        nvtxRangePop();
    }
    return 0;
}

static int train(int n, int ms, int exit_code, const char *pid_file, int children)
{
    int pids[64], forked = 0;
    bool child = false;
    for (int i = 0; i < children && i < 64 && !child; i++) {
        int pid = fork();
        if (pid == 0)
            child = true;
        else if (pid > 0)
            pids[forked++] = pid;
    }
    FILE *f = fopen(pid_file, "a");
    if (!f)
        return 2;
    fprintf(f, "%ld\n", (long)getpid());
    fclose(f);
    for (int i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "ProfilerStep#%d", i);
        nvtxRangePushA(name);
        nvtxRangePushA("work");
        struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000};
        nanosleep(&t, NULL);
        nvtxRangePop();
        nvtxRangePop();
    }
    if (child)
        return 0;
    for (int i = 0; i < forked; i++)
        waitpid(pids[i], NULL, 0);
    return exit_code;
}

int main(int argc, char **argv)
{
    if ((argc == 6 || argc == 7) && strcmp(argv[1], "train") == 0)
        return train(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), argv[5],
                     argc == 7 ? atoi(argv[6]) : 0);
    if (argc == 3 && strcmp(argv[1], "emit_nvtx") == 0)
        return emit_nvtx(atoi(argv[2]));
    if (argc == 3 && strcmp(argv[1], "steps") == 0)
        return steps(atoi(argv[2]));
    if (argc == 3 && strcmp(argv[1], "ranges") == 0)
        return ranges(atoi(argv[2]));
    if (argc == 3 && strcmp(argv[1], "hang") == 0)
        return hang(argv[2]);
    if (argc == 3 && strcmp(argv[1], "closefds") == 0)
        return closefds(argv[2]);
    fprintf(stderr, "usage: nvtx_target ranges EXIT_CODE | hang PID_FILE | closefds PREFIX | steps N | "
                    "emit_nvtx N | train N MS EXIT_CODE PID_FILE [CHILDREN]\n");
    return 2;
}
