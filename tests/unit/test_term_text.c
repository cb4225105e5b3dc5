/* Text shown on a terminal (common/term_text.h): every byte a terminal could act on escaped,
 * the rest as it was, cut to the room without splitting an escape or a character. */
#include <string.h>

#include "common/term_text.h"
#include "check.h"

static void test_control_len(void)
{
    CHECK_INT(gs_term_control_len("a", 1), 0);
    CHECK_INT(gs_term_control_len("\033[", 2), 1);   /* ESC */
    CHECK_INT(gs_term_control_len("\t", 1), 1);      /* a message is one line */
    CHECK_INT(gs_term_control_len("\x7f", 1), 1);    /* DEL */
    CHECK_INT(gs_term_control_len("\xc2\x9b", 2), 2); /* U+009B, CSI */
    CHECK_INT(gs_term_control_len("\xc2\xa0", 2), 0); /* U+00A0, the first after C1 */
    CHECK_INT(gs_term_control_len("\x9b", 1), 1);    /* a lone continuation byte */
    CHECK_INT(gs_term_control_len("\xe2\x80", 2), 1); /* a sequence cut short */
    CHECK_INT(gs_term_control_len("µ", strlen("µ")), 0);
}

static void test_escape(void)
{
    char out[64];
    CHECK_STR(gs_term_escape(out, sizeof out, "plain µs name"), "plain µs name");
    CHECK_STR(gs_term_escape(out, sizeof out, "a\033]0;x\007b\n"), "a\\x1b]0;x\\x07b\\x0a");
    CHECK_STR(gs_term_escape(out, sizeof out, "\xc2\x9b\xff"), "\\xc2\\x9b\\xff");
    /* Cut to the room, never inside an escape or a character, ending in "...". */
    char small[12];
    CHECK_STR(gs_term_escape(small, sizeof small, "abcdefghijkl"), "abcdefgh...");
    CHECK_STR(gs_term_escape(small, sizeof small, "abcdefghijk"), "abcdefghijk");
    CHECK_STR(gs_term_escape(small, sizeof small, "abcdef\033xyz"), "abcdef...");
    CHECK_STR(gs_term_escape(small, sizeof small, "abcdefgµµx"), "abcdefg...");
}

int main(void)
{
    test_control_len();
    test_escape();
    return check_done("test_term_text");
}
