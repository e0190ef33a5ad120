#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Classify the sanitizer (ASan, UBSan, LSan) or valgrind reports of a stderr.

  sancheck.py [--valgrind] STDERR

Prints one line per distinct report, "FAIL ..." for the ones that count
against the series, "note ..." for the others, each with its top frames.
Exit status: 1 when a FAIL line was printed.

Fails: any AddressSanitizer ERROR; a UBSan runtime error, a LeakSanitizer
leak or a valgrind invalid read/write/free or uninitialised use with a
frame (or, for UBSan, its location) in a file the series touches.
"""
import re
import sys

SERIES = re.compile(r'(?<![\w-])(unwind-libdw|libdw|srcline|dwarf-aux|machine|header|pmus|evlist|'
                    r'sideband_evlist|unwind-libunwind-local|unwind-libunwind|unwind|'
                    r'libunwind-x86_64|libunwind-arch|dso|symbol)\.[ch]:\d+')
FRAME = re.compile(r'^\s+#(\d+) (?:0x[0-9a-f]+ in )?(.*)$')
VGFRAME = re.compile(r'^==\d+==\s+(?:at|by) 0x[0-9A-F]+: (.*)$')


def short(frame):
    """'func file.c:12' from a sanitizer or valgrind frame."""
    frame = re.sub(r'\s+\(BuildId: [0-9a-f]+\)', '', frame)
    m = re.match(r'(\S+) (?:\()?(\S*/)?([^/\s]+?:\d+)(?::\d+)?\)?$', frame)
    if m:
        return f'{m.group(1)} {m.group(3)}'
    return frame.split('/')[-1].rstrip(')')


def blocks(lines, valgrind):
    """(title, [frames]) of each report."""
    out, cur = [], None
    for l in lines:
        l = l.rstrip('\n')
        if valgrind:
            m = VGFRAME.match(l)
            if m and cur:
                cur[1].append(m.group(1))
                continue
            m = re.match(r'^==\d+== (Invalid (?:read|write|free).*|.*uninitialised.*|'
                         r'Mismatched free.*|Source and destination overlap.*|'
                         r'Syscall param.*|Process terminating.*)$', l)
            if m:
                cur = (m.group(1), [])
                out.append(cur)
            elif re.match(r'^==\d+==\s*$', l):
                cur = None
            continue
        m = FRAME.match(l)
        if m and cur is not None:
            cur[1].append(m.group(2))
            continue
        if 'ERROR: AddressSanitizer' in l or 'ERROR: LeakSanitizer' in l and 'detected memory leaks' not in l:
            cur = ('ASAN ' + l.split('ERROR: ', 1)[1], [])
            out.append(cur)
        elif 'runtime error:' in l:
            cur = ('UBSAN ' + l.strip(), [])
            out.append(cur)
        elif re.match(r'^(Direct|Indirect) leak of', l):
            cur = ('LEAK ' + l.strip(), [])
            out.append(cur)
        elif m is None and cur is not None and l.strip() == '':
            cur = None
    return out


def main():
    valgrind = sys.argv[1] == '--valgrind'
    path = sys.argv[-1]
    try:
        lines = open(path, errors='replace').readlines()
    except OSError:
        return 0
    fail = False
    seen = set()
    for title, frames in blocks(lines, valgrind):
        in_series = [f for f in frames if SERIES.search(f)]
        if title.startswith('UBSAN') and SERIES.search(title):
            in_series.insert(0, title)
        if valgrind:
            bad = bool(in_series) and not title.startswith(('Syscall', 'Process terminating'))
        elif title.startswith('ASAN'):
            bad = True
        else:
            bad = bool(in_series)
        top = ' < '.join(short(f) for f in frames[:6])
        key = (title.split(' of ')[0] if title.startswith('LEAK') else title, top)
        if key in seen:
            continue
        seen.add(key)
        fail |= bad
        print(f"{'FAIL' if bad else 'note'} {title[:200]} | {top}")
    return 1 if fail else 0


sys.exit(main())
