#!/usr/bin/env python3
"""Every path the docs cite exists: README.md, CONTRIBUTING.md and doc/*.md, in code spans, links
and fenced blocks. A path is a word whose first folder is one of the repository's (`src/...`,
`tests/...`, `doc/...`, ...), one of src/'s (`cmd/view.c`, `analysis/base/steps.h`: the docs
write paths inside src/ that way) or one of src/analysis/'s (`pipeline/summarise.c`), or any word
with a folder that names a C source (`x/y.c`, `x/y.h`); a link's target is read from its page's
folder. Braces expand (`stream_summary.{c,h}`: each must exist), globs (`view_*.c`) must match a
file, and a word in capitals stands for any name (`doc/NAME.md`).

Exempt: the files CONTRIBUTING.md's worked example adds (contributing_example.py reads them from
the page), cited on purpose. Prints every missing path with its page and line; exit 1 when
there is one."""
import glob
import os
import re
import sys

import contributing_example as ex

ROOT = ex.ROOT
SRC = os.path.join(ROOT, 'src')
ANALYSIS = os.path.join(SRC, 'analysis')

SPAN = re.compile(r'(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)')
LINK = re.compile(r'\]\(([^)\s]+)\)')
FENCE = re.compile(r'^ *(`{3,}|~{3,})')
WORD = re.compile(r'[\w.\-/{}*?,\[\]$%…]+')


def folders(path):
    return {d for d in os.listdir(path) if os.path.isdir(os.path.join(path, d))}


ROOT_DIRS = folders(ROOT) - {'.git'} - {d for d in folders(ROOT) if d.startswith('build')}
SRC_DIRS = folders(SRC)
ANALYSIS_DIRS = folders(ANALYSIS)


def expand(word):
    """Brace expansion, one group at a time: a{b,c}d -> abd, acd."""
    m = re.search(r'\{([^{}]*)\}', word)
    if not m:
        return [word]
    return [x for alt in m[1].split(',') for x in expand(word[:m.start()] + alt + word[m.end():])]


def exists(base, rel):
    path = os.path.join(base, rel)
    if os.path.exists(path):
        return True
    pattern = re.sub(r'(?<![A-Za-z0-9])[A-Z]{2,}(?![A-Za-z0-9])', '*', rel)  # NAME: any name
    return any(c in pattern for c in '*?[') and bool(glob.glob(os.path.join(base, pattern)))


def bases(word, in_fence):
    """The folders a cited word is read from, or None when it is not a repository path. In a
    fenced block (commands, their output) only paths from the root count: `trace/rank0.json`
    there is the user's folder, not src/analysis/trace/."""
    first = word.split('/')[0]
    if first in ROOT_DIRS:
        return [ROOT]
    if in_fence:
        return None
    if first in SRC_DIRS:
        return [SRC]
    if first in ANALYSIS_DIRS:
        return [ANALYSIS]
    if '/' in word.rstrip('/') and re.search(r'\.[ch](\}|$)|\.\{[ch],', word):
        return [ROOT, SRC, ANALYSIS]
    return None


def clean(word):
    word = word.strip('.,;:()\'"')
    word = re.sub(r':\d+$', '', word)  # file:line
    return word


def words_of(line, in_fence):
    """The words of a line that could be paths: in a fenced block every word, elsewhere the words
    of its code spans."""
    if in_fence:
        return WORD.findall(line)
    return [w for m in SPAN.finditer(line) for w in WORD.findall(m[2])]


def check_page(page, exempt):
    """[(line number, cited, why)] of the page's missing paths."""
    missing = []
    here = os.path.dirname(os.path.join(ROOT, page))
    fence = None
    with open(os.path.join(ROOT, page), encoding='utf-8') as f:
        lines = f.read().split('\n')
    for n, line in enumerate(lines, 1):
        m = FENCE.match(line)
        if m and (fence is None or m[1].startswith(fence) and line.strip() == m[1]):
            fence = m[1] if fence is None else None
            continue
        for target in ([] if fence else LINK.findall(line)):
            target = target.split('#')[0]
            if not target or re.match(r'[a-z]+:', target):
                continue
            rel = os.path.relpath(os.path.join(here, target), ROOT)
            if rel not in exempt and not exists(ROOT, rel):
                missing.append((n, target, 'link'))
        for word in words_of(line, fence is not None):
            word = clean(word)
            # A path cut short in a table (…) or made of a shell variable or pattern ($r, %q{..})
            # names no one file.
            if '/' not in word or any(c in word for c in '…$%'):
                continue
            places = bases(word, fence is not None)
            if not places:
                continue
            for path in expand(word):
                if not any(os.path.relpath(os.path.join(b, path), ROOT) in exempt or
                           exists(b, path) for b in places):
                    missing.append((n, word, path))
                    break
    return missing


def main():
    try:
        exempt = {path for path, _ in ex.files(ex.read_page())}
    except ex.ExampleError as e:
        print(f'FAIL: {e}')
        return 1
    pages = ['README.md', 'CONTRIBUTING.md'] + sorted(
        os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, 'doc', '*.md')))
    bad = 0
    for page in pages:
        for n, word, path in check_page(page, exempt):
            what = '' if path in (word, 'link') else f' ({path})'
            print(f'{page}:{n}: `{word}`{what} does not exist')
            bad += 1
    if bad:
        print(f'{bad} cited path(s) missing')
        return 1
    print(f'ok: every path cited in the {len(pages)} pages exists')
    return 0


if __name__ == '__main__':
    sys.exit(main())
