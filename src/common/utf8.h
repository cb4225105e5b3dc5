/* UTF-8 decoding shared by the renderers: names in traces are bytes, and a renderer must decide
 * what to do with bytes that are not valid UTF-8 (JSON escapes them, the table replaces them). */
#ifndef GS_COMMON_UTF8_H
#define GS_COMMON_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The replacement character U+FFFD, shown for bytes that are not valid UTF-8. */
#define GS_UTF8_REPLACEMENT "\xEF\xBF\xBD"

/* Decodes the sequence at s (len bytes available): its length in bytes, the code point in *cp.
 * 0 when the bytes are not valid UTF-8 (bad lead or continuation byte, truncated, overlong,
 * a surrogate, or above U+10FFFF). */
size_t gs_utf8_decode(const char *s, size_t len, uint32_t *cp);

#endif
