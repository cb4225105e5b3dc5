/* The model's interned strings (src/model/strtab.h), on the shared hash table: id 0 is the empty
 * string, equal bytes get equal ids, ids are dense in interning order, bytes with a NUL or a
 * common prefix stay apart, and lookups find every string again after many growths. */
#include <stdlib.h>

#include "check.h"
#include "model/strtab.h"

static void test_basics(void)
{
    gs_strtab t;
    CHECK(gs_strtab_init(&t) == 0);
    CHECK_INT(t.n, 1);
    CHECK_INT(gs_strtab_intern(&t, "", 0), GS_STR_EMPTY);
    CHECK_STR(gs_str_get(&t, GS_STR_EMPTY), "");
    gs_str a = gs_strtab_intern(&t, "aten::mm", 8);
    gs_str b = gs_strtab_intern(&t, "aten::mm_out", 12);
    gs_str c = gs_strtab_intern(&t, "aten::mm_out", 8); /* a prefix of a longer string */
    CHECK_INT(a, 1);
    CHECK_INT(b, 2);
    CHECK_INT(c, a);
    CHECK_INT(gs_strtab_intern(&t, "x\0y", 3), 3);
    CHECK_INT(gs_strtab_intern(&t, "x", 1), 4); /* the NUL is part of the bytes */
    CHECK_INT(gs_str_len(&t, 3), 3);
    CHECK(memcmp(gs_str_get(&t, 3), "x\0y", 4) == 0);
    CHECK_STR(gs_str_get(&t, b), "aten::mm_out");
    CHECK_INT(t.n, 5);
    gs_strtab_free(&t);
}

static void test_many(void)
{
    enum { N = 200000 };
    gs_strtab t;
    CHECK(gs_strtab_init(&t) == 0);
    char name[32];
    size_t wrong = 0;
    for (int i = 0; i < N; i++) {
        int len = snprintf(name, sizeof name, "kernel_%d", i);
        wrong += gs_strtab_intern(&t, name, (size_t)len) != (gs_str)i + 1;
    }
    CHECK_INT(wrong, 0);
    for (int i = N - 1; i >= 0; i--) {
        int len = snprintf(name, sizeof name, "kernel_%d", i);
        gs_str id = gs_strtab_intern(&t, name, (size_t)len);
        wrong += id != (gs_str)i + 1 || strcmp(gs_str_get(&t, id), name) != 0;
    }
    CHECK_INT(wrong, 0);
    CHECK_INT(t.n, N + 1);
    gs_strtab_free(&t);
}

int main(void)
{
    test_basics();
    test_many();
    return check_done("test_strtab");
}
