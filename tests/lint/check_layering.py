#!/usr/bin/env python3
"""The layering rule of doc/design.md §3: each source folder includes only the folders it may.
The rule is the table of that section, read from the page: a row per folder of src/ (analysis's
six folders each a row), its last column the folders it may include, in backticks (`analysis`
for all six, — for none, "anything" for no rule). Prints every include that breaks it and exits
1; exits 1 too, saying why, when the table cannot be read or misses a folder; exit 0 when the
tree follows the rule."""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
DESIGN = os.path.join(ROOT, 'doc', 'design.md')
SECTION = '## 3. Source folders and the layering rule'
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+(?:/[a-z_]+)?)/[a-z_0-9]+\.h"', re.M)
ANYTHING = None  # a folder with no rule


class TableError(Exception):
    pass


def folder_of(path):
    """'analysis/trace' for analysis's subfolders, else the top folder."""
    parts = path.split('/')
    return '/'.join(parts[:2]) if parts[0] == 'analysis' and len(parts) > 2 else parts[0]


def cells(line):
    return [c.strip() for c in line.strip().strip('|').split('|')]


def read_rule(path=DESIGN):
    """{folder: set of folders it may include, or ANYTHING}, from the table of §3."""
    text = open(path, encoding='utf-8').read()
    at = text.find('\n' + SECTION + '\n')
    if at < 0:
        raise TableError(f'no heading "{SECTION}"')
    section = text[at + 1:].split('\n## ', 1)[0].split('\n')
    head = next((i for i, line in enumerate(section)
                 if line.startswith('|') and cells(line)[0] == 'folder'), None)
    if head is None or cells(section[head])[-1] != 'may include':
        raise TableError('no table whose first column is "folder" and last "may include"')
    rule, where = {}, {}
    for n, line in enumerate(section[head + 2:], head + 2):
        if not line.startswith('|'):
            break
        row = cells(line)
        names = re.findall(r'`src/([a-z_./]+?)/?`', row[0])
        if not names or re.sub(r'`[^`]*`|[,\s]', '', row[0]):
            raise TableError(f'row {n - head - 1}: the folder cell "{row[0]}" is not folders '
                             'of src/ in backticks')
        may = row[-1]
        if may == 'anything':
            allowed = ANYTHING
        elif may == '—':
            allowed = set()
        else:
            allowed = set(re.findall(r'`([a-z_/]+)`', may))
            if not allowed or re.sub(r'`[a-z_/]+`|[,\s]', '', may):
                raise TableError(f'{row[0]}: "may include" is "{may}", not folders in backticks, '
                                 '— or anything')
        for name in names:
            if name in rule:
                raise TableError(f'{row[0]}: `src/{name}/` has two rows')
            rule[name] = allowed
            where[name] = row[0]
    if not rule:
        raise TableError('the table has no rows')
    # `analysis` stands for its folders; any other name must be a row of the table.
    subfolders = {f for f in rule if f.startswith('analysis/')}
    for name, allowed in rule.items():
        if allowed is ANYTHING:
            continue
        if 'analysis' in allowed:
            allowed.discard('analysis')
            allowed |= subfolders
        unknown = allowed - set(rule)
        if unknown:
            raise TableError(f'{where[name]} may include {sorted(unknown)}, which the table has '
                             'no row for')
    return rule


def main():
    try:
        rule = read_rule()
    except (OSError, TableError) as e:
        print(f'doc/design.md §3: cannot read the layering rule: {e}')
        return 1
    root = os.path.join(ROOT, 'src')
    bad = 0
    for dirpath, _, files in sorted(os.walk(root)):
        for name in sorted(files):
            if not name.endswith(('.c', '.h')):
                continue
            rel = os.path.relpath(os.path.join(dirpath, name), root)
            src = folder_of(rel) if '/' in rel else rel
            if src not in rule:
                print(f'{rel}: doc/design.md §3 has no row for {src}')
                bad += 1
                continue
            if rule[src] is ANYTHING:
                continue
            with open(os.path.join(dirpath, name), encoding='utf-8') as f:
                for dst in INCLUDE.findall(f.read()):
                    dst = folder_of(dst + '/x.h')
                    if dst != src and dst not in rule[src]:
                        print(f'{rel}: {src} includes {dst}, which doc/design.md §3 does not '
                              'allow')
                        bad += 1
    for folder in sorted(rule):
        if not os.path.exists(os.path.join(root, folder)):
            print(f'doc/design.md §3 has a row for src/{folder}, which does not exist')
            bad += 1
    if bad:
        print(f'{bad} problem(s) with the layering rule (doc/design.md §3)')
        return 1
    print(f'ok: the {len(rule)} folders of doc/design.md §3 include only what it allows')
    return 0


if __name__ == '__main__':
    sys.exit(main())
