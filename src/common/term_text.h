/* Text from outside gpuscope (file names, names in traces, option values) shown on a terminal.
 * Such text may hold bytes a terminal acts on: ESC sequences that move the cursor, clear the
 * screen or retitle the window, C1 controls that some terminals obey as well, bytes that are not
 * UTF-8 (a lone 0x9b is CSI to a terminal that is not in UTF-8 mode). Messages write each such
 * byte as \xHH, so that a name can do nothing and the reader still sees what it holds. */
#ifndef GS_COMMON_TERM_TEXT_H
#define GS_COMMON_TERM_TEXT_H

#include <stddef.h>

/* The length of the character at s (len bytes available, len > 0) when a terminal could act on
 * it: 1 for a C0 control (tab and newline too: a message is one line), DEL, or a byte that is not
 * valid UTF-8; 2 for a C1 control (U+0080..U+009F). 0 for a character safe to show. */
size_t gs_term_control_len(const char *s, size_t len);

/* s into out (cap bytes, at least 4), each byte of such a character written \xHH. Text that does
 * not fit is cut, never inside an escape, and ends in "...". Returns out. */
char *gs_term_escape(char *out, size_t cap, const char *s);

#endif
