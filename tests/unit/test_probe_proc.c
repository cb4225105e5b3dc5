/* Process-tree CPU and memory over a fake /proc: nested descendants found by ppid, comm fields
 * with spaces and parentheses, exact tick sums and CPU % between two reads (growth, exits, new
 * processes, a reused pid), RSS sums; the host's CPU % between two reads of /proc/stat, its
 * memory from /proc/meminfo and process names; then one read of the real /proc. */
#include <math.h>

#include "check.h"
#include "fake_proc.h"
#include "probe/proc.h"

static void build_tree(void)
{
    fake_proc_set(100, "python train.py", 1, 1000, 200, 5000, 100000);
    /* A comm that looks like the fields after it: only the last ')' ends it. */
    fake_proc_set(101, "a) S 999 (b c", 100, 300, 30, 5100, 2000);
    fake_proc_set(102, "(( worker ))", 101, 50, 5, 5200, 1000);
    fake_proc_set(103, "kworker", 102, 7, 3, 5300, -1);
    fake_proc_set(200, "bash", 1, 900, 99, 100, 5000); /* not in the tree */
    fake_proc_set(201, "vim", 200, 1, 1, 200, 5000);
    fake_proc_set(300, "loop-a", 301, 1, 0, 10, 4); /* a parent cycle, only in a fake */
    fake_proc_set(301, "loop-b", 300, 2, 0, 11, 4);
    fake_proc_write("self", "stat", "1 (init) S 0 1 1 0 -1 0 0 0 0 0 1 1 0 0 20 0 1 0 1\n");
    fake_proc_write("104", "stat", "104 garbage without a comm\n");
    fake_proc_write("106", "status", "Name:\tgone\n"); /* a pid directory with no stat */
}

static void test_tree(void)
{
    gs_proc_tree prev = {0}, cur = {0};
    gs_error err;
    CHECK_INT(gs_proc_read_tree(fake_proc_root, 100, &prev, &err), 0);
    CHECK_INT(prev.n, 4);
    if (prev.n == 4) {
        CHECK_INT(prev.v[0].pid, 100);
        CHECK_INT(prev.v[1].pid, 101);
        CHECK_INT(prev.v[1].ppid, 100);
        CHECK_INT(prev.v[1].cpu_ticks, 330);
        CHECK_INT(prev.v[1].start_ticks, 5100);
        CHECK_INT(prev.v[1].rss_bytes, 2000 * 1024);
        CHECK_INT(prev.v[2].pid, 102);
        CHECK_INT(prev.v[2].ppid, 101);
        CHECK_INT(prev.v[3].pid, 103);
        CHECK_INT(prev.v[3].ppid, 102);
        CHECK_INT(prev.v[3].rss_bytes, 0);
    }
    CHECK_INT(prev.cpu_ticks, 1200 + 330 + 55 + 10);
    CHECK_INT(prev.rss_bytes, (100000 + 2000 + 1000) * 1024ull);

    /* Between the reads: 100 and 101 run, 103 exits, 102 exits and its pid goes to a new
     * process (another start time), 105 is born under 100; 200 outside the tree runs too. */
    fake_proc_set(100, "python train.py", 1, 1020, 200, 5000, 100004);
    fake_proc_set(101, "a) S 999 (b c", 100, 350, 30, 5100, 2000);
    fake_proc_remove(103);
    fake_proc_set(102, "(( worker ))", 101, 5, 2, 9999, 10);
    fake_proc_set(105, "dataloader 0", 100, 25, 5, 9000, 30);
    fake_proc_set(200, "bash", 1, 1400, 99, 100, 5000);
    CHECK_INT(gs_proc_read_tree(fake_proc_root, 100, &cur, &err), 0);
    CHECK_INT(cur.n, 4);
    if (cur.n == 4)
        CHECK_INT(cur.v[3].pid, 105);
    CHECK_INT(cur.cpu_ticks, 1220 + 380 + 7 + 30);
    CHECK_INT(cur.rss_bytes, (100004 + 2000 + 10 + 30) * 1024ull);
    CHECK_INT(gs_proc_ticks_between(&prev, &cur), 20 + 50 + 7 + 30);
    double pct = gs_proc_cpu_pct(&prev, &cur, 500000000, 100); /* 1.07 s of CPU in 0.5 s */
    CHECK(fabs(pct - 214.0) < 1e-9);
    CHECK(gs_proc_cpu_pct(&prev, &cur, 0, 100) == 0);
    CHECK_INT(gs_proc_ticks_between(&cur, &cur), 0);
    /* Reversed (ticks going down) never yields a negative or wrapped count. */
    CHECK_INT(gs_proc_ticks_between(&cur, &prev), 55 + 10); /* only 102's old owner and 103 */

    /* A read reuses the tree's memory: reading another root replaces it. */
    CHECK_INT(gs_proc_read_tree(fake_proc_root, 200, &cur, &err), 0);
    CHECK_INT(cur.n, 2);
    CHECK_INT(cur.cpu_ticks, 1499 + 2);
    CHECK_INT(gs_proc_read_tree(fake_proc_root, 300, &cur, &err), 0);
    CHECK_INT(cur.n, 2);
    CHECK_INT(cur.cpu_ticks, 3);

    /* The target has exited: an empty tree, not an error. */
    CHECK_INT(gs_proc_read_tree(fake_proc_root, 4242, &cur, &err), 0);
    CHECK_INT(cur.n, 0);
    CHECK_INT(cur.cpu_ticks, 0);
    CHECK_INT(cur.rss_bytes, 0);

    char missing[128];
    snprintf(missing, sizeof missing, "%s/none", fake_proc_root);
    CHECK_INT(gs_proc_read_tree(missing, 100, &cur, &err), -1);
    CHECK_INT(err.code, GS_EXIT_ENV);
    char want[192];
    snprintf(want, sizeof want, "cannot read %s: No such file or directory", missing);
    CHECK_STR(err.msg, want);
    gs_proc_tree_free(&prev);
    gs_proc_tree_free(&cur);
    CHECK(cur.v == NULL && cur.all == NULL && cur.n == 0);
}

/* The real kernel's format: this process is found, with memory, and its time only grows. */
static void test_real_proc(void)
{
    gs_proc_tree a = {0}, b = {0};
    gs_error err;
    CHECK_INT(gs_proc_read_tree("/proc", getpid(), &a, &err), 0);
    CHECK(a.n >= 1);
    if (a.n >= 1) {
        CHECK_INT(a.v[0].pid, getpid());
        CHECK_INT(a.v[0].ppid, getppid());
        CHECK(a.v[0].rss_bytes > 0);
        CHECK(a.v[0].start_ticks > 0);
    }
    volatile double x = 0;
    for (int i = 0; i < 20000000; i++)
        x += i * 0.5;
    CHECK(x > 0); /* uses the busy loop's result, so it is not optimised away */
    CHECK_INT(gs_proc_read_tree("/proc", getpid(), &b, &err), 0);
    CHECK(b.cpu_ticks >= a.cpu_ticks);
    CHECK_INT(gs_proc_ticks_between(&a, &b), b.cpu_ticks - a.cpu_ticks);
    CHECK(gs_proc_ticks_per_second() > 0);
    gs_proc_tree_free(&a);
    gs_proc_tree_free(&b);
}

/* Host: busy is every /proc/stat column but idle and iowait; a smaller total (another /proc, a
 * counter reset) or an unreadable file leaves the part absent instead of a wrong number. */
static void test_host(void)
{
    gs_host_probe h = {.proc_root = fake_proc_root};
    gs_host_usage u;
    gs_host_read(&h, &u);
    CHECK(!u.have_cpu && !u.have_mem); /* nothing to read yet */
    fake_proc_write(".", "stat", "cpu  100 5 50 800 40 3 2 0 0 0\ncpu0 1 2 3 4 5 6 7 8\n");
    fake_proc_write(".", "meminfo",
                    "MemTotal:       16000 kB\nMemFree:    1000 kB\nMemAvailable:    4000 kB\n");
    gs_host_read(&h, &u);
    CHECK(!u.have_cpu); /* CPU use needs a previous read */
    CHECK(u.have_mem);
    CHECK_INT(u.mem_total_bytes, 16000 * 1024);
    CHECK_INT(u.mem_used_bytes, 12000 * 1024);
    /* +60 busy (user 30, system 20, irq 5, softirq 5) and +40 idle/iowait: 60 %. */
    fake_proc_write(".", "stat", "cpu  130 5 70 820 60 8 7 0 0 0\n");
    gs_host_read(&h, &u);
    CHECK(u.have_cpu && fabs(u.cpu_pct - 60.0) < 1e-9);
    fake_proc_write(".", "stat", "cpu  1 1 1 1 1 1 1 1 0 0\n");
    gs_host_read(&h, &u);
    CHECK(!u.have_cpu);
    /* A sum that wraps makes busy time larger than the total: no CPU use (it was 1.8e21 %,
     * which the monitor's log could not hold). */
    fake_proc_write(".", "stat", "cpu  18446744073709551615 0 0 10 0 0 0 0\n");
    gs_host_read(&h, &u);
    CHECK(!u.have_cpu);
    fake_proc_write(".", "meminfo", "MemTotal:  100 kB\nMemAvailable:  200 kB\n");
    gs_host_read(&h, &u);
    CHECK(!u.have_mem); /* more available than there is: not a real meminfo */
    /* Past 9e18 bytes (here 2^64 - 1024 after the kB): no machine's memory. */
    fake_proc_write(".", "meminfo", "MemTotal:  18014398509481983 kB\nMemAvailable:  1 kB\n");
    gs_host_read(&h, &u);
    CHECK(!u.have_mem);

    char name[64] = "stale";
    fake_proc_write("77", "comm", "python3\n");
    gs_host_proc_name(fake_proc_root, 77, name, sizeof name);
    CHECK_STR(name, "python3");
    gs_host_proc_name(fake_proc_root, 78, name, sizeof name);
    CHECK_STR(name, "");
}

int main(void)
{
    fake_proc_init();
    build_tree();
    test_tree();
    test_host();
    fake_proc_cleanup();
    test_real_proc();
    return check_done("test_probe_proc");
}
