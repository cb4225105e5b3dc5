#!/usr/bin/env python3
"""No exported function nobody calls: every function of src/ with external linkage (defined
without `static`) must be named somewhere in src/, python/, tests/ or bench/ besides its own
definition and its declaration. Prints each one found and exits 1; exit 0 when there is none."""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
# A definition: a line starting with a return type and a name, the parameter list, then `{` on
# the next line (the house style), not static, not a macro.
DEFINITION = re.compile(r'^(?!static\b)(?:[A-Za-z_][\w ]*[\s*])(\w+)\(([^;{}]*)\)\s*\n\{', re.M)
# Entry points called from outside C: the CUDA and NVTX injection hooks, main, the fuzz entry.
EXTERNAL = {'main', 'InitializeInjection', 'InitializeInjectionNvtx2', 'LLVMFuzzerTestOneInput'}


def sources(folder, exts):
    for dirpath, _, files in os.walk(os.path.join(ROOT, folder)):
        for name in sorted(files):
            if name.endswith(exts):
                yield os.path.join(dirpath, name)


def main():
    texts = {path: open(path, encoding='utf-8', errors='replace').read()
             for folder in ('src', 'python', 'tests', 'bench') for path in sources(folder, ('.c', '.h', '.py'))}
    defined = {}
    for path, text in texts.items():
        if path.endswith('.c'):
            for m in DEFINITION.finditer(text):
                defined.setdefault(m.group(1), path)
    words = {}
    for text in texts.values():
        for w in re.findall(r'\b[A-Za-z_]\w*\b', text):
            words[w] = words.get(w, 0) + 1
    bad = []
    for name, path in sorted(defined.items()):
        if name in EXTERNAL:
            continue
        header = path[:-2] + '.h'
        declared = header in texts and re.search(r'\b%s\s*\(' % re.escape(name), texts[header])
        # the definition, plus the declaration in its header when there is one
        if words.get(name, 0) <= 1 + (1 if declared else 0):
            bad.append(f'{os.path.relpath(path, ROOT)}: {name} is never called')
    for line in bad:
        print(line)
    if bad:
        print(f'{len(bad)} exported function(s) nobody calls: remove them, or make them static')
        return 1
    print(f'ok: each of the {len(defined)} exported functions is called')
    return 0


if __name__ == '__main__':
    sys.exit(main())
