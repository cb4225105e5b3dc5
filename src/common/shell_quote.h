/* A command line printed for people to paste into a shell (gpuscope ncu --dry-run): each
 * argument written so that a POSIX shell reads it back exactly, whatever it holds, and so that
 * showing the line cannot drive the terminal. */
#ifndef GS_COMMON_SHELL_QUOTE_H
#define GS_COMMON_SHELL_QUOTE_H

#include <stdio.h>

/* Writes arg as one shell word:
 *  - made only of characters no shell treats specially (letters, digits, _ @ % + = : , . / -):
 *    as it is;
 *  - else inside single quotes, where the shell reads every character as itself but the quote,
 *    written '\'' (POSIX, Shell Command Language, 2.2.3 Single-Quotes);
 *  - a byte a terminal could act on (common/term_text.h), a newline aside, is not written but
 *    made by the shell: "$(printf '\ooo')" between the quoted parts. A newline stays inside the
 *    quotes, as it is: command substitution would drop it.
 * The empty argument is ''. */
void gs_shell_word_write(FILE *out, const char *arg);

#endif
