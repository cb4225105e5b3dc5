/* Command lines for a shell (common/shell_quote.h): each argument read back by sh exactly as it
 * was, whatever it holds, with nothing else run and no byte a terminal could act on printed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "common/shell_quote.h"
#include "check.h"

/* What gs_shell_word_write writes for arg. */
static const char *quoted(const char *arg)
{
    static char buf[4096];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    gs_shell_word_write(f, arg);
    fclose(f);
    return buf;
}

static void test_quote_forms(void)
{
    CHECK_STR(quoted("--launch-skip"), "--launch-skip");
    CHECK_STR(quoted("a/b.c:d,e=f@g%h+i"), "a/b.c:d,e=f@g%h+i");
    CHECK_STR(quoted(""), "''");
    CHECK_STR(quoted("regex:^k$"), "'regex:^k$'");
    CHECK_STR(quoted("it's"), "'it'\\''s'");
    CHECK_STR(quoted("a\033b"), "'a'\"$(printf '\\033')\"'b'");
    CHECK_STR(quoted("a\nb"), "'a\nb'");
    CHECK_STR(quoted("ü"), "'ü'");
}

/* sh reads each word back as the argument it was made from, and runs nothing else. */
static void test_quote_read_back(void)
{
    static const char *const args[] = {
        "<a';touch X;echo '>", "$(touch X)", "`touch X`", "a\"b\\c", "* ?[x]", "~root",
        "x\033[2J\x07y", "tab\there", "line\nbreak\n", "'", "''", "\xc2\x9b\xff", "-n", "",
    };
    char dir[] = "/tmp/gs-quote-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char script[512], out[512];
    snprintf(script, sizeof script, "%s/words.sh", dir);
    snprintf(out, sizeof out, "%s/args", dir);
    FILE *f = fopen(script, "w");
    fputs("cd \"$(dirname \"$0\")\" && for a in", f);
    for (size_t i = 0; i < sizeof args / sizeof *args; i++) {
        putc(' ', f);
        gs_shell_word_write(f, args[i]);
    }
    fputs("; do printf '%s\\0' \"$a\"; done >args\n", f);
    fclose(f);
    /* Shown on a terminal, the line does nothing: no control byte but the newlines. */
    char text[2048];
    f = fopen(script, "rb");
    size_t len = fread(text, 1, sizeof text, f);
    fclose(f);
    for (size_t i = 0; i < len; i++)
        CHECK(text[i] == '\n' || ((unsigned char)text[i] >= 0x20 && text[i] != 0x7f));
    char cmd[600];
    snprintf(cmd, sizeof cmd, "sh %s", script);
    CHECK_INT(WEXITSTATUS(system(cmd)), 0);
    char got[1024] = {0};
    FILE *in = fopen(out, "rb");
    size_t n = in ? fread(got, 1, sizeof got - 1, in) : 0;
    if (in)
        fclose(in);
    size_t at = 0;
    for (size_t i = 0; i < sizeof args / sizeof *args; i++) {
        CHECK(at < n || (at == n && !*args[i]));
        CHECK_STR(got + at, args[i]);
        at += strlen(got + at) + 1;
    }
    CHECK_INT(at, n);
    char x[512];
    snprintf(x, sizeof x, "%s/X", dir);
    FILE *touched = fopen(x, "r");
    CHECK(touched == NULL);
    if (touched)
        fclose(touched);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK_INT(system(cmd), 0);
}

int main(void)
{
    test_quote_forms();
    test_quote_read_back();
    return check_done("test_shell_quote");
}
