#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare the call chains of two `perf script` outputs of one perf.data.

  chaincmp.py compare A B [OUTERMOST]
                            B (e.g. the series) must have, for every sample,
                            the frames of A (e.g. upstream) as a prefix of its
                            own, with the same names: same or more frames.
                            OUTERMOST, comma-separated function names where a
                            complete chain ends: a sample whose chain ends in
                            one of them in B only is complete in B and not a
                            difference (A is known to be wrong there).
  chaincmp.py stats A       samples, frames, empty/[unknown] shares (JSON)

perf script prints a sample header line, then one indented line per frame
("<ip> <sym>+<off> (<dso>)"), then a blank line.
"""
import json
import re
import sys

FRAME = re.compile(r'^\s+([0-9a-f]+)\s+(.*?)\s+\((.*)\)\s*$')


def samples(path):
    cur = None
    out = []
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if not line.strip():
                if cur is not None:
                    out.append(cur)
                cur = None
                continue
            if line[0] in ' \t':
                m = FRAME.match(line)
                if cur is None:
                    cur = ('?', [])
                if m:
                    sym = re.sub(r'\+0x[0-9a-f]+$', '', m.group(2))
                    cur[1].append((sym, m.group(3).split('/')[-1]))
                continue
            if cur is not None:
                out.append(cur)
            cur = (line.split()[0] if line.split() else '?', [])
    if cur is not None:
        out.append(cur)
    return out


def stats(path):
    s = samples(path)
    n = len(s) or 1
    frames = sum(len(c) for _, c in s)
    empty = sum(1 for _, c in s if len(c) <= 1)
    unknown = sum(1 for _, c in s if any(sym == '[unknown]' for sym, _ in c))
    return {'samples': len(s), 'frames': frames,
            'frames_per_sample': round(frames / n, 2),
            'shallow_share': round(empty / n, 4),
            'unknown_share': round(unknown / n, 4)}


def same_frame(fa, fb):
    """fb is fa, or fa's name qualified (C++ scopes the first one lacked)."""
    return fa == fb or (fa[1] == fb[1] and fb[0].endswith('::' + fa[0]))


def complete(chain, outermost):
    return bool(chain) and chain[-1][0] in outermost


def compare(a, b, limit=5, outermost=()):
    sa, sb = samples(a), samples(b)
    if len(sa) != len(sb):
        print(f'# sample count differs: {len(sa)} vs {len(sb)}')
        return 1
    bad = 0
    fewer = 0
    deeper = 0
    better = 0
    for i, ((_, ca), (_, cb)) in enumerate(zip(sa, sb)):
        if len(cb) < len(ca):
            fewer += 1
        elif len(cb) > len(ca):
            deeper += 1
        common = min(len(ca), len(cb))
        if (not all(same_frame(x, y) for x, y in zip(ca[:common], cb[:common]))
                or len(cb) < len(ca)):
            if complete(cb, outermost) and not complete(ca, outermost):
                better += 1
                continue
            bad += 1
            if bad <= limit:
                print(f'# sample {i}: differs')
                for k in range(max(len(ca), len(cb))):
                    fa = ca[k] if k < len(ca) else ''
                    fb = cb[k] if k < len(cb) else ''
                    mark = ' ' if fa and fb and same_frame(fa, fb) else '!'
                    print(f'#  {mark} {fa!s:60.60} | {fb!s:60.60}')
    print(f'# {len(sa)} samples: {bad} differ, {fewer} with fewer frames, '
          f'{deeper} deeper in the second'
          + (f', {better} complete in the second only' if outermost else ''))
    return 1 if bad else 0


if __name__ == '__main__':
    if sys.argv[1] == 'compare':
        sys.exit(compare(sys.argv[2], sys.argv[3],
                         outermost=tuple(sys.argv[4].split(',')) if len(sys.argv) > 4 else ()))
    elif sys.argv[1] == 'stats':
        print(json.dumps(stats(sys.argv[2])))
