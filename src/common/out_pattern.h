/* Output-name patterns of `gpuscope run -o`, as nsys spells them: %p the process id, %h the
 * host name, %q{NAME} the value of environment variable NAME in that process (empty when
 * unset), %% a percent sign; and for windows captured on demand, %w the window's index. Shared by the launcher and the agent (each process expands the
 * pattern with its own pid and environment). */
#ifndef GS_COMMON_OUT_PATTERN_H
#define GS_COMMON_OUT_PATTERN_H

#include <stdbool.h>
#include <stddef.h>

/* Looks NAME (len bytes, not NUL-terminated) up; NULL when unset. */
typedef const char *(*gs_env_lookup)(const char *name, size_t len, void *ctx);

/* A gs_env_lookup over this process's environment (getenv); ctx is unused. */
const char *gs_env_lookup_getenv(const char *name, size_t len, void *ctx);

/* Writes the expansion of `pattern` into out[cap]; `window` is %w's value, -1 where there are no
 * windows. Returns 0, or -1 when the pattern is malformed (an unknown %x, an unclosed %q{, %w
 * without a window) or the result does not fit. */
int gs_expand_output(const char *pattern, long pid, long window, const char *host,
                     gs_env_lookup env, void *env_ctx, char *out, size_t cap);

/* True when the pattern differs between processes (it has %p or %q{...}). */
bool gs_output_is_per_process(const char *pattern);

#endif
