#!/usr/bin/env python3
"""The docs' relative links: in README.md, docs/*.md and bench/**/*.md every
relative link's file or folder exists, and an #anchor into a .md file names
one of its headings (GitHub's anchor rules). Prints each broken link with its
file and line; exits 1 if there is one.
Usage: check_links.py [SOURCE_DIR]"""
import glob, os, re, sys, unicodedata

root = sys.argv[1] if len(sys.argv) > 1 else '.'
os.chdir(root)
files = sorted(set(glob.glob('docs/*.md') + ['README.md'] + glob.glob('bench/**/*.md', recursive=True)))

FENCE = re.compile(r'^\s*(```|~~~)')
LINK = re.compile(r'(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
REFDEF = re.compile(r'^\s{0,3}\[([^\]]+)\]:\s*(\S+)')

def strip_code_spans(line):
    return re.sub(r'(`+)(.+?)\1', lambda m: ' ' * len(m.group(0)), line)

def slug(text):
    text = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', text)   # links -> their text
    text = text.replace('`', '')
    text = re.sub(r'<[^>]+>', '', text)                     # inline HTML
    text = text.replace('*', '')
    text = text.strip().lower()
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch in ' -_' or cat[0] in 'LN' or cat == 'Mn':
            out.append(ch)
    return ''.join(out).replace(' ', '-')

anchor_cache = {}
def anchors(path):
    if path not in anchor_cache:
        seen, result, fenced = {}, set(), False
        for line in open(path, encoding='utf-8'):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if fenced:
                continue
            m = re.match(r'^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$', line)
            if not m:
                continue
            s = slug(m.group(2))
            n = seen.get(s, 0)
            result.add(s if n == 0 else f'{s}-{n}')
            seen[s] = n + 1
        for m in re.finditer(r'<a\s+(?:name|id)="([^"]+)"', open(path, encoding='utf-8').read()):
            result.add(m.group(1))
        anchor_cache[path] = result
    return anchor_cache[path]

bad = checked = 0
for f in files:
    fenced = False
    for no, line in enumerate(open(f, encoding='utf-8'), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        text = strip_code_spans(line)
        targets = [m.group(3) for m in LINK.finditer(text)]
        m = REFDEF.match(text)
        if m:
            targets.append(m.group(2))
        for target in targets:
            if re.match(r'^[a-z][a-z0-9+.-]*:', target, re.I):   # http:, mailto:, ...
                continue
            checked += 1
            path, _, anchor = target.partition('#')
            dest = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
            problem = None
            if not os.path.exists(dest):
                problem = 'no such file or folder'
            elif anchor and dest.endswith('.md') and anchor not in anchors(dest):
                problem = f'no heading #{anchor} in {dest}'
            if problem:
                bad += 1
                print(f'{f}:{no}: {target}: {problem}')
print(f'{checked} relative links checked in {len(files)} files, {bad} broken')
sys.exit(1 if bad else 0)
