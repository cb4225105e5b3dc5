#!/usr/bin/env python3
"""The layering rule of doc/design.md §3: each source folder includes only the folders it may.
Prints every include that breaks it and exits 1; exit 0 when the tree follows the rule."""
import os
import re
import sys

# folder -> the folders its files may include (itself always allowed).
ALLOWED = {
    'common': set(),
    'model': {'common'},
    'ingest': {'common', 'model'},
    'analysis/base': {'common', 'model'},
    'analysis/trace': {'common', 'model', 'analysis/base'},
    'analysis/crossrank': {'common', 'model', 'analysis/base'},
    'analysis/diagnosis': {'common', 'model', 'analysis/base', 'analysis/trace',
                           'analysis/crossrank'},
    'analysis/pipeline': {'common', 'model', 'ingest', 'analysis/base', 'analysis/trace',
                          'analysis/crossrank', 'analysis/diagnosis'},
    'compare': {'common', 'model', 'analysis'},
    'render': {'common', 'model', 'analysis', 'compare'},
    'export': {'common', 'model', 'ingest', 'analysis'},
    'probe': {'common'},
    'collect': {'common', 'probe'},
    'monitor': {'common', 'probe', 'ingest', 'render'},
    'agent': {'common'},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+(?:/[a-z_]+)?)/[a-z_0-9]+\.h"', re.M)


def folder_of(path):
    """'analysis/trace' for analysis's subfolders, else the top folder."""
    parts = path.split('/')
    return '/'.join(parts[:2]) if parts[0] == 'analysis' and len(parts) > 2 else parts[0]


def allowed(src, dst):
    if dst == src or folder_of(dst + '/x.h') == src:
        return True
    return any(dst == a or dst.startswith(a + '/') for a in ALLOWED[src])


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'src')
    bad = 0
    for dirpath, _, files in os.walk(root):
        for name in sorted(files):
            if not name.endswith(('.c', '.h')):
                continue
            rel = os.path.relpath(os.path.join(dirpath, name), root)
            if '/' not in rel or rel.startswith('cmd/'):
                continue  # main.c and src/cmd/ may include anything
            src = folder_of(rel)
            if src not in ALLOWED:
                print(f'{rel}: folder {src} has no layering rule in {__file__}')
                bad += 1
                continue
            with open(os.path.join(dirpath, name), encoding='utf-8') as f:
                for dst in INCLUDE.findall(f.read()):
                    if not allowed(src, dst):
                        print(f'{rel}: {src} includes {dst}, which the layering rule forbids')
                        bad += 1
    if bad:
        print(f'{bad} include(s) break the layering rule (doc/design.md §3)')
        return 1
    print('ok: every folder includes only the folders below it')
    return 0


if __name__ == '__main__':
    sys.exit(main())
