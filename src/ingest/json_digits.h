/* Digits read a word at a time, for the scanner and the number parser (json.h). */
#ifndef GS_INGEST_JSON_DIGITS_H
#define GS_INGEST_JSON_DIGITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Whether the 8 bytes at s are all digits, and their value: the bytes as one little-endian word,
 * pairs, then quads, then the eight combined by multiplications (Lemire, "Fast parsing of 8
 * digits", 2018). Trace times in µs since the epoch have 16 digits. */
static inline bool gs_json_eight_digits(const char *s, uint64_t *value)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t v;
    memcpy(&v, s, sizeof v);
    if ((v & 0xF0F0F0F0F0F0F0F0u) != 0x3030303030303030u ||
        ((v + 0x0606060606060606u) & 0xF0F0F0F0F0F0F0F0u) != 0x3030303030303030u)
        return false;
    v -= 0x3030303030303030u;
    v = v * 10 + (v >> 8); /* each byte pair's value in its low byte */
    *value = (((v & 0x000000FF000000FFu) * (100 + (1000000ull << 32))) +
              (((v >> 16) & 0x000000FF000000FFu) * (1 + (10000ull << 32)))) >> 32;
    return true;
#else
    (void)s;
    (void)value;
    return false;
#endif
}

/* The value of the digits s begins with, 18 at most of its n bytes (so that it fits), eight at a
 * time while there are eight: their count, the value in *value. */
static inline size_t gs_json_leading_digits(const char *s, size_t n, uint64_t *value)
{
    size_t i = 0, stop = n < 18 ? n : 18;
    uint64_t v = 0, eight;
    for (; stop - i >= 8 && gs_json_eight_digits(s + i, &eight); i += 8)
        v = v * 100000000u + eight;
    for (unsigned d; i < stop && (d = (unsigned)(unsigned char)s[i] - '0') < 10; i++)
        v = v * 10 + d;
    *value = v;
    return i;
}

#endif
