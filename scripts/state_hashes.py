#!/usr/bin/env python3
"""The state-hash of every shipped scene on every path, for a change that must not change any result.

Usage: scripts/state_hashes.py VKSIM OUT.txt [--frames N] [--only FILE] [--compare BEFORE.txt]

Runs VKSIM (a build of vksim) on every scene of scenes/, headless, for N frames
(default 200), and on variants of it: each PBD path ("perColour", "workgroup",
"clusters") with each colouring ("perFamily", "acrossFamilies") where the scene
has PBD objects, each PD Jacobi path ("perIteration", "workgroup", "tiled")
where it has PD objects, and each rigid path ("oneWorkgroup", "perSubstep")
where it has bodies. Writes one line per run to OUT.txt:

    <scene> <variant> rc=<exit status> <state-hash or ->[ <last line of stderr>]

A run that is refused (a path the scene does not fit, tetgen missing) or goes
non-finite by design (springs_overshoot.json) says so, and must say the same
before and after. --only runs just the scene/variant pairs that FILE (an earlier
OUT.txt) lists. --compare prints the pairs whose status or hash differ from
BEFORE.txt and exits 1 if there are any. Run it with two builds on one device:
hashes are equal across builds, not across devices (docs/testing.md).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def strip_comments(text):
    """The scene files are JSON with // and /* */ comments (as the loader reads them)."""
    out, i, n, in_string = [], 0, len(text), False
    while i < n:
        c = text[i]
        if in_string:
            out.append(c)
            if c == '\\':
                out.append(text[i + 1])
                i += 2
                continue
            in_string = c != '"'
            i += 1
        elif c == '"':
            in_string = True
            out.append(c)
            i += 1
        elif text.startswith('//', i):
            while i < n and text[i] != '\n':
                i += 1
        elif text.startswith('/*', i):
            i = text.index('*/', i) + 2
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def variants(scene):
    methods = {o.get('method', 'pbd') for o in scene.get('objects', [])}
    yield 'shipped', {}
    if 'pbd' in methods:
        for path in ('perColour', 'workgroup', 'clusters'):
            for colouring in ('perFamily', 'acrossFamilies'):
                yield f'pbd={path},{colouring}', {'pbdPath': path, 'pbdColouring': colouring}
    if 'pd' in methods:
        for path in ('perIteration', 'workgroup', 'tiled'):
            yield f'pd={path}', {'pd': {'jacobiPath': path}}
    if scene.get('bodies'):
        for path in ('oneWorkgroup', 'perSubstep'):
            yield f'rigid={path}', {'rigid': {'path': path}}


def key(line):
    fields = line.split()
    return ' '.join(fields[:2]), ' '.join(fields[2:4])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('vksim')
    parser.add_argument('out')
    parser.add_argument('--frames', type=int, default=200)
    parser.add_argument('--only')
    parser.add_argument('--compare')
    args = parser.parse_args()
    vksim = os.path.abspath(args.vksim)  # the runs start in a folder of their own
    only = {key(line)[0] for line in open(args.only)} if args.only else None

    # Variants live beside links to assets/ and tests/, so that the scenes'
    # relative paths (../assets/...) resolve as from scenes/.
    work = tempfile.mkdtemp(prefix='vksim-hashes-')
    os.mkdir(os.path.join(work, 'scenes'))
    for folder in ('assets', 'tests'):
        os.symlink(os.path.join(ROOT, folder), os.path.join(work, folder))

    lines = []
    for name in sorted(os.listdir(os.path.join(ROOT, 'scenes'))):
        if not name.endswith('.json'):
            continue
        with open(os.path.join(ROOT, 'scenes', name)) as f:
            scene = json.loads(strip_comments(f.read()))
        for variant, settings in variants(scene):
            if only is not None and f'{name} {variant}' not in only:
                continue
            edited = json.loads(json.dumps(scene))
            solver = edited.setdefault('solver', {})
            for k, v in settings.items():
                if isinstance(v, dict):
                    solver.setdefault(k, {}).update(v)
                else:
                    solver[k] = v
            file = os.path.join(work, 'scenes', f'{name[:-5]}_{re.sub("[=,]", "_", variant)}.json')
            with open(file, 'w') as f:
                json.dump(edited, f)
            run = subprocess.run([vksim, file, '--headless', '--quiet', '--hash', '--frames', str(args.frames)],
                                 capture_output=True, text=True, cwd=os.path.join(work, 'scenes'))
            found = re.search(r'state-hash: (\w+)', run.stdout)
            line = f'{name} {variant} rc={run.returncode} {found.group(1) if found else "-"}'
            if not found:
                line += ' ' + (run.stderr.strip().splitlines() or [''])[-1].replace(work + '/', '')[:200]
            print(line, flush=True)
            lines.append(line)
    with open(args.out, 'w') as f:
        f.write('\n'.join(lines) + '\n')

    if args.compare:
        before = dict(key(line) for line in open(args.compare))
        differ = [(pair, before.get(pair), result) for pair, result in map(key, lines) if before.get(pair) != result]
        for pair, was, now in differ:
            print(f'differs: {pair}: {was} before, {now} now')
        print(f'{len(lines) - len(differ)} of {len(lines)} runs the same')
        return 1 if differ else 0
    return 0


if __name__ == '__main__':
    sys.exit(main())
