/* The growable string: text of any length built in parts, a failure that stays, and the text
 * handed over to the caller. */
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "common/strbuf.h"
#include "check.h"

/* Many short appends grow the buffer far past its first allocation, each piece kept in order. */
static void test_growth(void)
{
    gs_strbuf b;
    gs_strbuf_init(&b);
    CHECK_STR(gs_strbuf_str(&b), "");
    char want[4096 * 4 + 1] = "";
    for (int i = 0; i < 4096; i++) {
        gs_strbuf_append(&b, i % 2 ? "ab" : "cd");
        gs_strbuf_appendf(&b, "%02d", i % 100);
        strcat(want, i % 2 ? "ab" : "cd");
        char num[4];
        snprintf(num, sizeof num, "%02d", i % 100);
        strcat(want, num);
    }
    CHECK(!gs_strbuf_failed(&b));
    CHECK_INT(b.len, 4096 * 4);
    CHECK_INT(strlen(gs_strbuf_str(&b)), 4096 * 4);
    CHECK_STR(gs_strbuf_str(&b), want);
    CHECK(b.cap > b.len);
    gs_strbuf_free(&b);
    CHECK(b.data == NULL && b.len == 0 && b.cap == 0);
    CHECK_STR(gs_strbuf_str(&b), "");
}

/* One formatted append longer than the room left (and than any first allocation): the whole
 * text, not a prefix of it. */
static void test_appendf_long(void)
{
    enum { LONG = 5000 };
    char *name = malloc(LONG + 1);
    CHECK(name != NULL);
    if (!name)
        return;
    memset(name, 'x', LONG);
    name[LONG] = '\0';
    gs_strbuf b;
    gs_strbuf_init(&b);
    gs_strbuf_append(&b, "op ");
    gs_strbuf_appendf(&b, "%s took %.3f ms (%d calls)", name, 1234.5678, 42);
    CHECK(!gs_strbuf_failed(&b));
    const char *s = gs_strbuf_str(&b);
    CHECK_INT(strlen(s), 3 + LONG + strlen(" took 1234.568 ms (42 calls)"));
    CHECK(strncmp(s, "op xxx", 6) == 0);
    CHECK_STR(s + 3 + LONG, " took 1234.568 ms (42 calls)");
    /* and a second one, now starting inside a large buffer */
    gs_strbuf_appendf(&b, "; %s", name);
    CHECK_INT(b.len, 3 + LONG + strlen(" took 1234.568 ms (42 calls)") + 2 + LONG);
    CHECK(gs_strbuf_str(&b)[b.len - 1] == 'x');
    gs_strbuf_free(&b);
    free(name);
}

/* An append that cannot be made marks the buffer failed, and it stays failed: later appends are
 * ignored, the text stops where it was, steal returns NULL (what the caller turns into an error)
 * and leaves the buffer empty and usable. The failure is made without exhausting memory: printf
 * cannot encode a lone UTF-16 surrogate (an encoding error, C11 7.21.6.1), which the buffer
 * handles like an allocation that failed. */
static void test_failure_is_sticky(void)
{
    static const wchar_t lone_surrogate[] = {0xD800, 0};
    gs_strbuf b;
    gs_strbuf_init(&b);
    gs_strbuf_append(&b, "kept");
    gs_strbuf_appendf(&b, " and %ls", lone_surrogate);
    CHECK(gs_strbuf_failed(&b));
    gs_strbuf_append(&b, " more");
    gs_strbuf_appendf(&b, " %d", 7);
    CHECK(gs_strbuf_failed(&b));
    CHECK_STR(gs_strbuf_str(&b), "kept");
    CHECK_INT(b.len, 4);
    CHECK(gs_strbuf_steal(&b) == NULL);
    CHECK(!gs_strbuf_failed(&b));
    CHECK(b.data == NULL && b.len == 0);
    gs_strbuf_append(&b, "again");
    CHECK_STR(gs_strbuf_str(&b), "again");
    gs_strbuf_free(&b);

    /* failing first, with nothing allocated yet */
    gs_strbuf_init(&b);
    gs_strbuf_appendf(&b, "%ls", lone_surrogate);
    CHECK(gs_strbuf_failed(&b));
    CHECK_STR(gs_strbuf_str(&b), "");
    gs_strbuf_free(&b);
    CHECK(!gs_strbuf_failed(&b));
}

/* steal hands the text over (the caller frees it) and leaves the buffer empty; with nothing
 * appended it still gives an owned "". */
static void test_steal(void)
{
    gs_strbuf b;
    gs_strbuf_init(&b);
    gs_strbuf_appendf(&b, "%s=%d", "steps", 12);
    char *text = gs_strbuf_steal(&b);
    CHECK_STR(text, "steps=12");
    CHECK(b.data == NULL && b.len == 0 && b.cap == 0);
    CHECK_STR(gs_strbuf_str(&b), "");
    free(text);

    char *empty = gs_strbuf_steal(&b);
    CHECK_STR(empty, "");
    free(empty);

    gs_strbuf_append(&b, "");
    char *appended_empty = gs_strbuf_steal(&b);
    CHECK_STR(appended_empty, "");
    free(appended_empty);
}

int main(void)
{
    test_growth();
    test_appendf_long();
    test_failure_is_sticky();
    test_steal();
    return check_done("test_strbuf");
}
