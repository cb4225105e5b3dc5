/* The table of name rules (name_rules.h says what a group is): its rows and how a row matches a
 * name. Private to name_rules.c, which reads it, and name_rule_table.c, which holds it. */
#ifndef GS_ANALYSIS_NAME_RULE_TABLE_H
#define GS_ANALYSIS_NAME_RULE_TABLE_H

#include <stddef.h>

#include "analysis/base/name_rules.h"

enum match {
    PREFIX,          /* the name starts with a */
    CONTAINS,        /* a occurs in the name */
    CONTAINS_CI,     /* a (lower case) occurs in the name, case ignored */
    EXACT,           /* the name is a */
    PREFIX_CONTAINS, /* the name starts with a, and b occurs after it: the regex ^a.*b */
    PREFIX_SUFFIX,   /* the name starts with a and ends with b */
    CALL,            /* the name is a, or a followed by '_' and a version (cudaMemcpy_v3020) */
    BEFORE_PAREN,    /* a occurs before the first '(' (a kernel's name, not its parameters) */
    WORD_CONTAINS,   /* a occurs in the name read in lower case without '_' (all_reduce) */
    WORD_PREFIX,     /* the name read so starts with a */
    PREFIX_NUMBER,   /* the name is a followed by one or more digits */
    BOTH,            /* a and b both occur in the name */
    WORD_WITH,       /* a word of the name starts with a, and b occurs in it; a and b lower
                        case, case ignored */
    TOKEN,           /* a (lower case) is a whole word of the name, case ignored (tokens below) */
    TOKEN_PREFIX,    /* a word of the name starts with a (lower case), case ignored */
};

typedef struct gs_name_rule {
    enum gs_name_group group;
    enum match match;
    const char *a, *b;
    unsigned value;
} gs_name_rule;

/* Read top to bottom; within a group the first row that matches gives the value. */
extern const gs_name_rule gs_name_rules[];
extern const size_t gs_name_rules_n;

#endif
