/* Output-name patterns of `gpuscope run -o` (src/common/out_pattern.h): every expansion, every
 * malformed pattern, the size limit at its exact boundary, and which patterns are per process. */
#include <stdlib.h>

#include "check.h"
#include "common/out_pattern.h"

/* A fake environment: NAME=VALUE pairs; the lookup also records the names it was asked for. */
typedef struct fake_env {
    const char *const *pairs; /* "NAME=VALUE", NULL-terminated */
    char asked[256];          /* names asked for, each followed by ',' */
} fake_env;

static const char *lookup(const char *name, size_t len, void *ctx)
{
    fake_env *e = ctx;
    size_t used = strlen(e->asked);
    if (used + len + 2 < sizeof e->asked) {
        memcpy(e->asked + used, name, len);
        e->asked[used + len] = ',';
        e->asked[used + len + 1] = '\0';
    }
    for (const char *const *p = e->pairs; *p; p++)
        if (strncmp(*p, name, len) == 0 && (*p)[len] == '=')
            return *p + len + 1;
    return NULL;
}

static const char *const PAIRS[] = {"RANK=3", "JOB=train-7", "EMPTY=", "LONG=0123456789", NULL};

/* Expands `pattern` with pid 4242, host "node7" and the fake environment into a buffer of `cap`
 * bytes (poisoned beforehand so that a missing terminator shows). */
static int expand(const char *pattern, size_t cap, char *out, fake_env *env)
{
    memset(out, 'Z', cap);
    return gs_expand_output(pattern, 4242, -1, "node7", lookup, env, out, cap);
}

static void check_ok(int line, const char *pattern, const char *want)
{
    char out[256];
    fake_env env = {PAIRS, ""};
    int rc = expand(pattern, sizeof out, out, &env);
    if (rc != 0 || strcmp(out, want) != 0)
        fprintf(stderr, "line %d: \"%s\" -> rc %d \"%.*s\"\n", line, pattern, rc,
                rc == 0 ? (int)sizeof out : 0, out);
    CHECK_INT(rc, 0);
    CHECK_STR(out, want);
}
#define CHECK_EXPANDS(pattern, want) check_ok(__LINE__, pattern, want)

static void check_bad(int line, const char *pattern)
{
    char out[256];
    fake_env env = {PAIRS, ""};
    int rc = expand(pattern, sizeof out, out, &env);
    if (rc != -1)
        fprintf(stderr, "line %d: \"%s\" accepted as \"%s\"\n", line, pattern, out);
    CHECK_INT(rc, -1);
}
#define CHECK_MALFORMED(pattern) check_bad(__LINE__, pattern)

static void test_expansions(void)
{
    CHECK_EXPANDS("", "");
    CHECK_EXPANDS("trace.gst", "trace.gst");
    CHECK_EXPANDS("%p", "4242");
    CHECK_EXPANDS("run-%p.gst", "run-4242.gst");
    CHECK_EXPANDS("%h", "node7");
    CHECK_EXPANDS("out/%h-%p", "out/node7-4242");
    CHECK_EXPANDS("%p%p", "42424242");
    CHECK_EXPANDS("%q{RANK}", "3");
    CHECK_EXPANDS("rank%q{RANK}_%q{JOB}.gst", "rank3_train-7.gst");
    CHECK_EXPANDS("a%q{UNSET}b", "ab");       /* unset: empty */
    CHECK_EXPANDS("a%q{EMPTY}b", "ab");       /* set to "": empty */
    CHECK_EXPANDS("%q{RANK}%q{RANK}", "33");
    CHECK_EXPANDS("100%%", "100%");
    CHECK_EXPANDS("%%p", "%p");               /* an escaped percent, then a plain p */
    CHECK_EXPANDS("%%%p", "%4242");
    CHECK_EXPANDS("%%%%", "%%");
    CHECK_EXPANDS("%q{JOB}}", "train-7}");    /* only the first brace closes */
    CHECK_EXPANDS("{}", "{}");

    /* The lookup gets exactly the name between the braces, not NUL-terminated text. */
    char out[64];
    fake_env env = {PAIRS, ""};
    CHECK_INT(expand("%q{RANK}-%q{NOPE}-%q{JOB}", sizeof out, out, &env), 0);
    CHECK_STR(out, "3--train-7");
    CHECK_STR(env.asked, "RANK,NOPE,JOB,");

    /* Another pid and host, and no environment lookup at all: %q{} expands to nothing. */
    CHECK_INT(gs_expand_output("%h.%p.%q{RANK}.x", -1, -1, "h", NULL, NULL, out, sizeof out), 0);
    CHECK_STR(out, "h.-1..x");
    CHECK_INT(gs_expand_output("%p", 2147483647L, -1, "h", NULL, NULL, out, sizeof out), 0);
    CHECK_STR(out, "2147483647");

    /* %w is the capture window's index, and malformed where there are no windows. */
    CHECK_INT(gs_expand_output("w%w-%p", 12, 3, "h", NULL, NULL, out, sizeof out), 0);
    CHECK_STR(out, "w3-12");
    CHECK_INT(gs_expand_output("w%w", 12, -1, "h", NULL, NULL, out, sizeof out), -1);
}

static void test_malformed(void)
{
    CHECK_MALFORMED("%x");
    CHECK_MALFORMED("a%xb");
    CHECK_MALFORMED("%P");
    CHECK_MALFORMED("%");           /* trailing percent */
    CHECK_MALFORMED("trace%");
    CHECK_MALFORMED("%%%");
    CHECK_MALFORMED("%q");          /* %q without braces */
    CHECK_MALFORMED("%qRANK");
    CHECK_MALFORMED("%q(RANK)");
    CHECK_MALFORMED("%q{}");        /* empty name */
    CHECK_MALFORMED("%q{RANK");     /* unclosed */
    CHECK_MALFORMED("%q{");
    CHECK_MALFORMED("x%q{RANK}%q{JOB");
    CHECK_MALFORMED("%p%y%p");
    CHECK_MALFORMED("%p%");
}

static void test_overflow(void)
{
    char out[64];
    fake_env env = {PAIRS, ""};
    /* Exact fit: the result and its terminator. One byte less does not fit. */
    CHECK_INT(expand("abc", 4, out, &env), 0);
    CHECK_STR(out, "abc");
    CHECK_INT(expand("abc", 3, out, &env), -1);
    CHECK_INT(expand("abc", 1, out, &env), -1);
    CHECK_INT(gs_expand_output("abc", 1, -1, "h", NULL, NULL, out, 0), -1);
    CHECK_INT(expand("", 1, out, &env), 0);
    CHECK_STR(out, "");
    /* Expansions count: "4242" is 4 bytes, "node7" 5, "0123456789" 10. */
    CHECK_INT(expand("%p", 5, out, &env), 0);
    CHECK_STR(out, "4242");
    CHECK_INT(expand("%p", 4, out, &env), -1);
    CHECK_INT(expand("x%h", 7, out, &env), 0);
    CHECK_STR(out, "xnode7");
    CHECK_INT(expand("x%h", 6, out, &env), -1);
    CHECK_INT(expand("%q{LONG}", 11, out, &env), 0);
    CHECK_STR(out, "0123456789");
    CHECK_INT(expand("%q{LONG}", 10, out, &env), -1);
    /* An overflowing expansion in the middle fails even though what follows would fit. */
    CHECK_INT(expand("%q{LONG}x", 6, out, &env), -1);
    CHECK_INT(expand("%%%%", 3, out, &env), 0);
    CHECK_STR(out, "%%");
    CHECK_INT(expand("%%%%", 2, out, &env), -1);
    /* Whatever happened, the buffer holds a terminated string within its bounds. */
    CHECK_INT(expand("abcdef", 4, out, &env), -1);
    CHECK(memchr(out, '\0', 4) != NULL);
    /* A long host name alone. */
    char host[300];
    memset(host, 'h', sizeof host - 1);
    host[sizeof host - 1] = '\0';
    char big[400];
    CHECK_INT(gs_expand_output("%h", 1, -1, host, NULL, NULL, big, sizeof host), 0);
    CHECK_INT(strlen(big), sizeof host - 1);
    CHECK_INT(gs_expand_output("%h", 1, -1, host, NULL, NULL, big, sizeof host - 1), -1);
}

static void test_per_process(void)
{
    CHECK(gs_output_is_per_process("%p"));
    CHECK(gs_output_is_per_process("run-%p.gst"));
    CHECK(gs_output_is_per_process("r%q{RANK}.gst"));
    CHECK(gs_output_is_per_process("%h-%p"));
    CHECK(gs_output_is_per_process("%%%p"));
    CHECK(!gs_output_is_per_process(""));
    CHECK(!gs_output_is_per_process("trace.gst"));
    CHECK(!gs_output_is_per_process("%h.gst"));
    CHECK(!gs_output_is_per_process("%%p"));   /* a literal "%p" */
    CHECK(!gs_output_is_per_process("%%q{A}")); /* a literal "%q{A}" */
    CHECK(!gs_output_is_per_process("p%%"));
    CHECK(!gs_output_is_per_process("trace%"));
    CHECK(!gs_output_is_per_process("%%%%p"));
}

int main(void)
{
    test_expansions();
    test_malformed();
    test_overflow();
    test_per_process();
    return check_done("test_out_pattern");
}
