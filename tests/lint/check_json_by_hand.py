#!/usr/bin/env python3
"""No JSON typed by hand: every JSON output of src/ goes through the writer of
src/common/json_write.h, which alone places commas, brackets, line breaks and indents. Fails on a
C string literal anywhere else in src/ that types JSON structure:

  key        a quoted key and its colon before a value: "\\"rank\\": %d", ",\\"id\\":", "\\"%s\\": "
  structure  brackets, colons and commas with values at most: "{\\n", "},\\n", "\\n  ]", "[%d,%d]"
  member     a comma before a line break or space and a quote: ",\\n  \\"", ", \\""
  putc       a bracket written as a character where JSON is written: fputc('}', out)

A lone bracket ("{", '}') counts only in a file that writes JSON (elsewhere it is a Prometheus
label's); a message that quotes a key ("\\"%s\\": expected a key") is no key before a value.
Adjacent literals are read as one, with the <inttypes.h> macros between them. The check first
tests itself on samples of the code before the writer (MUST_CATCH) and of code it must leave
alone (MUST_PASS). Prints each literal found and exits 1; exit 0 when there is none."""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
WRITER = os.path.join('src', 'common', 'json_write.c')

# A key: \"...\" then a colon, then what starts a value (or the end of the literal).
KEY = re.compile(r'\\"[^"\\]*\\"\s*:\s*(?:$|%|\\"|\{|\[|-?\d|null\b|true\b|false\b)')
# A member separator: a comma, a line break and an indent or a space, and a key's quote.
MEMBER = re.compile(r',(?:\\n *| +)\\"')
# A bracket written as a character, in a file that writes JSON (Prometheus labels have braces too).
PUTC = re.compile(r"\b(?:fputc|putc|putchar)\s*\(\s*'[{}\[\]]'")
# A file that writes JSON: it names the writer (or, before it, the string escaper).
JSON_FILE = re.compile(r'\bgs_json_|"common/json_write\.h"|"render/json\.h"')
# Tokens that stand for a value in a literal: a printf directive, or a JSON constant.
VALUE = re.compile(r'%[-+ #0-9.*]*(?:hh|h|ll|l|j|z|t|L)?[diouxXeEfgGcsp]'
                   r'|\bnull\b|\btrue\b|\bfalse\b')
# What may stand between two literals that C joins into one.
GLUE = re.compile(r'\s*(?:PRI[diouxX](?:8|16|32|64|MAX|PTR)\s*)?')

# Samples of the code before the writer, which the check must catch ...
MUST_CATCH = [
    r'fputs("{\n  \"command\": ", out);',
    r'fputs(",\n  \"rows\": ", out);',
    r'fprintf(out, "%s\"%s\": ", c ? ", " : "", t->cols[c].key);',
    r'fputs(r + 1 < t->nrows ? "},\n" : "}\n", out);',
    r'fprintf(out, "%s]", indent);',
    r'fputs("\n  ]", out);',
    r'fputs(i ? ",\n    " : "\n    ", out);',
    r'fprintf(out, "{\"rank\": %" PRId32 ", \"kind\": ", t->rank);',
    r'fprintf(c->out, ",\"id\":%llu", (unsigned long long)id);',
    r'fputs(c->args ? "," : ",\"args\":{", c->out);',
    r'fputs(c->args ? "}}" : "}", c->out);',
    r'fprintf(out, "[%" PRId32 ",%" PRId32 ",%" PRId32 "]", c->xyz[0], c->xyz[1], c->xyz[2]);',
    r'fputs("null}", out);',
    '#include "render/json.h"\nfputs("}", out);',
    r'fputs(a ? ", {\"action\": " : "{\"action\": ", out);',
    r'fprintf(out, ",\n\"%s\": ", s->key);',
    r'fputs(k ? ",\n " : "\n ", out);',
    'gs_json_string(out, key); fputc(\'}\', out);',
    '#include "common/json_write.h"\nputc(\'[\', out);',
    r'''fprintf(out, "  \"residual_med_ns\": %lld,\n  \"residual_max_ns\": %lld,\n",''',
    r'''fprintf(out, ", \"counted_ops\": %" PRIu64 ", \"trace_flops_ops\": %" PRIu64, a, b);''',
    r'''fprintf(out, "%s\"%s\":\"%s\"", n++ ? "," : "", name, why);''',
    r'''fprintf(out, "{\"ts\":%" PRId64 ".%03d", s, ms);''',
]
# ... and code it must leave alone: messages, CSV, help texts, HTML, comments, Prometheus labels.
MUST_PASS = [
    r'return gs_json_fail(j, "\"%s\": expected a key", s->key);',
    r'return gs_json_fail(j, "\"%s\" has a value of the wrong type or out of range", f->key);',
    r'sep = ",";',
    r'fputs(", ", out);',
    r'fprintf(out, "%s%s", i ? ", " : "", name);',
    r'"  --modules       per nn.Module path (\"GPT2Model_0/GPT2Block_0/Conv1D_0\")\n"',
    r'"(mode=\"reduce-overhead\"); 1 %: doc/diagnosis.md#thresholds",',
    r'fprintf(out, "<span class=\"k%d\" style=\"width:%.2f%%\" title=\"%s: %s (%.1f %%)\">", a);',
    r'if (!s[strcspn(s, ",\"\r\n")]) {',
    r'x = 1; /* a comment that says "{\n" */',
    'if (c == \'{\') depth++;',
    r'fputc(\'}\', out); fputs(": ", out); fputs("{", out); /* Prometheus labels, text */',
    r'gs_json_put_str(w, "name", name); fputs(", ", out); fputs(": ", out); /* text beside */',
]


def is_structure(lit, json_file):
    """Brackets, colons and commas with only white space and values besides: a bracket with a line
    break, more punctuation or a value ("},", "[]", "%s]", "[%d,%d,%d]", "null}"), a lone bracket
    where JSON is written (elsewhere it is a Prometheus label's), or a comma that ends a line."""
    text = lit.replace('\\n', '\n').replace('\\t', '\t')
    bare = VALUE.sub('', text)
    if not bare or not set(bare) <= set('{}[],: \n\t'):
        return False
    brackets = sum(c in '{}[]' for c in bare)
    marks = sum(c in '{}[],:' for c in bare)
    return (bool(brackets and (json_file or '\n' in bare or marks > 1 or bare != text))
            or ',\n' in bare)


def literals(text):
    """(line, literal) for each run of adjacent string literals, comments and char literals left
    out; the literal as written (escapes kept), an <inttypes.h> macro between two parts read as
    "d" ("%" PRId64 reads "%d")."""
    out, i, n, line = [], 0, len(text), 1
    run, run_line, glue_end = None, 0, -1
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
            continue
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            line += text.count('\n', i, j)
            i = j
            continue
        if c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            body = text[i + 1:j]
            if c == '"':
                glue = text[glue_end:i] if run is not None else None
                if glue is not None and GLUE.fullmatch(glue):
                    run += ('d' if 'PRI' in glue else '') + body
                else:
                    if run is not None:
                        out.append((run_line, run))
                    run, run_line = body, line
                glue_end = j + 1
            line += text.count('\n', i, j)
            i = j + 1
            continue
        if c == '\n':
            line += 1
        i += 1
    if run is not None:
        out.append((run_line, run))
    return out


def problems(text):
    """(line, what, text) for each hand-typed piece of JSON in C source text."""
    found = []
    json_file = JSON_FILE.search(text) is not None
    for line, lit in literals(text):
        what = ('key' if KEY.search(lit) else 'structure' if is_structure(lit, json_file)
                else 'member' if MEMBER.search(lit) else None)
        if what:
            found.append((line, what, '"%s"' % lit))
    if not json_file:
        return found
    code = re.sub(r'/\*.*?\*/|//[^\n]*', lambda m: '\n' * m.group(0).count('\n'), text,
                  flags=re.S)  # comments out, lines kept
    for m in PUTC.finditer(code):
        found.append((code.count('\n', 0, m.start()) + 1, 'putc', m.group(0)))
    return found


def self_test():
    bad = [s for s in MUST_CATCH if not problems(s)] + [s for s in MUST_PASS if problems(s)]
    for s in bad:
        print('check_json_by_hand.py is wrong about: %s' % s)
    return not bad


def main():
    if not self_test():
        return 1
    bad = 0
    for dirpath, _, files in os.walk(os.path.join(ROOT, 'src')):
        for name in sorted(files):
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, ROOT)
            if not name.endswith(('.c', '.h')) or rel == WRITER:
                continue
            for line, what, lit in problems(open(path, encoding='utf-8', errors='replace').read()):
                print('%s:%d: JSON typed by hand (%s): %s' % (rel, line, what, lit))
                bad += 1
    if bad:
        print('%d piece(s) of JSON typed by hand: write them with gs_json_writer '
              '(src/common/json_write.h)' % bad)
        return 1
    print('ok: every JSON output goes through src/common/json_write.h')
    return 0


if __name__ == '__main__':
    sys.exit(main())
