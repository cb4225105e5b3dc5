/* Reads a demangled name from its end: the parameter list "(...)" and any qualifier after it,
 * then the template arguments "<...>", then the identifier. From the end because the front may
 * hold a return type and namespaces such as "(anonymous namespace)". */
#include "analysis/base/kernel_function.h"

#include <stdbool.h>
#include <string.h>

static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '$';
}

/* The index of the bracket `open` that matches the `close` at end - 1, or 0 when none. */
static size_t match_back(const char *s, size_t end, char open, char close)
{
    int depth = 0;
    for (size_t i = end; i-- > 0;) {
        if (s[i] == close)
            depth++;
        else if (s[i] == open && --depth == 0)
            return i;
    }
    return 0;
}

size_t gs_kernel_function(const char *name, const char **start)
{
    size_t end = strlen(name);
    /* trailing " const", " volatile", spaces after the parameters */
    while (end > 0 && name[end - 1] != ')' && name[end - 1] != '>' && !ident_char(name[end - 1]))
        end--;
    size_t cut = end;
    while (cut > 0 && ident_char(name[cut - 1]))
        cut--;
    if (end > 0 && cut > 0 && name[cut - 1] == ' ' && cut < end && strchr(name, '(')) {
        /* "(...) const": step over the qualifier */
        size_t q = cut - 1;
        while (q > 0 && name[q - 1] == ' ')
            q--;
        if (q > 0 && name[q - 1] == ')')
            end = q;
    }
    if (end > 0 && name[end - 1] == ')') {
        size_t open = match_back(name, end, '(', ')');
        if (open > 0)
            end = open;
    }
    if (end > 0 && name[end - 1] == '>') {
        size_t open = match_back(name, end, '<', '>');
        if (open > 0)
            end = open;
    }
    size_t begin = end;
    while (begin > 0 && ident_char(name[begin - 1]))
        begin--;
    if (begin == end) { /* not a name this understands: all of it */
        *start = name;
        return strlen(name);
    }
    *start = name + begin;
    return end - begin;
}
