"""The worked example of CONTRIBUTING.md as data: the files it adds (its appendix, one
`### `PATH`` heading and one fenced block per file, the block the whole file) and the lines it
adds to existing files ("In `FILE`, after the line `ANCHOR`, add:" or "after the line starting
with `ANCHOR`", then a fenced block). check_contributing_example.py applies them to a copy of the
tree and builds it; check_doc_paths.py exempts the files it adds from "every cited path exists".

Each function raises ExampleError with a message that says what was not found."""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAGE = 'CONTRIBUTING.md'
APPENDIX = '## Appendix: the files of the worked example'

# A fenced block, possibly indented (inside a list item), closed by a fence of the same length.
FENCE = r'^(?P<indent> *)(?P<fence>`{3,})[\w-]*\n(?P<body>.*?)^(?P=indent)(?P=fence)[ \t]*$'
FILE_BLOCK = re.compile(r'^### `(?P<path>[^`]+)`[ \t]*\n(?:[ \t]*\n)*' + FENCE, re.M | re.S)
INSERTION = re.compile(
    r'In `(?P<file>[^`]+)`,\s+after\s+the\s+line\s+(?P<prefix>starting\s+with\s+)?'
    r'(?P<tick>``?)(?P<anchor>.+?)(?P=tick),\s+add:[ \t]*\n(?:[ \t]*\n)*' + FENCE, re.M | re.S)
# "It takes seven new files and three one-line additions to existing files."
COUNTS = re.compile(r'takes\s+(\w+)\s+new\s+files\s+and\s+(\w+)\s+one-line\s+additions')
NUMBERS = {w: i for i, w in enumerate(
    'zero one two three four five six seven eight nine ten eleven twelve'.split())}


class ExampleError(Exception):
    pass


def _dedent(body, indent):
    lines = body.split('\n')
    if any(line and not line.startswith(indent) for line in lines):
        raise ExampleError(f'a block indented by {len(indent)} has a line indented less')
    return '\n'.join(line[len(indent):] for line in lines)


def read_page(root=ROOT):
    with open(os.path.join(root, PAGE), encoding='utf-8') as f:
        return f.read()


def files(text):
    """[(path, content)] of the appendix, in the page's order."""
    at = text.find('\n' + APPENDIX + '\n')
    if at < 0:
        raise ExampleError(f'{PAGE}: no heading "{APPENDIX}"')
    found = [(m['path'], _dedent(m['body'], m['indent']))
             for m in FILE_BLOCK.finditer(text, at)]
    headings = re.findall(r'^### (.*)$', text[at:], re.M)
    if len(headings) != len(found):
        raise ExampleError(f'{PAGE}: of the {len(headings)} headings of "{APPENDIX}", '
                           f'{len(found)} are "### `PATH`" followed by a fenced block')
    if not found:
        raise ExampleError(f'{PAGE}: "{APPENDIX}" has no "### `PATH`" heading followed by a '
                           'fenced block')
    paths = [p for p, _ in found]
    if len(set(paths)) != len(paths):
        raise ExampleError(f'{PAGE}: a file is given twice in the appendix: {paths}')
    return found


def insertions(text):
    """[(file, anchor, is_prefix, lines)]: the lines to add after the anchor line of file."""
    found = []
    for m in INSERTION.finditer(text):
        anchor = m['anchor']
        if m['tick'] == '``':  # a code span of two backticks is padded by one space each side
            anchor = anchor[1:] if anchor.startswith(' ') else anchor
            anchor = anchor[:-1] if anchor.endswith(' ') else anchor
        body = _dedent(m['body'], m['indent']).rstrip('\n')
        found.append((m['file'], anchor, bool(m['prefix']), body.split('\n')))
    if not found:
        raise ExampleError(f'{PAGE}: no "In `FILE`, after the line `ANCHOR`, add:" followed by a '
                           'fenced block')
    return found


def stated_counts(text):
    """(new files, one-line additions) as the page states them in words."""
    m = COUNTS.search(text)
    if not m:
        raise ExampleError(f'{PAGE}: no "takes N new files and M one-line additions"')
    try:
        return NUMBERS[m[1]], NUMBERS[m[2]]
    except KeyError as e:
        raise ExampleError(f'{PAGE}: "{m[0]}": {e} is not a number in words') from None


def apply(text, root):
    """Writes the example's files into the tree at root and adds its lines. Returns the files."""
    new = files(text)
    for path, content in new:
        dest = os.path.join(root, path)
        if os.path.exists(dest):
            raise ExampleError(f'{path}: the example adds it, but the tree already has it')
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, 'w', encoding='utf-8') as f:
            f.write(content)
    for path, anchor, is_prefix, lines in insertions(text):
        dest = os.path.join(root, path)
        if not os.path.isfile(dest):
            raise ExampleError(f'{PAGE}: adds a line to {path}, which the tree does not have')
        with open(dest, encoding='utf-8') as f:
            old = f.read().split('\n')
        hits = [i for i, line in enumerate(old)
                if (line.lstrip().startswith(anchor) if is_prefix
                    else line.strip() == anchor.strip())]
        what = 'starting with' if is_prefix else 'equal to'
        if len(hits) != 1:
            raise ExampleError(f'{PAGE}: {path} has {len(hits)} lines {what} "{anchor}" '
                               '(the anchor of a line to add must match exactly one)')
        old[hits[0] + 1:hits[0] + 1] = lines
        with open(dest, 'w', encoding='utf-8') as f:
            f.write('\n'.join(old))
    return new
