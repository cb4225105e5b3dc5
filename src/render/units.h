/* Numbers for people: durations, sizes and rates in the unit that fits, counts with thousands
 * separators. Used by the table renderer only; csv and json always carry integer ns and bytes. */
#ifndef GS_RENDER_UNITS_H
#define GS_RENDER_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* Large enough for any value these functions write. */
#define GS_UNIT_BUF 40

/* "812 ns", "12.34 µs", "1.234 ms", "2.500 s". */
void gs_fmt_duration(char *buf, size_t size, int64_t ns);
/* "512 B", "12.3 kB", "1.5 MB", "42.3 GB" (decimal units: 1 kB = 1000 B). */
void gs_fmt_bytes(char *buf, size_t size, int64_t bytes);
/* "142.8 MB/s", "12.50 GB/s", "1.20 TB/s" from a rate in GB/s (1 GB = 1e9 B). */
void gs_fmt_bandwidth(char *buf, size_t size, double gbps);
/* "1,234,567". */
void gs_fmt_count(char *buf, size_t size, int64_t n);

#endif
