#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Classify the sanitizer (ASan, UBSan, LSan) or valgrind reports of a stderr.

  sancheck.py [--valgrind] [--upstream-rc N] STDERR

Prints one line per distinct report, "FAIL ..." for the ones that count
against the series, "note ..." for the others, each with its top frames.
Exit status: 1 when a FAIL line was printed, 2 when upstream's crash was.

Fails: any AddressSanitizer ERROR; a UBSan runtime error, a LeakSanitizer
leak or a valgrind invalid read/write/free or uninitialised use with a
frame (or, for UBSan, its location) in a file the series touches, except a
UBSan error at a source line upstream has verbatim (noted: upstream's).
"""
import os
import re
import subprocess
import sys

# The files the series touches: these, and the names in $SERIES_FILES
# (t-robust.sh: git diff --name-only of the series).
FILES = ['unwind-libdw.c', 'libdw.c', 'srcline.c', 'dwarf-aux.c', 'machine.c', 'header.c',
         'pmus.c', 'evlist.c', 'sideband_evlist.c', 'unwind-libunwind-local.c',
         'unwind-libunwind.c', 'unwind.c', 'libunwind-x86_64.c', 'libunwind-arch.c',
         'maps.c', 'dso.c', 'symbol.c']
FILES += [f for f in os.environ.get('SERIES_FILES', '').split() if f.endswith(('.c', '.h'))]
SERIES = re.compile(r'(?<![\w-])(' + '|'.join(sorted(set(re.escape(f) for f in FILES))) + r'):\d+')
# A UBSan error at a line the series did not change is upstream's: noted,
# not failed. $SAN_GIT: the kernel tree, $SAN_COMMIT: the commit the
# sanitized perf was built from (its perf version), $SAN_UPSTREAM: the base.
_src_cache = {}


def git_lines(ref, path):
    key = (ref, path)
    if key not in _src_cache:
        try:
            _src_cache[key] = subprocess.run(
                ['git', '-C', os.environ['SAN_GIT'], 'show', f'{ref}:tools/perf/{path}'],
                capture_output=True, check=True).stdout.decode(errors='replace').split('\n')
        except (KeyError, OSError, subprocess.CalledProcessError):
            _src_cache[key] = None
    return _src_cache[key]


def upstream_line(title):
    """The source line of a UBSan error, if upstream has it verbatim."""
    m = re.search(r'(\S+\.[ch]):(\d+):\d+: runtime error', title)
    if not m or 'SAN_COMMIT' not in os.environ or 'SAN_UPSTREAM' not in os.environ:
        return None
    path = re.sub(r'^.*?tools/perf/', '', m.group(1))
    ours = git_lines(os.environ['SAN_COMMIT'], path)
    theirs = git_lines(os.environ['SAN_UPSTREAM'], path)
    n = int(m.group(2))
    if not ours or not theirs or n > len(ours) or not ours[n - 1].strip():
        return None
    line = ours[n - 1].strip()
    return line if line in (t.strip() for t in theirs) else None


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


DEADLY = {'SEGV': 11, 'BUS': 7, 'FPE': 8, 'ILL': 4, 'stack-overflow': 11}


def main():
    valgrind = sys.argv[1] == '--valgrind'
    # --upstream-rc N: upstream's exit status on the same input; an ASan
    # SEGV/BUS/FPE/ILL or stack overflow (a SEGV) without a frame in the
    # series' files, where upstream
    # dies of that signal too, is upstream's crash: "known", exit status 2.
    up_rc = int(sys.argv[sys.argv.index('--upstream-rc') + 1]) \
        if '--upstream-rc' in sys.argv and sys.argv[sys.argv.index('--upstream-rc') + 1].isdigit() else None
    known = False
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
            m = re.match(r'ASAN AddressSanitizer: (SEGV|BUS|FPE|ILL|stack-overflow) ', title)
            if m and not in_series and up_rc == 128 + DEADLY[m.group(1)]:
                bad = False
                known = True
                title += ' [upstream dies of it too]'
        else:
            bad = bool(in_series)
        up = upstream_line(title) if bad and title.startswith('UBSAN') else None
        suffix = ''
        if up:
            bad = False
            suffix = f' [upstream\'s line, unchanged by the series: "{up[:80]}"]'
        top = ' < '.join(short(f) for f in frames[:6])
        key = (title.split(' of ')[0] if title.startswith('LEAK') else title, top)
        if key in seen:
            continue
        seen.add(key)
        fail |= bad
        print(f"{'FAIL' if bad else 'note'} {title[:200]}{suffix} | {top}")
    return 1 if fail else 2 if known else 0


sys.exit(main())
