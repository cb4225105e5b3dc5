/* The readers' memory budget: sizes as GPUSCOPE_MEMORY_LIMIT takes them, the check the readers
 * make as arrays grow (one line naming the file, the offset and the limit), a budget shared by
 * the traces of one profile, and the default from the memory available. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ingest/load.h"

static void test_sizes(void)
{
    static const struct {
        const char *text;
        uint64_t bytes; /* 0: refused */
    } cases[] = {
        {"512", 512},        {"64K", 64 << 10},   {"64k", 64 << 10},
        {"1.5G", 3ull << 29}, {"2T", 2ull << 40},  {"none", UINT64_MAX},
        {"NONE", UINT64_MAX}, {"0", 0},            {"-1G", 0},
        {"12MB", 0},         {"G", 0},            {"1 G", 0},
        {"", 0},             {"1e30", 0},         {"nan", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t got = 0;
        bool ok = gs_mem_parse_size(cases[i].text, &got);
        CHECK_INT(ok, cases[i].bytes != 0);
        if (ok && got != cases[i].bytes)
            fprintf(stderr, "'%s': %llu bytes, want %llu\n", cases[i].text,
                    (unsigned long long)got, (unsigned long long)cases[i].bytes);
        CHECK(!ok || got == cases[i].bytes);
    }
}

/* 70 000 events: the Kineto reader checks every 65 536, so the limit stops it mid-file. */
static char *many_events(size_t n, size_t *len)
{
    static const char head[] = "{\"traceEvents\": [\n", tail[] = "]}\n";
    static const char ev[] = "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op\", \"pid\": 1, "
                             "\"tid\": 1, \"ts\": 1, \"dur\": 1},\n";
    char *buf = malloc(sizeof head + n * (sizeof ev - 1) + sizeof tail);
    size_t at = 0;
    memcpy(buf, head, sizeof head - 1);
    at += sizeof head - 1;
    for (size_t i = 0; i < n; i++, at += sizeof ev - 1)
        memcpy(buf + at, ev, sizeof ev - 1);
    memcpy(buf + at, tail, sizeof tail);
    *len = at + sizeof tail - 1;
    return buf;
}

static void test_check(void)
{
    size_t len;
    char *json = many_events(70000, &len);
    gs_mem_budget budget = {.limit = 4 << 20, .from_env = true};
    gs_load_opts opts = {.budget = &budget};
    gs_trace *t = NULL;
    gs_error err = {0};
    CHECK_INT(gs_load_trace_buffer(json, len, "big.json", &opts, &t, &err), -1);
    CHECK(t == NULL);
    CHECK_INT(err.code, GS_EXIT_INPUT);
    CHECK(strncmp(err.msg, "big.json: byte ", 15) == 0);
    CHECK(strstr(err.msg, ": the trace needs more memory than GPUSCOPE_MEMORY_LIMIT allows "
                          "(4.0 MB)") != NULL);
    /* A limit it fits in: read whole, and the budget is what the caller counts it against. */
    budget = (gs_mem_budget){.limit = 64 << 20, .origin = "half the memory available"};
    CHECK_INT(gs_load_trace_buffer(json, len, "big.json", &opts, &t, &err), 0);
    CHECK(t && t->ranges.n == 70000);
    /* What the budget already holds counts: the same trace no longer fits beside 62 MB. */
    budget.used = 62 << 20;
    CHECK_INT(gs_mem_budget_check(&budget, t, 123, &err), -1);
    CHECK_STR(err.msg, "big.json: byte 123: the trace needs more memory than the limit of 64.0 MB "
                       "(half the memory available; the traces read before it hold part of it; "
                       "GPUSCOPE_MEMORY_LIMIT=SIZE raises it)");
    budget.limit = UINT64_MAX;
    CHECK_INT(gs_mem_budget_check(&budget, t, 123, &err), 0);
    gs_trace_delete(t);
    free(json);
}

static void test_default(void)
{
    unsetenv(GS_MEM_LIMIT_ENV);
    gs_mem_budget b;
    gs_error err;
    CHECK_INT(gs_mem_budget_default(&b, &err), 0);
    CHECK(b.limit > (16u << 20)); /* half of what any machine running the tests has free */
    CHECK(!b.from_env && b.used == 0);
}

int main(void)
{
    test_sizes();
    test_check();
    test_default();
    return check_done("test_mem_budget");
}
