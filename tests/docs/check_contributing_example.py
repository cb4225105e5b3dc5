#!/usr/bin/env python3
"""CONTRIBUTING.md's worked example builds and works, word for word: the tree (the files git
tracks, and those it does not ignore: not build folders) is copied to a temporary folder, the
example's files and one-line additions are applied from the page (contributing_example.py), the
copy is built (gpuscope and the example's unit test only), and then

- the unit test passes;
- every block of the view's page that starts with `$ gpuscope ARGS` is what the program prints;
- on examples/train.json.gz, in its default window and with --all-steps, the JSON rows add up to
  what `kernels` and `memcpy` count over the same window (they read the same trace context), each
  trace's Time (%) to 100, and the CSV says what the JSON says;
- `gpuscope streams --help` and -h are the page's help block, and `gpuscope --help` lists it;
- the layering and unused-function lints say nothing of the example's files.

Exits 77 (skip) only when cmake or a C compiler is missing.

usage: check_contributing_example.py [--cc COMPILER] [--keep]"""
import argparse
import csv
import difflib
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

import contributing_example as ex

COMMAND = 'streams'
TRACE = 'examples/train.json.gz'


class Failure(Exception):
    pass


def run(args, cwd, what):
    p = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    if p.returncode != 0:
        raise Failure(f'{what} failed (exit {p.returncode}): {shlex.join(args)}\n'
                      f'{p.stdout[-4000:]}{p.stderr[-4000:]}')
    return p.stdout


def tree_files():
    """The files git tracks and the untracked ones it does not ignore; outside a git work tree,
    every file but the build folders (/build*/, as .gitignore has it) and caches."""
    git = subprocess.run(['git', 'ls-files', '-z', '--cached', '--others', '--exclude-standard'],
                         cwd=ex.ROOT, capture_output=True)
    if git.returncode == 0:
        return sorted(set(git.stdout.decode().split('\0')) - {''})
    found = []
    for dirpath, dirs, names in os.walk(ex.ROOT):
        top = dirpath == ex.ROOT
        dirs[:] = [d for d in dirs if d not in ('.git', '__pycache__')
                   and not (top and d.startswith('build'))]
        found += [os.path.relpath(os.path.join(dirpath, n), ex.ROOT) for n in names]
    return sorted(found)


def copy_tree(dest):
    for rel in tree_files():
        src = os.path.join(ex.ROOT, rel)
        if not os.path.isfile(src):  # deleted in the work tree, not yet committed
            continue
        os.makedirs(os.path.join(dest, os.path.dirname(rel)), exist_ok=True)
        shutil.copy2(src, os.path.join(dest, rel))


def block_after(text, marker):
    """The first fenced block after the line `marker`, fences removed (tests/cli/test_docs.sh)."""
    lines = text.split('\n')
    if marker not in lines:
        raise Failure(f'no line "{marker}"')
    out, inside = [], False
    for line in lines[lines.index(marker) + 1:]:
        if line.startswith('```'):
            if inside:
                return '\n'.join(out) + '\n'
            inside = True
        elif inside:
            out.append(line)
    raise Failure(f'no fenced block after "{marker}"')


def diff(want, got, what):
    return ''.join(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                        f'{what} (the page)', f'{what} (the program)'))


def check_page(exe, tree, page):
    text = open(os.path.join(tree, page), encoding='utf-8').read()
    want = block_after(text, '<!-- help:begin -->')
    for flag in ('--help', '-h'):
        got = run([exe, COMMAND, flag], tree, f'{COMMAND} {flag}')
        if got != want:
            raise Failure(f"'gpuscope {COMMAND} {flag}' differs from the help block of {page}:\n"
                          + diff(want, got, 'help'))
    examples = re.findall(r'```\n\$ gpuscope (.*?)\n(.*?)```', text, re.S)
    if not examples:
        raise Failure(f'{page} has no example block starting with "$ gpuscope"')
    for args, want in examples:
        got = run([exe] + shlex.split(args), tree, f'gpuscope {args}')
        if got.rstrip('\n') != want.rstrip('\n'):
            raise Failure(f"{page}: the example 'gpuscope {args}' differs from what it prints:\n"
                          + diff(want.rstrip('\n') + '\n', got.rstrip('\n') + '\n', args))
    listed = run([exe, '--help'], tree, 'gpuscope --help')
    if not re.search(rf'^  {COMMAND} +\S', listed, re.M):
        raise Failure(f"'gpuscope --help' does not list {COMMAND}:\n{listed}")
    return len(examples)


def json_of(exe, tree, args):
    return json.loads(run([exe] + args + ['--format', 'json', TRACE], tree, shlex.join(args)))


def check_values(exe, tree, window):
    """The streams' rows against the kernels and copies the other views count in `window`."""
    rows = json_of(exe, tree, [COMMAND] + window)['rows']
    kernels = json_of(exe, tree, ['kernels'] + window)['rows']
    copies = json_of(exe, tree, ['memcpy'] + window)['rows']
    if not rows or not kernels:
        raise Failure(f'{COMMAND} {window}: no rows ({len(rows)}) or no kernels ({len(kernels)})')
    want = {
        'total_ns': sum(r['total_ns'] for r in kernels) + sum(r['total_ns'] for r in copies),
        'count': sum(r['instances'] for r in kernels) + sum(r['count'] for r in copies),
        'kernels': sum(r['instances'] for r in kernels),
    }
    for key, value in want.items():
        got = sum(r[key] for r in rows)
        if got != value:
            raise Failure(f'{COMMAND} {window}: the rows\' {key} add up to {got}; kernels and '
                          f'memcpy count {value}')
    for r in rows:
        if not (r['avg_ns'] == r['total_ns'] // r['count'] and
                r['min_ns'] <= r['avg_ns'] <= r['max_ns'] and 0 <= r['kernels'] <= r['count']):
            raise Failure(f'{COMMAND} {window}: a row does not hold together: {r}')
    pct = sum(r['time_pct'] for r in rows)  # one trace: its rows' shares make 100
    if abs(pct - 100) > 0.01 * len(rows):
        raise Failure(f'{COMMAND} {window}: Time (%) adds up to {pct}')
    text = run([exe, COMMAND] + window + ['--format', 'csv', TRACE], tree, 'csv')
    table = list(csv.DictReader(io.StringIO(text)))
    got = [(int(r['Stream']), int(r['Total Time (ns)']), int(r['Count'])) for r in table]
    if got != [(r['stream'], r['total_ns'], r['count']) for r in rows]:
        raise Failure(f'{COMMAND} {window}: the CSV says {got}, the JSON {rows}')
    return want['total_ns']


def check_lints(tree, added):
    """The lints run on the copy; only what they say of the example's files counts here (the rest
    of the tree has lint.* of its own)."""
    for lint in ('check_layering.py', 'check_unused.py'):
        p = subprocess.run([sys.executable, os.path.join(tree, 'tests', 'lint', lint)],
                           cwd=tree, capture_output=True, text=True)
        said = [line for line in p.stdout.splitlines()
                if any(os.path.relpath(path, 'src') in line or path in line for path in added)]
        if said:
            raise Failure(f'tests/lint/{lint} on the example:\n' + '\n'.join(said))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--cc', default=os.environ.get('CC'))
    parser.add_argument('--keep', action='store_true', help='keep the temporary tree')
    opts = parser.parse_args()
    cc = opts.cc or next((c for c in ('cc', 'gcc', 'clang') if shutil.which(c)), None)
    if not shutil.which('cmake') or not cc or not shutil.which(cc):
        print(f'skip: cmake ({shutil.which("cmake")}) or a C compiler ({cc}) is missing')
        return 77
    text = ex.read_page()
    try:
        new, adds = ex.files(text), ex.insertions(text)
        if ex.stated_counts(text) != (len(new), len(adds)):
            raise ex.ExampleError(f'{ex.PAGE} says the example takes {ex.stated_counts(text)} '
                                  f'(new files, one-line additions); its steps give '
                                  f'{(len(new), len(adds))}')
    except ex.ExampleError as e:
        print(f'FAIL: {e}')
        return 1
    added = [path for path, _ in new]
    tests = [os.path.basename(p)[:-2] for p in added if re.match(r'tests/unit/test_\w+\.c$', p)]
    pages = [p for p in added if p == f'doc/{COMMAND}.md']
    if len(tests) != 1 or not pages:
        print(f'FAIL: the example adds {added}: want one tests/unit/test_*.c and doc/{COMMAND}.md')
        return 1
    tmp = tempfile.mkdtemp(prefix='gs-contributing-')
    tree = os.path.join(tmp, 'tree')
    try:
        copy_tree(tree)
        ex.apply(text, tree)
        build = os.path.join(tmp, 'build')
        run(['cmake', '-S', tree, '-B', build, '-DCMAKE_BUILD_TYPE=Debug',
             f'-DCMAKE_C_COMPILER={cc}'], tree, 'cmake (configure)')
        run(['cmake', '--build', build, '-j2', '--target', 'gpuscope', tests[0]], tree,
            'cmake --build')
        print(run([os.path.join(build, tests[0])], tree, tests[0]).strip())
        exe = os.path.join(build, 'gpuscope')
        n = check_page(exe, tree, pages[0])
        totals = [check_values(exe, tree, w) for w in ([], ['--all-steps'])]
        check_lints(tree, added)
    except (Failure, ex.ExampleError) as e:
        print(f'FAIL: {e}')
        return 1
    finally:
        if opts.keep:
            print(f'kept: {tmp}')
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f'ok: {ex.PAGE}\'s example ({len(new)} files, {len(adds)} lines added) builds; its unit '
          f'test passes; --help and the {n} examples of {pages[0]} are what it prints; GPU time '
          f'{totals[0]} ns in the kept steps, {totals[1]} ns in the whole trace, as kernels and '
          'memcpy count')
    return 0


if __name__ == '__main__':
    sys.exit(main())
