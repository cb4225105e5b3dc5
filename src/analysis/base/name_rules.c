/* The name rules (name_rules.h): matching a name against the table (name_rule_table.c), a
 * single judgement, and a trace's every name judged once. */
#include "analysis/base/name_rules.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/base/flops.h"
#include "analysis/base/name_rule_table.h"
#include "common/util.h"
#include "common/vec.h"

_Static_assert(GS_NAME__COUNT <= 64, "a bit per group in gs_name_judge_role's `decided`");

/* The groups' layout (name_rules.h). FLOP_KIND's names beyond its rules are the keys of the FLOP
 * formulas (flops.c), which say it. */
static const struct group {
    enum gs_name_role role;
    uint8_t shift, bits;
    unsigned dflt;
} groups[GS_NAME__COUNT] = {
#define GS_NAME_GROUP_INFO(g, role, shift, bits, dflt)                                             \
    [GS_NAME_##g] = {GS_ROLE_##role, shift, bits, dflt},
    GS_NAME_GROUPS(GS_NAME_GROUP_INFO)
#undef GS_NAME_GROUP_INFO
};

/* ---- matching ------------------------------------------------------------------------------- */

static bool contains_ci(const char *s, const char *needle)
{
    size_t n = strlen(needle);
    for (; *s; s++) {
        size_t i = 0;
        while (i < n && s[i] && tolower((unsigned char)s[i]) == needle[i])
            i++;
        if (i == n)
            return true;
    }
    return false;
}

/* Whether `word` (lower case, no '_') matches s read in lower case with its '_' skipped, from s's
 * start on. */
static bool word_at(const char *s, const char *word)
{
    for (; *word; s++) {
        if (*s == '_')
            continue;
        if (!*s || tolower((unsigned char)*s) != *word)
            return false;
        word++;
    }
    return true;
}

static bool word_contains(const char *s, const char *word)
{
    for (; *s; s++)
        if (*s != '_' && word_at(s, word))
            return true;
    return false;
}

/* Words of a name: runs of letters or of digits, split where a lower-case letter meets an upper-case
 * one (ConvertdQ: Convertd, Q) and before the last capital of a run of capitals that a lower-case
 * letter follows (LAMBStage: LAMB, Stage), as C++ and CUDA identifiers are written. */
static bool word_starts(const char *name, size_t i)
{
    unsigned char c = (unsigned char)name[i];
    if (!isalnum(c))
        return false;
    if (i == 0)
        return true;
    unsigned char p = (unsigned char)name[i - 1], n = (unsigned char)name[i + 1];
    if (!isalnum(p) || !isalpha(p) != !isalpha(c))
        return true;
    return isupper(c) && (islower(p) || (isupper(p) && islower(n)));
}

static bool word_ends(const char *name, size_t i)
{
    return name[i] == '\0' || word_starts(name, i) || !isalnum((unsigned char)name[i]);
}

/* Whether a word of name starts with `word` (lower case); whole: is it. */
static bool token_match(const char *name, const char *word, bool whole)
{
    size_t n = strlen(word);
    for (size_t i = 0; name[i]; i++) {
        if (!word_starts(name, i))
            continue;
        size_t k = 0;
        while (k < n && name[i + k] && tolower((unsigned char)name[i + k]) == word[k])
            k++;
        if (k == n && (!whole || word_ends(name, i + n)))
            return true;
    }
    return false;
}

static bool matches(const gs_name_rule *r, const char *name)
{
    size_t n = strlen(r->a);
    switch (r->match) {
    case PREFIX:
        return strncmp(name, r->a, n) == 0;
    case CONTAINS:
        return strstr(name, r->a) != NULL;
    case CONTAINS_CI:
        return contains_ci(name, r->a);
    case EXACT:
        return strcmp(name, r->a) == 0;
    case PREFIX_CONTAINS:
        return strncmp(name, r->a, n) == 0 && strstr(name + n, r->b) != NULL;
    case PREFIX_SUFFIX:
        return strncmp(name, r->a, n) == 0 && gs_ends_with(name, r->b);
    case CALL:
        return strncmp(name, r->a, n) == 0 && (name[n] == '\0' || name[n] == '_');
    case BEFORE_PAREN: {
        const char *hit = strstr(name, r->a);
        return hit && (size_t)(hit - name) < strcspn(name, "(");
    }
    case WORD_CONTAINS:
        return word_contains(name, r->a);
    case WORD_PREFIX:
        return word_at(name, r->a);
    case BOTH:
        return strstr(name, r->a) != NULL && strstr(name, r->b) != NULL;
    case WORD_WITH:
        return token_match(name, r->a, false) && contains_ci(name, r->b);
    case TOKEN:
        return token_match(name, r->a, true);
    case TOKEN_PREFIX:
        return token_match(name, r->a, false);
    case PREFIX_NUMBER:
        return strncmp(name, r->a, n) == 0 && name[n] &&
               name[n + strspn(name + n, "0123456789")] == '\0';
    }
    return false;
}

unsigned gs_name_judge(enum gs_name_group g, const char *name)
{
    if (!name)
        return groups[g].dflt;
    for (size_t i = 0; i < gs_name_rules_n; i++)
        if (gs_name_rules[i].group == g && matches(&gs_name_rules[i], name))
            return gs_name_rules[i].value;
    return g == GS_NAME_FLOP_KIND ? (unsigned)gs_flop_kind_of(name) : groups[g].dflt;
}

uint64_t gs_name_judge_role(enum gs_name_role role, const char *name)
{
    uint64_t decided = 0, packed = 0; /* decided: a bit per group */
    for (size_t i = 0; name && i < gs_name_rules_n; i++) {
        const gs_name_rule *r = &gs_name_rules[i];
        if (groups[r->group].role != role || decided & (1ull << r->group) || !matches(r, name))
            continue;
        decided |= 1ull << r->group;
        packed |= (uint64_t)r->value << groups[r->group].shift;
    }
    for (int g = 0; g < GS_NAME__COUNT; g++) {
        if (groups[g].role != role || decided & (1ull << g))
            continue;
        unsigned v = g == GS_NAME_FLOP_KIND && name ? (unsigned)gs_flop_kind_of(name)
                                                     : groups[g].dflt;
        packed |= (uint64_t)v << groups[g].shift;
    }
    return packed;
}

/* ---- a trace's names ----------------------------------------------------------------------- */

/* The bits of a role's groups, and every group's default packed. */
static uint64_t role_bits(enum gs_name_role role)
{
    uint64_t bits = 0;
    for (int g = 0; g < GS_NAME__COUNT; g++)
        if (groups[g].role == role)
            bits |= ((1ull << groups[g].bits) - 1) << groups[g].shift;
    return bits;
}

static uint64_t default_word(void)
{
    uint64_t word = 0;
    for (int g = 0; g < GS_NAME__COUNT; g++)
        word |= (uint64_t)groups[g].dflt << groups[g].shift;
    return word;
}

/* Judges name id for a role once; `seen` holds the roles already judged, a bit each. */
static void judge(const gs_trace *t, gs_names *out, uint8_t *seen, gs_str id,
                  enum gs_name_role role, uint64_t bits)
{
    if (seen[id] & (1u << role))
        return;
    seen[id] |= (uint8_t)(1u << role);
    out->v[id] = (out->v[id] & ~bits) | gs_name_judge_role(role, gs_trace_str(t, id));
}

int gs_names_classify(const gs_trace *t, gs_names *out, gs_error *err)
{
    size_t n = t->strings.n ? t->strings.n : 1;
    out->v = gs_array_new(n, sizeof *out->v);
    out->n = t->strings.n;
    uint8_t *seen = calloc(n, 1);
    if (!out->v || !seen) {
        free(seen);
        gs_names_free(out);
        return gs_fail_oom(err);
    }
    /* A name not judged for a role reads as the role's defaults, never as another answer. */
    const uint64_t dflt = default_word();
    for (size_t i = 0; i < n; i++)
        out->v[i] = dflt;
    uint64_t bits[GS_ROLE__COUNT];
    for (int r = 0; r < GS_ROLE__COUNT; r++)
        bits[r] = role_bits((enum gs_name_role)r);
    for (size_t i = 0; i < t->kernels.n; i++)
        judge(t, out, seen, t->kernels.v[i].name, GS_ROLE_GPU, bits[GS_ROLE_GPU]);
    for (size_t i = 0; i < t->memops.n; i++)
        judge(t, out, seen, t->memops.v[i].name, GS_ROLE_GPU, bits[GS_ROLE_GPU]);
    for (size_t i = 0; i < t->syncs.n; i++)
        judge(t, out, seen, t->syncs.v[i].name, GS_ROLE_GPU, bits[GS_ROLE_GPU]);
    for (size_t i = 0; i < t->ranges.n; i++)
        judge(t, out, seen, t->ranges.v[i].name, GS_ROLE_RANGE, bits[GS_ROLE_RANGE]);
    for (size_t i = 0; i < t->apis.n; i++)
        judge(t, out, seen, t->apis.v[i].name, GS_ROLE_API, bits[GS_ROLE_API]);
    for (size_t i = 0; i < t->coll_args.n; i++)
        judge(t, out, seen, t->coll_args.v[i].collective, GS_ROLE_COLL_ARG,
              bits[GS_ROLE_COLL_ARG]);
    free(seen);
    return 0;
}

void gs_names_free(gs_names *n)
{
    free(n->v);
    n->v = NULL;
    n->n = 0;
}
