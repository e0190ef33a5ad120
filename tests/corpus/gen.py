#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Corpus for tests/t-robust.sh: damaged perf.data files and DSOs.

  gen.py --rec PERF --out DIR --src tests/workloads/robust.c [--secs 0.3]

Builds the workload (an executable and its shared library, gcc -O2 -g),
records it with PERF (-N and a PERF_CONFIG of its own: no build-id cache, so perf
report reads the DSOs at the paths they ran from), then damages copies of
the recordings and, in place after recording, the DSOs. Everything is
deterministic (random.seed). Writes DIR/manifest.jsonl, one case a line:
  {"group": ..., "name": ..., "data": path, "runs": [[args...], ...],
   "note": ...}
where each run is the perf arguments after the perf binary. Variants that
cannot be made (perf or the toolchain refuses) are listed with "skip".
"""
import argparse
import json
import os
import random
import shutil
import struct
import subprocess
import sys

from elfsec import SHF_COMPRESSED, elf_sections

A = argparse.ArgumentParser()
A.add_argument('--rec', required=True)
A.add_argument('--out', required=True)
A.add_argument('--src', required=True)
A.add_argument('--secs', default='0.3')
args = A.parse_args()
OUT = os.path.abspath(args.out)
os.makedirs(OUT, exist_ok=True)
RECCONF = os.path.join(OUT, 'perfconfig-rec')
with open(RECCONF, 'w') as f:
    f.write(f'[buildid]\n\tdir = {RECCONF}.debug\n')
MANIFEST = []


def log(*a):
    print('gen:', *a, file=sys.stderr)


def case(group, name, data, runs=None, note='', skip=None, compare=False):
    """compare: the chains of perf script must be upstream's (chaincmp.py);
    a string: the comma-separated functions a complete chain ends in, a
    sample complete in the series' chain only is not a difference."""
    if runs is None:
        runs = [['report', '--stdio', '-q'], ['script']]
    MANIFEST.append({'group': group, 'name': name, 'data': data, 'runs': runs,
                     'note': note, 'skip': skip, 'compare': compare})


def sh(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kw)


# --- workload -------------------------------------------------------------

def build(d, extra=(), required=True):
    os.makedirs(d, exist_ok=True)
    cc = ['gcc', '-O2', '-g', *extra]
    r = sh(cc + ['-fPIC', '-shared', '-DROBUST_LIB', '-o', f'{d}/librobust.so', args.src])
    for v, dv in (('a', ['-DROBUST_LIB_A']), ('b', ['-DROBUST_LIB_B'])):
        if r.returncode == 0:
            r = sh(cc + ['-fPIC', '-shared', '-DROBUST_LIB', *dv, '-o', f'{d}/librobust-{v}.so',
                         args.src])
    if r.returncode == 0:
        r = sh(cc + ['-o', f'{d}/robust', args.src, f'-L{d}', '-lrobust',
                     '-Wl,-rpath,$ORIGIN'])
    if r.returncode and not required:
        log(f'cannot build {d}: {r.stderr.decode().strip()[:200]}')
        return False
    if r.returncode:
        sys.exit('gen: cannot build the workload: ' + r.stderr.decode())
    return True


def record(name, bindir, cg, depth=12, secs=None, mode=None):
    """perf record the workload in bindir; returns the data path or None."""
    data = f'{OUT}/{name}.data'
    env = dict(os.environ, PERF_CONFIG=RECCONF)
    r = sh([args.rec, 'record', '-N', '-q', '-e', 'cpu-clock', '-F', '999',
            '--call-graph', cg, '-o', data, '--',
            f'{bindir}/robust', secs or args.secs, str(depth), *([mode] if mode else [])],
           env=env)
    if r.returncode or not os.path.exists(data):
        log(f'record {name} ({cg}) failed: {r.stderr.decode().strip()[:200]}')
        return None
    return data


# --- perf.data parsing ----------------------------------------------------

PERF_RECORD_SAMPLE = 9
PERF_SAMPLE_STACK_USER = 1 << 13
PERF_SAMPLE_REGS_USER = 1 << 12


def perf_header(buf):
    magic, hsize, attr_size = struct.unpack_from('<8sQQ', buf, 0)
    assert magic == b'PERFILE2', magic
    a_off, a_size, d_off, d_size = struct.unpack_from('<QQQQ', buf, 24)
    return {'attr_size': attr_size, 'attr_off': a_off, 'attr_size_total': a_size,
            'data_off': d_off, 'data_size': d_size}


def first_attr(buf, h):
    o = h['attr_off']
    sample_type, = struct.unpack_from('<Q', buf, o + 24)
    regs_user, = struct.unpack_from('<Q', buf, o + 80)
    stack_user, = struct.unpack_from('<I', buf, o + 88)
    return sample_type, regs_user, stack_user


def records(buf, h):
    """(offset, type, size) of each record of the data section."""
    o, end = h['data_off'], h['data_off'] + h['data_size']
    while o + 8 <= end:
        typ, misc, size = struct.unpack_from('<IHH', buf, o)
        if size < 8:
            break
        yield o, typ, size
        o += size


def stack_layout(buf, o, size, nregs, stack_user):
    """Offsets of abi, regs[0], stack size field, dyn_size of a sample whose
    last fields are REGS_USER and STACK_USER; None if it does not fit."""
    end = o + size
    dyn = end - 8
    for s in (stack_user,):
        sz_off = dyn - s - 8
        if sz_off < o + 8:
            continue
        if struct.unpack_from('<Q', buf, sz_off)[0] != s:
            continue
        regs = sz_off - 8 * nregs
        abi = regs - 8
        if abi < o + 8:
            continue
        return {'abi': abi, 'regs': regs, 'size': sz_off, 'dyn': dyn, 'end': end, 's': s}
    return None


def samples_with_stack(buf):
    h = perf_header(buf)
    st, regs_mask, stack_user = first_attr(buf, h)
    later = st & ~((1 << 14) - 1)	# fields after STACK_USER: layout unknown
    if not (st & PERF_SAMPLE_STACK_USER and st & PERF_SAMPLE_REGS_USER) or later:
        return h, [], regs_mask
    nregs = bin(regs_mask).count('1')
    out = []
    for o, typ, size in records(buf, h):
        if typ == PERF_RECORD_SAMPLE:
            lay = stack_layout(buf, o, size, nregs, stack_user)
            if lay:
                out.append(lay)
    return h, out, regs_mask


def reg_index(mask, bit):
    """Index in the sample's regs[] of the perf register bit (x86: BP 6, SP 7, IP 8)."""
    return bin(mask & ((1 << bit) - 1)).count('1') if mask >> bit & 1 else None


# --- damaged perf.data ----------------------------------------------------

def put(path, buf):
    with open(path, 'wb') as f:
        f.write(buf)


def perfdata_variants(src):
    buf = open(src, 'rb').read()
    h = perf_header(buf)
    d0, dn = h['data_off'], h['data_off'] + h['data_size']
    g = 'perf.data truncated'
    for name, at in (('hdr-64', 64), ('hdr-100', 100), ('attrs', h['attr_off'] + 40),
                     ('data-start+13', d0 + 13), ('data-mid', (d0 + dn) // 2),
                     ('data-end-7', dn - 7), ('features+20', dn + 20),
                     ('file-end-3', len(buf) - 3)):
        p = f'{OUT}/trunc-{name}.data'
        put(p, buf[:at])
        case(g, f'trunc-{name} ({at} of {len(buf)} bytes)', p)

    # A recording cut short with a header that agrees (data size up to the
    # cut, no features): the last record runs past the end of the file.
    for name, dsize in (('data-mid-hdr-fixed', 'cut'), ('data-mid-size0', 0)):
        cut = (d0 + dn) // 2 + 5
        b = bytearray(buf[:cut])
        struct.pack_into('<Q', b, 48, cut - d0 if dsize == 'cut' else 0)
        b[72:104] = bytes(32)
        p = f'{OUT}/trunc-{name}.data'
        put(p, b)
        case(g, f'trunc-{name} ({cut} bytes, header data size {"to the cut" if dsize else "0"}, no features)', p)

    g = 'perf.data bit flips in the data section'
    for seed in range(1, 6):
        random.seed(seed)
        b = bytearray(buf)
        for _ in range(20):
            o = random.randrange(d0, dn)
            b[o] ^= 1 << random.randrange(8)
        p = f'{OUT}/flip-data-{seed}.data'
        put(p, b)
        case(g, f'flip-data seed {seed} (20 flips)', p)

    g = 'perf.data bit flips in sample payloads (sizes kept)'
    samples = [(o, size) for o, typ, size in records(buf, h) if typ == PERF_RECORD_SAMPLE]
    for seed in range(1, 6):
        random.seed(100 + seed)
        b = bytearray(buf)
        for _ in range(20):
            o, size = random.choice(samples)
            b[random.randrange(o + 8, o + size)] ^= 1 << random.randrange(8)
        p = f'{OUT}/flip-sample-{seed}.data'
        put(p, b)
        case(g, f'flip-sample seed {seed} (20 flips)', p)

    g = 'perf.data user regs and stack dump lies'
    h, lays, mask = samples_with_stack(buf)
    if not lays:
        case(g, 'regs/stack variants', src, skip='cannot locate regs/stack in samples')
        return
    ridx = [i for i in (reg_index(mask, 6), reg_index(mask, 7), reg_index(mask, 8)) if i is not None]
    for seed in range(1, 4):	# random bit flips in BP, SP, IP
        random.seed(200 + seed)
        b = bytearray(buf)
        for lay in random.sample(lays, min(40, len(lays))):
            ro = lay['regs'] + 8 * random.choice(ridx)
            v, = struct.unpack_from('<Q', b, ro)
            struct.pack_into('<Q', b, ro, v ^ (1 << random.randrange(64)))
        p = f'{OUT}/regs-flip-{seed}.data'
        put(p, b)
        case(g, f'regs-flip seed {seed} (BP/SP/IP bit flips in 40 samples)', p)

    def mutate(name, what, fn):
        b = bytearray(buf)
        for i, lay in enumerate(lays):
            fn(b, lay, i)
        p = f'{OUT}/{name}.data'
        put(p, b)
        case(g, f'{name}: {what}', p)

    sp = reg_index(mask, 7)
    ip = reg_index(mask, 8)
    sp_deltas = [8, -8, 4096, -4096, 1 << 40, -(1 << 40)]

    def sp_lie(b, lay, i):
        o = lay['regs'] + 8 * sp
        v, = struct.unpack_from('<Q', b, o)
        struct.pack_into('<Q', b, o, (v + sp_deltas[i % len(sp_deltas)]) & (2**64 - 1))
    if sp is not None:
        mutate('sp-lie', 'SP moved by +-8, +-4K, +-1T', sp_lie)
        mutate('sp-odd', 'SP + 1 (misaligned, inside the dump)', lambda b, lay, i: struct.pack_into(
            '<Q', b, lay['regs'] + 8 * sp, struct.unpack_from('<Q', b, lay['regs'] + 8 * sp)[0] + 1))
        mutate('sp-zero', 'SP = 0', lambda b, lay, i: struct.pack_into('<Q', b, lay['regs'] + 8 * sp, 0))
        mutate('sp-max', 'SP = 2^64-8', lambda b, lay, i: struct.pack_into('<Q', b, lay['regs'] + 8 * sp, 2**64 - 8))
    if ip is not None:
        mutate('ip-zero', 'IP = 0 (and BP kept)', lambda b, lay, i: struct.pack_into('<Q', b, lay['regs'] + 8 * ip, 0))
    mutate('dyn-huge', 'dyn_size = 2^64-1', lambda b, lay, i: struct.pack_into('<Q', b, lay['dyn'], 2**64 - 1))
    mutate('dyn-over', 'dyn_size = size + 4096', lambda b, lay, i: struct.pack_into('<Q', b, lay['dyn'], lay['s'] + 4096))
    mutate('dyn-odd', 'dyn_size = 13', lambda b, lay, i: struct.pack_into('<Q', b, lay['dyn'], 13))
    mutate('abi-32', 'regs ABI = PERF_SAMPLE_REGS_ABI_32', lambda b, lay, i: struct.pack_into('<Q', b, lay['abi'], 1))
    mutate('abi-none', 'regs ABI = NONE (the regs are then misparsed)', lambda b, lay, i: struct.pack_into('<Q', b, lay['abi'], 0))
    mutate('stacksize-lie', 'stack size field = 16 (the rest is misparsed)', lambda b, lay, i: struct.pack_into('<Q', b, lay['size'], 16))

    # Samples rewritten with a user stack of size 0 (no data, no dyn_size),
    # what perf record --call-graph dwarf,0 would give if it allowed it.
    out = bytearray(buf[:h['data_off']])
    lay_at = {lay['end']: lay for lay in lays}
    for ro, typ, size in records(buf, h):
        rec = bytearray(buf[ro:ro + size])
        lay = lay_at.get(ro + size)
        if typ == PERF_RECORD_SAMPLE and lay:
            keep = lay['size'] - ro		# up to the stack size field
            rec = rec[:keep] + struct.pack('<Q', 0)
            struct.pack_into('<H', rec, 6, len(rec))
        out += rec
    new_dsize = len(out) - h['data_off']
    out += buf[h['data_off'] + h['data_size']:]
    # the feature section table follows the data: its offsets move
    delta = new_dsize - h['data_size']
    struct.pack_into('<Q', out, 48, new_dsize)
    feat_bits = int.from_bytes(buf[72:104], 'little')
    ft = h['data_off'] + new_dsize
    for i in range(bin(feat_bits).count('1')):
        fo, fs = struct.unpack_from('<QQ', out, ft + 16 * i)
        struct.pack_into('<QQ', out, ft + 16 * i, fo + delta, fs)
    p = f'{OUT}/stack0.data'
    put(p, out)
    case('perf.data user stack size 0', 'stack0: every sample rewritten with a 0-byte user stack', p,
         note='perf record refuses --call-graph dwarf,0: crafted from the dwarf recording')


# --- ELF parsing and damage ----------------------------------------------

def damage_section(b, sec, how, rnd):
    o, n = sec['off'], sec['size']
    if n == 0:
        return False
    if how == 'zero-half':		# truncated: the second half zeroed
        b[o + n // 2:o + n] = bytes(n - n // 2)
    elif how == 'random-half':		# the second half random
        b[o + n // 2:o + n] = rnd.randbytes(n - n // 2)
    elif how == 'random':
        b[o:o + n] = rnd.randbytes(n)
    elif how == 'flips':		# 1 bit in 64 bytes
        for _ in range(max(4, n // 64)):
            b[o + rnd.randrange(n)] ^= 1 << rnd.randrange(8)
    elif how == 'size-lie':		# sh_size past the end of the file
        struct.pack_into('<Q', b, sec['ho'] + 32, len(b) * 4)
    else:
        raise ValueError(how)
    return True


def damage_dso(path, names, how, seed):
    b = bytearray(open(path, 'rb').read())
    secs = elf_sections(b)
    rnd = random.Random(seed)
    done = [n for n in names if n in secs and damage_section(b, secs[n], how, rnd)]
    put(path, b)
    return done


def compress(path):
    r = sh(['objcopy', '--compress-debug-sections=zlib', path])
    return r.returncode == 0


def chdr_lie(path, how, seed):
    """Lie in the Elf64_Chdr (ch_type, ch_reserved, ch_size, ch_addralign)
    of the compressed .debug_* sections, or damage their zlib stream."""
    b = bytearray(open(path, 'rb').read())
    secs = elf_sections(b)
    rnd = random.Random(seed)
    done = []
    for n, s in secs.items():
        if not s['flags'] & SHF_COMPRESSED or s['size'] < 24:
            continue
        o = s['off']
        if how == 'chsize-1T':
            struct.pack_into('<Q', b, o + 8, 1 << 40)
        elif how == 'chsize-16G':
            struct.pack_into('<Q', b, o + 8, 1 << 34)
        elif how == 'chsize-small':
            struct.pack_into('<Q', b, o + 8, 16)
        elif how == 'chsize-zero':
            struct.pack_into('<Q', b, o + 8, 0)
        elif how == 'chtype-bogus':
            struct.pack_into('<I', b, o, 0x7777)
        elif how == 'zlib-flips':
            for _ in range(8):
                b[o + 24 + rnd.randrange(s['size'] - 24)] ^= 1 << rnd.randrange(8)
        done.append(n)
    put(path, b)
    return done


def whole_dso(path, how):
    b = bytearray(open(path, 'rb').read())
    if how == 'truncated-60%':
        b = b[:len(b) * 6 // 10]
    elif how == 'empty':
        b = b''
    elif how == 'shoff-past-eof':
        struct.pack_into('<Q', b, 0x28, len(b) + 4096)
    elif how == 'shnum-lie':
        struct.pack_into('<H', b, 0x3c, 0xfff0)
    elif how == 'shstrndx-lie':
        struct.pack_into('<H', b, 0x3e, 0xfff0)
    elif how == 'buildid-zeroed':
        secs = elf_sections(b)
        s = secs.get('.note.gnu.build-id')
        if not s:
            return False
        b[s['off'] + 16:s['off'] + s['size']] = bytes(s['size'] - 16)
    elif how == 'random':		# same size, no ELF at all
        b = bytearray(random.Random(len(b)).randbytes(len(b)))
    elif how == 'stripped':
        put(path, b)
        return sh(['objcopy', '--strip-all', path]).returncode == 0
    put(path, b)
    return True


DSO_BASE = {}


def dso_variant(group, name, fn, bindir_src, extra_note='', runs=None, mode=None,
                files=('robust', 'librobust.so')):
    """Copy the binaries, damage both DSOs in place and point a copy of a
    recording of the undamaged binaries at them. One recording per source
    folder: the variants' folders have paths of the same length, so the
    recording's paths (mmap events, build-id table) are rewritten in place."""
    key = (bindir_src, mode)
    if key not in DSO_BASE:
        d = f'{OUT}/dso/{len(DSO_BASE):02d}'
        shutil.copytree(bindir_src, d)
        data = record(f'dso-{len(DSO_BASE):02d}', d, 'dwarf', secs='0.2', mode=mode)
        DSO_BASE[key] = (d, data and open(data, 'rb').read())
    d0, buf = DSO_BASE[key]
    if not buf:
        case(group, name, None, skip='perf record failed')
        return
    d = f'{OUT}/dso/{len(MANIFEST) + 10:02d}'
    assert len(d) == len(d0)
    shutil.copytree(bindir_src, d)
    data = f'{OUT}/dso-{name}.data'
    put(data, buf.replace((d0 + '/').encode(), (d + '/').encode()))
    notes = []
    for f in files:
        r = fn(f'{d}/{f}')
        if r is False or r == []:
            notes.append(f'{f}: nothing to damage')
        elif isinstance(r, list):
            notes.append(f'{f}: {",".join(r)}')
    notes.append(f'DSOs in {d}')
    case(group, name, data, runs=runs, note='; '.join(notes + ([extra_note] if extra_note else [])))


# --- the corpus ------------------------------------------------------------

build(f'{OUT}/bin')
build(f'{OUT}/bin-df', ('-fno-asynchronous-unwind-tables', '-fno-unwind-tables'))

g = 'undamaged recordings'
noinl = ['report', '--stdio', '-q', '--no-inline']
base = record('dwarf', f'{OUT}/bin', 'dwarf')
if not base:
    sys.exit('gen: perf record --call-graph dwarf failed')
case(g, 'dwarf (8192)', base, runs=[['report', '--stdio', '-q'], noinl, ['script'],
                                    ['report', '--stdio', '-q', '--no-children', '-g', 'caller']],
     compare=True)
p = record('dwarf-65528', f'{OUT}/bin', 'dwarf,65528')
case(g, 'dwarf,65528', p, runs=[['report', '--stdio', '-q'], noinl, ['script']],
     skip=None if p else 'perf record refused dwarf,65528', compare=True)
p = record('fp', f'{OUT}/bin', 'fp')
case(g, 'fp (-g)', p, skip=None if p else 'perf record -g failed', compare=True)
p = record('dwarf-df', f'{OUT}/bin-df', 'dwarf')
case(g, 'dwarf, code with .debug_frame only (-fno-asynchronous-unwind-tables)', p,
     skip=None if p else 'perf record failed', compare=True)

g = 'address space changes (dlopen/dlclose, exiting processes)'
p = record('dlopen', f'{OUT}/bin', 'dwarf', mode='dlopen')
# v7.3-rc7 unwinds a library mapped where another one was with the old
# one's CFI once a chain went through the old one's code: most samples in
# each library after the first turn end after a frame or two. The series'
# fix, "perf maps: Drop the unwinders' state of code that was mapped over",
# makes those chains complete (down to dl_turns()), which is not a
# difference; any other is.
case(g, 'dlopen/dlclose of two libraries mapped in turns at one address', p,
     compare='dl_turns,main', skip=None if p else 'perf record failed')
p = record('fork', f'{OUT}/bin', 'dwarf', mode='fork')
case(g, 'short-lived child processes, one after the other', p, compare=True,
     skip=None if p else 'perf record failed')
p = record('dwarf-8', f'{OUT}/bin', 'dwarf,8')
case('perf.data user stack size 0', 'dwarf,8 (smallest stack perf record accepts)', p,
     skip=None if p else 'perf record refused dwarf,8')

g = 'deep recursion (5000 frames)'
p = record('deep-dwarf', f'{OUT}/bin', 'dwarf', depth=5000)
if p:
    case(g, 'deep dwarf, default max-stack', p, compare=True)
    case(g, 'deep dwarf, --max-stack 16', p,
         runs=[['report', '--stdio', '-q', '--max-stack', '16'], ['script', '--max-stack', '16']])
p = record('deep-dwarf-65528', f'{OUT}/bin', 'dwarf,65528', depth=5000)
if p:
    case(g, 'deep dwarf,65528', p, runs=[['report', '--stdio', '-q'], ['script']])
p = record('deep-fp', f'{OUT}/bin', 'fp', depth=5000)
if p:
    case(g, 'deep fp (kernel chain capped at 127)', p,
         runs=[['report', '--stdio', '-q'], ['report', '--stdio', '-q', '--max-stack', '16'], ['script']])
case(g, 'cyclic CFA (a frame whose CFA rule gives the same CFA)', None,
     skip='not generated: needs hand-written CFI; libdw stops on a non-increasing SP')

perfdata_variants(base)

both = ['robust', 'librobust.so']
g = '.eh_frame/.eh_frame_hdr damaged'
for how, seed in (('zero-half', 1), ('random-half', 2), ('flips', 3), ('size-lie', 4)):
    dso_variant(g, f'eh_frame-{how}', lambda f, h=how, s=seed:
                damage_dso(f, ['.eh_frame', '.eh_frame_hdr'], h, s), f'{OUT}/bin')
dso_variant(g, 'eh_frame_hdr-random', lambda f: damage_dso(f, ['.eh_frame_hdr'], 'random', 5), f'{OUT}/bin')
# gold puts .eh_frame_hdr after .eh_frame: libdw before elfutils 0.196
# ignores its table, and perf gives the unwinder the CFI through the
# program header instead (patch 38).
g = '.eh_frame_hdr after .eh_frame (gold), damaged'
if build(f'{OUT}/bin-gold', ('-fuse-ld=gold',), required=False):
    dso_variant(g, 'gold-intact', lambda f: None, f'{OUT}/bin-gold')
    for how, seed in (('zero-half', 51), ('random-half', 52), ('flips', 53)):
        dso_variant(g, f'gold-eh_frame-{how}', lambda f, h=how, s=seed:
                    damage_dso(f, ['.eh_frame', '.eh_frame_hdr'], h, s), f'{OUT}/bin-gold')
    dso_variant(g, 'gold-eh_frame_hdr-random',
                lambda f: damage_dso(f, ['.eh_frame_hdr'], 'random', 55), f'{OUT}/bin-gold')
else:
    case(g, 'gold', None, skip='no gold linker')
g = '.debug_frame damaged (code without .eh_frame FDEs)'
for how, seed in (('zero-half', 11), ('random-half', 12), ('flips', 13)):
    dso_variant(g, f'debug_frame-{how}', lambda f, h=how, s=seed:
                damage_dso(f, ['.debug_frame'], h, s), f'{OUT}/bin-df')
g = '.debug_info/.debug_abbrev damaged'
for how, seed in (('zero-half', 21), ('random-half', 22), ('flips', 23)):
    dso_variant(g, f'debug_info-{how}', lambda f, h=how, s=seed:
                damage_dso(f, ['.debug_info', '.debug_abbrev'], h, s), f'{OUT}/bin',
                runs=[['report', '--stdio', '-q'], noinl, ['script']])
g = '.debug_line/.debug_str damaged'
for how, seed in (('zero-half', 31), ('random-half', 32), ('flips', 33)):
    dso_variant(g, f'debug_line-{how}', lambda f, h=how, s=seed:
                damage_dso(f, ['.debug_line', '.debug_line_str', '.debug_str'], h, s), f'{OUT}/bin')
g = 'compressed .debug_* with a lying Elf64_Chdr'
for how in ('chsize-1T', 'chsize-16G', 'chsize-small', 'chsize-zero', 'chtype-bogus', 'zlib-flips'):
    dso_variant(g, f'zdebug-{how}', lambda f, h=how:
                chdr_lie(f, h, 41) if compress(f) else False, f'{OUT}/bin',
                runs=[['report', '--stdio', '-q'], ['script']])


def split_debug(path, how):
    """Move the DWARF to a zlib-compressed separate debug file next to the
    DSO (.gnu_debuglink, build-id kept): what perf reads itself for srcline
    (not mapped). Then damage that file."""
    dbg = path + '.debug'
    if sh(['objcopy', '--only-keep-debug', '--compress-debug-sections=zlib', path, dbg]).returncode or \
       sh(['objcopy', '--strip-debug', f'--add-gnu-debuglink={dbg}', path]).returncode:
        return False
    if how == 'truncated-60%':
        return whole_dso(dbg, how) and ['.debug truncated']
    if how != 'intact':
        return [n + ' (.debug)' for n in chdr_lie(dbg, how, 51)]
    return ['.debug intact']


g = 'separate compressed debug file (debuglink)'
for how in ('intact', 'chsize-1T', 'zlib-flips', 'truncated-60%'):
    dso_variant(g, f'debuglink-{how}', lambda f, h=how: split_debug(f, h), f'{OUT}/bin',
                runs=[['report', '--stdio', '-q'], ['report', '--stdio', '-q', '--sort', 'dso,srcline'],
                      ['script', '-F', '+srcline']])
g = 'DSO damaged as a whole'
for how in ('truncated-60%', 'empty', 'shoff-past-eof', 'shnum-lie', 'shstrndx-lie',
            'buildid-zeroed', 'stripped'):
    dso_variant(g, f'elf-{how}', lambda f, h=how: whole_dso(f, h), f'{OUT}/bin')
dso_variant(g, 'deleted-after-record', lambda f: os.unlink(f), f'{OUT}/bin')
dso_variant(g, 'dlopen: librobust-b.so deleted, librobust-a.so random', lambda f:
            os.unlink(f) if f.endswith('-b.so') else whole_dso(f, 'random'), f'{OUT}/bin',
            mode='dlopen', files=('librobust-a.so', 'librobust-b.so'))

with open(f'{OUT}/manifest.jsonl', 'w') as f:
    for c in MANIFEST:
        f.write(json.dumps(c) + '\n')
log(f'{len(MANIFEST)} cases in {OUT}/manifest.jsonl')
