/* The JSON writer: every layout's commas, line breaks and indents, empty containers, strings made
 * safe byte by byte, numbers that stay JSON, and what happens past the nesting cap. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "common/json_write.h"

/* A writer on a memory stream; done() closes it and returns what it wrote (freed by the caller). */
typedef struct capture {
    char *text;
    size_t len;
    FILE *f;
    gs_json_writer w;
} capture;

static gs_json_writer *start(capture *c)
{
    c->text = NULL;
    c->f = open_memstream(&c->text, &c->len);
    gs_json_writer_init(&c->w, c->f);
    return &c->w;
}

static char *done(capture *c)
{
    fclose(c->f);
    return c->text;
}

static void block_inline_and_compact(void)
{
    capture c;
    gs_json_writer *w = start(&c);
    gs_json_begin_object(w, NULL, GS_JSON_BLOCK);
    gs_json_put_str(w, "command", "kernels");
    gs_json_begin_object(w, "events", GS_JSON_INLINE);
    gs_json_put_uint(w, "kernels", 3);
    gs_json_put_int(w, "memcpys", -1);
    gs_json_end(w);
    gs_json_begin_array(w, "rows", GS_JSON_BLOCK);
    for (int i = 0; i < 2; i++) {
        gs_json_begin_object(w, NULL, GS_JSON_INLINE);
        gs_json_put_int(w, "n", i);
        gs_json_begin_array(w, "grid", GS_JSON_COMPACT);
        for (int k = 0; k < 3; k++)
            gs_json_put_int(w, NULL, k + 1);
        gs_json_end(w);
        gs_json_end(w);
    }
    gs_json_end(w);
    gs_json_begin_array(w, "empty", GS_JSON_BLOCK);
    gs_json_end(w);
    gs_json_begin_object(w, "nested", GS_JSON_BLOCK);
    gs_json_begin_array(w, "deeper", GS_JSON_BLOCK);
    gs_json_put_null(w, NULL);
    gs_json_end(w);
    gs_json_end(w);
    gs_json_end(w);
    CHECK_STR(done(&c), "{\n"
                        "  \"command\": \"kernels\",\n"
                        "  \"events\": {\"kernels\": 3, \"memcpys\": -1},\n"
                        "  \"rows\": [\n"
                        "    {\"n\": 0, \"grid\": [1,2,3]},\n"
                        "    {\"n\": 1, \"grid\": [1,2,3]}\n"
                        "  ],\n"
                        "  \"empty\": [],\n"
                        "  \"nested\": {\n"
                        "    \"deeper\": [\n"
                        "      null\n"
                        "    ]\n"
                        "  }\n"
                        "}\n");
    free(c.text);

    w = start(&c);
    gs_json_begin_object(w, NULL, GS_JSON_COMPACT);
    gs_json_put_bool(w, "a", true);
    gs_json_begin_object(w, "b", GS_JSON_COMPACT);
    gs_json_end(w);
    gs_json_put_bool(w, "c", false);
    gs_json_end(w);
    CHECK_STR(done(&c), "{\"a\":true,\"b\":{},\"c\":false}\n"); /* one JSON Lines record */
    free(c.text);
}

/* The layouts established outputs keep: members after a head, hanging closes, shallower lines. */
static void layouts_of_their_own(void)
{
    capture c;
    gs_json_writer *w = start(&c);
    gs_json_begin_object(w, NULL, (gs_json_layout){.lines = true, .head = 2, .indent = 0});
    gs_json_put_str(w, "format", "gsum");
    gs_json_put_int(w, "version", 1);
    gs_json_begin_array(w, "ranks", (gs_json_layout){.lines = true, .indent = 1});
    gs_json_begin_object(w, NULL, GS_JSON_INLINE);
    gs_json_put_int(w, "rank", 0);
    gs_json_end(w);
    gs_json_begin_object(w, NULL, GS_JSON_INLINE);
    gs_json_end(w);
    gs_json_end(w);
    gs_json_end(w);
    CHECK_STR(done(&c), "{\"format\": \"gsum\", \"version\": 1,\n"
                        "\"ranks\": [\n"
                        " {\"rank\": 0},\n"
                        " {}\n"
                        "]\n"
                        "}\n");
    free(c.text);

    const gs_json_layout hanging = {.lines = true, .head = 1, .indent = 1, .hang = true};
    const gs_json_layout flush = {.lines = true, .indent = 2, .margin_close = true};
    const gs_json_layout events = {.lines = true, .indent = -2, .open_empty = true};
    w = start(&c);
    gs_json_begin_object(w, NULL, GS_JSON_BLOCK);
    gs_json_begin_array(w, "list", GS_JSON_BLOCK);
    gs_json_begin_object(w, NULL, hanging);
    gs_json_put_int(w, "rank", 3);
    gs_json_begin_array(w, "rows", flush);
    gs_json_put_real(w, NULL, 1.0 / 3, 6);
    gs_json_end(w);
    gs_json_put_str(w, "path", "p");
    gs_json_end(w);
    gs_json_end(w);
    gs_json_begin_array(w, "events", events);
    gs_json_begin_object(w, NULL, GS_JSON_COMPACT);
    gs_json_put_raw(w, "ts", "1.500");
    gs_json_end(w);
    gs_json_begin_object(w, NULL, GS_JSON_COMPACT);
    gs_json_end(w);
    gs_json_end(w);
    gs_json_begin_array(w, "none", events);
    gs_json_end(w);
    gs_json_end(w);
    CHECK_STR(done(&c), "{\n"
                        "  \"list\": [\n"
                        "    {\"rank\": 3,\n"
                        "     \"rows\": [\n"
                        "       0.333333\n"
                        "],\n"
                        "     \"path\": \"p\"}\n"
                        "  ],\n"
                        "  \"events\": [\n"
                        "{\"ts\":1.500},\n"
                        "{}\n"
                        "  ],\n"
                        "  \"none\": [\n"
                        "  ]\n"
                        "}\n");
    free(c.text);
}

static void strings_escape_every_byte(void)
{
    capture c;
    gs_json_put_str(start(&c), NULL, "q\"b\\s/\n\r\t\b\f\x01\x1f\x7f µ\xff\xc3");
    CHECK_STR(done(&c), "\"q\\\"b\\\\s/\\n\\r\\t\\b\\f\\u0001\\u001f\x7f µ\\ufffd\\ufffd\"");
    free(c.text);

    /* Overlong encodings and UTF-16 surrogates are not valid UTF-8 either. */
    gs_json_put_str(start(&c), NULL, "\xc0\xaf|\xed\xa0\x80|\xf0\x9f\x98\x80");
    CHECK_STR(done(&c), "\"\\ufffd\\ufffd|\\ufffd\\ufffd\\ufffd|\xf0\x9f\x98\x80\"");
    free(c.text);

    gs_json_put_str(start(&c), NULL, NULL);
    CHECK_STR(done(&c), "null");
    free(c.text);

    /* Keys are strings too. */
    gs_json_writer *w = start(&c);
    gs_json_begin_object(w, NULL, GS_JSON_INLINE);
    gs_json_put_int(w, "a\"b", 1);
    gs_json_end(w);
    CHECK_STR(done(&c), "{\"a\\\"b\": 1}\n");
    free(c.text);
}

static void numbers_stay_json(void)
{
    capture c;
    gs_json_writer *w = start(&c);
    gs_json_begin_array(w, NULL, GS_JSON_INLINE);
    gs_json_put_fixed(w, NULL, 12.345678, 3);
    gs_json_put_fixed(w, NULL, NAN, 2);
    gs_json_put_real(w, NULL, 12.345678, 3);
    gs_json_put_real(w, NULL, INFINITY, 6);
    gs_json_put_int(w, NULL, INT64_MIN);
    gs_json_put_uint(w, NULL, UINT64_MAX);
    gs_json_put_rawf(w, NULL, "%d.%03d", 17, 5);
    gs_json_end(w);
    CHECK_STR(done(&c), "[12.346, null, 12.3, null, -9223372036854775808, 18446744073709551615, "
                        "17.005]\n");
    free(c.text);
}

/* Past the cap a container is null and what goes into it is dropped: still valid JSON. */
static void nesting_past_the_cap(void)
{
    capture c;
    gs_json_writer *w = start(&c);
    for (int i = 0; i < GS_JSON_MAX_DEPTH; i++)
        gs_json_begin_array(w, NULL, GS_JSON_COMPACT);
    CHECK(!w->too_deep);
    gs_json_begin_object(w, NULL, GS_JSON_COMPACT);
    gs_json_put_int(w, "lost", 1);
    gs_json_begin_array(w, "lost too", GS_JSON_COMPACT);
    gs_json_end(w);
    gs_json_end(w);
    gs_json_put_int(w, NULL, 2);
    for (int i = 0; i < GS_JSON_MAX_DEPTH; i++)
        gs_json_end(w);
    gs_json_end(w); /* one too many: nothing to close */
    CHECK(w->too_deep);
    char want[3 * GS_JSON_MAX_DEPTH + 16], *p = want;
    for (int i = 0; i < GS_JSON_MAX_DEPTH; i++)
        *p++ = '[';
    p += sprintf(p, "null,2");
    for (int i = 0; i < GS_JSON_MAX_DEPTH; i++)
        *p++ = ']';
    sprintf(p, "\n");
    CHECK_STR(done(&c), want);
    free(c.text);
}

int main(void)
{
    block_inline_and_compact();
    layouts_of_their_own();
    strings_escape_every_byte();
    numbers_stay_json();
    nesting_past_the_cap();
    return check_done("test_json_write");
}
