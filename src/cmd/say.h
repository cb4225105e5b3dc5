/* What gpuscope says on stderr: one line, "gpuscope: MESSAGE". Messages name files, kernels and
 * option values, which are anyone's: every byte of the line a terminal could act on is written
 * \xHH (common/term_text.h), so that a name cannot drive the terminal and still shows what it
 * holds. Every message goes through here; the debug log's lines are made safe the same way
 * (common/log.c). */
#ifndef GS_CMD_SAY_H
#define GS_CMD_SAY_H

#include <stdarg.h>

void gs_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void gs_vsay(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#endif
