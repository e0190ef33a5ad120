#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Corpus of hostile debug info for tests/t-hostile.sh.

  hostile.py --rec PERF --out DIR [--secs 0.3] [--only REGEX]

A small C++-like library, written here in assembly with its DWARF written
by hand (tests/corpus/hostile.py is the generator; no binary is kept), so
that each case can say exactly what is wrong: a function with an inlined
subroutine in a namespace, called in a loop by a C program. Each case is
either a variant of the library's source (DWARF or CFI crafted: imported
units that import each other, DIEs nested 100000 deep, reference loops, line
programs with lying or long extended opcodes, CFI expressions that loop)
built and recorded on its own, or an edit of the linked library's section
headers and data after a recording of the undamaged one (decompression
bombs whose sections share one stream, zstd bombs, repeated section names,
sections overlapping or past the end of the file): the build-id stays the
recorded one, so that perf reads the edited file. Both -g and
--call-graph dwarf are recorded. Writes DIR/manifest.jsonl in the format of
tests/corpus/gen.py, with "expect" (what the series' output must still hold).
"""
import argparse
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib

from elfsec import SHF_COMPRESSED, elf_sections

A = argparse.ArgumentParser()
A.add_argument('--rec', required=True)
A.add_argument('--out', required=True)
A.add_argument('--secs', default='0.3')
A.add_argument('--only', default='')
args = A.parse_args()
OUT = os.path.abspath(args.out)
os.makedirs(OUT, exist_ok=True)
RECCONF = os.path.join(OUT, 'perfconfig-rec')
with open(RECCONF, 'w') as f:
    f.write(f'[buildid]\n\tdir = {RECCONF}.debug\n')
MANIFEST = []
RUNS = [['report', '--stdio', '-q'],
        ['script', '-F', 'ip,sym,srcline'],
        ['annotate', '--stdio', '-l', 'hostile_spin']]


def log(*a):
    print('hostile:', *a, file=sys.stderr)


def sh(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kw)


def put(path, b):
    with open(path, 'wb') as f:
        f.write(b)


# --- the library, in assembly ----------------------------------------------

MAIN_C = r'''
#include <stdlib.h>
#include <time.h>
unsigned long hostile_spin(unsigned long n);
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}
int main(int argc, char **argv)
{
	double end = now() + (argc > 1 ? atof(argv[1]) : 0.3);
	unsigned long r = 0;

	while (now() < end)
		r += hostile_spin(20000);
	return r == 42;
}
'''

CODE = r'''
	.text
	.globl	hostile_spin
	.type	hostile_spin, @function
hostile_spin:
.Lfunc_begin:
	.file 1 "hostile.cc"
	.loc 1 10 0
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset 6, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register 6
{cfi}
	xorl	%eax, %eax
.Linl_begin:
	.loc 1 3 0
1:	addq	%rdi, %rax
	imulq	$31, %rax, %rax
	subq	$1, %rdi
	jnz	1b
.Linl_end:
	.loc 1 12 0
	popq	%rbp
	.cfi_def_cfa 7, 8
	ret
	.cfi_endproc
.Lfunc_end:
	.size	hostile_spin, .-hostile_spin
'''

CODE_NOLOC = re.sub(r'\n\t\.(file|loc) [^\n]*', '', CODE)

# DW_TAG, children, [(DW_AT, DW_FORM)]
ABBREV = {
    1: (0x11, 1, [(0x03, 0x08), (0x13, 0x05), (0x11, 0x01), (0x12, 0x07), (0x10, 0x17),
                  (0x1b, 0x08)]),			# compile_unit
    2: (0x39, 1, [(0x03, 0x08)]),			# namespace
    3: (0x2e, 0, [(0x03, 0x08), (0x20, 0x0b)]),		# subprogram, abstract, inline
    4: (0x2e, 1, [(0x03, 0x08), (0x11, 0x01), (0x12, 0x07), (0x3f, 0x19)]),  # subprogram
    5: (0x1d, 0, [(0x31, 0x13), (0x11, 0x01), (0x12, 0x07), (0x58, 0x0b), (0x59, 0x0b)]),
    6: (0x0b, 1, [(0x11, 0x01), (0x12, 0x07)]),		# lexical_block
    7: (0x3d, 0, [(0x18, 0x10)]),			# imported_unit, import ref_addr
    8: (0x3c, 1, [(0x13, 0x05)]),			# partial_unit
    9: (0x2e, 0, [(0x03, 0x08), (0x3c, 0x19)]),		# subprogram declaration
    10: (0x2e, 0, [(0x47, 0x13)]),			# subprogram, specification ref4
    11: (0x2e, 0, [(0x31, 0x13)]),			# subprogram, abstract_origin ref4
    12: (0x1d, 0, [(0x31, 0x10), (0x11, 0x01), (0x12, 0x07), (0x58, 0x0b), (0x59, 0x0b)]),
    13: (0x0b, 1, []),					# lexical_block, no code
    14: (0x2e, 1, [(0x03, 0x08), (0x20, 0x0b)]),	# subprogram, abstract, children
}


def abbrev_section():
    s = ['\t.section .debug_abbrev,"",@progbits', '.Labbrev0:']
    for code, (tag, ch, attrs) in ABBREV.items():
        s.append(f'\t.uleb128 {code}\n\t.uleb128 {tag:#x}\n\t.byte {ch}')
        for at, form in attrs:
            s.append(f'\t.uleb128 {at:#x}\n\t.uleb128 {form:#x}')
        s.append('\t.byte 0\n\t.byte 0')
    s.append('\t.byte 0')
    return '\n'.join(s)


class Info:
    """A .debug_info section: units of DIEs, written as gas directives."""

    def __init__(self):
        self.lines = ['\t.section .debug_info,"",@progbits', '.Ldebug_info0:']
        self.unit = None

    def begin_unit(self, label):
        self.unit = label
        self.lines += [f'{label}:', f'\t.long {label}_end - {label} - 4', '\t.value 4',
                       '\t.long .Labbrev0', '\t.byte 8', f'{label}_die:']

    def end_unit(self):
        self.lines.append(f'{self.unit}_end:')

    def die(self, code, *vals, label=None):
        if label:
            self.lines.append(f'{label}:')
        self.lines.append(f'\t.uleb128 {code}')
        for (at, form), v in zip(ABBREV[code][2], vals):
            if form == 0x08:
                self.lines.append(f'\t.string "{v}"')
            elif form == 0x05:
                self.lines.append(f'\t.value {v}')
            elif form in (0x01, 0x07):
                self.lines.append(f'\t.quad {v}')
            elif form == 0x0b:
                self.lines.append(f'\t.byte {v}')
            elif form == 0x13:		# ref4: from the unit's start
                self.lines.append(f'\t.long {v} - {self.unit}')
            elif form in (0x10, 0x17):	# ref_addr, sec_offset: relocated
                self.lines.append(f'\t.long {v}')
            elif form == 0x19:
                pass
            else:
                raise ValueError(form)

    def end(self):			# end of the children of a DIE
        self.lines.append('\t.byte 0')

    def text(self):
        return '\n'.join(self.lines)


def cu_open(info, stmt='.Ldebug_line0'):
    info.begin_unit('.Lcu0')
    info.die(1, 'hostile.cc', 0x4, '.Lfunc_begin', '.Lfunc_end - .Lfunc_begin', stmt, '/tmp')


def spin_body(info, origin='.Ldie_inl', inl_code=5):
    info.die(inl_code, origin, '.Linl_begin', '.Linl_end - .Linl_begin', 1, 7)


def library_info(variant):
    """The .debug_info of a variant: the CU holds namespace hns with the
    abstract inline function inl and hostile_spin, which inlines it."""
    info = Info()
    pus = []
    cu_open(info)
    n = int(variant.split('-')[-1]) if variant[-1].isdigit() else 0
    if variant.startswith('imports-dag') or variant in ('imports-cycle', 'imports-wide'):
        info.die(7, '.Lpu0_die')
    info.die(2, 'hns')
    if variant.startswith('ns-deep'):		# inl in n more nested namespaces
        for _ in range(n):
            info.die(2, 'n')
    info.die(3, 'inl', 1, label='.Ldie_inl')
    if variant.startswith('ns-deep'):
        for _ in range(n):
            info.end()
    info.die(4, 'hostile_spin', '.Lfunc_begin', '.Lfunc_end - .Lfunc_begin')
    if variant.startswith('nest-deep'):		# lexical blocks n deep around the inline
        for _ in range(n):
            info.die(6, '.Lfunc_begin', '.Lfunc_end - .Lfunc_begin')
        spin_body(info)
        for _ in range(n):
            info.end()
    elif variant.startswith('nest-nocode'):	# blocks without code n deep
        for _ in range(n):
            info.die(13)
        for _ in range(n):
            info.end()
        spin_body(info)
    elif variant == 'origin-loop':		# abstract_origin to itself
        spin_body(info, origin='.Ldie_x')
    elif variant == 'spec-loop':		# specification X -> Y -> X
        spin_body(info, origin='.Ldie_x')
    elif variant == 'origin-past-end':		# ref_addr past .debug_info
        spin_body(info, origin='0x7ffffff0', inl_code=12)
    elif variant == 'origin-other-unit':	# into the middle of another unit's DIE
        spin_body(info, origin='.Lpu0 + 3', inl_code=12)
        pus.append('other')
    else:
        spin_body(info)
    info.end()					# hostile_spin
    if variant == 'origin-loop':
        info.die(11, '.Ldie_x', label='.Ldie_x')
    elif variant == 'spec-loop':
        info.die(10, '.Ldie_y', label='.Ldie_x')
        info.die(10, '.Ldie_x', label='.Ldie_y')
    info.end()					# hns
    info.end()					# the CU
    info.end_unit()
    if variant.startswith('imports-dag'):	# each unit imports the next twice
        for k in range(n + 1):
            info.begin_unit(f'.Lpu{k}')
            info.die(8, 0x4)
            if k < n:
                info.die(7, f'.Lpu{k + 1}_die')
                info.die(7, f'.Lpu{k + 1}_die')
            else:
                info.die(9, 'leaf')
            info.end()
            info.end_unit()
    elif variant == 'imports-wide':		# pu0 -> pu1 65535 times -> pu2 65535 times
        for k in range(3):
            info.begin_unit(f'.Lpu{k}')
            info.die(8, 0x4)
            for _ in range(65535 if k < 2 else 0):
                info.die(7, f'.Lpu{k + 1}_die')
            info.die(9, 'leaf')
            info.end()
            info.end_unit()
    elif variant == 'imports-cycle':		# pu0 -> pu1 -> pu0
        for k in range(2):
            info.begin_unit(f'.Lpu{k}')
            info.die(8, 0x4)
            info.die(7, f'.Lpu{1 - k}_die')
            info.die(9, 'leaf')
            info.end()
            info.end_unit()
    elif pus:
        info.begin_unit('.Lpu0')
        info.die(8, 0x4)
        info.die(9, 'other')
        info.end()
        info.end_unit()
    return info.text()


def line_program(variant):
    """A DWARF 4 line program, by hand, for the line variants."""
    ops = []

    def setaddr(sym):
        ops.append(f'\t.byte 0\n\t.uleb128 9\n\t.byte 2\n\t.quad {sym}')

    def row(line_delta):
        ops.append(f'\t.byte 3\n\t.sleb128 {line_delta}\n\t.byte 1')	# advance_line, copy

    setaddr('.Lfunc_begin')
    ops.append('\t.byte 3\n\t.sleb128 9\n\t.byte 1')	# line 10
    if variant == 'line-extop-long':	# an unknown extended opcode of 300 bytes
        ops.append('\t.byte 0\n\t.uleb128 300\n\t.byte 0x80\n\t.fill 299, 1, 0x41')
    elif variant == 'line-extop-huge':	# one that says it runs far past the section
        ops.append('\t.byte 0\n\t.uleb128 0x7fffffff\n\t.byte 0x80')
    elif variant == 'line-extop-uleb-long':	# a length of 12 bytes of ULEB128
        ops.append('\t.byte 0\n\t.byte 0x81,0x80,0x80,0x80,0x80,0x80,0x80,0x80,0x80,0x80,'
                   '0x80,0x00\n\t.byte 0x80')
    elif variant == 'line-advance-huge':	# the address wraps around
        ops.append('\t.byte 2\n\t.uleb128 0xffffffffffffff00\n\t.byte 1')
    ops.append('\t.byte 2\n\t.uleb128 .Linl_begin - .Lfunc_begin')	# advance_pc
    row(-7)						# line 3
    ops.append('\t.byte 2\n\t.uleb128 .Linl_end - .Linl_begin')
    row(9)						# line 12
    ops.append('\t.byte 2\n\t.uleb128 .Lfunc_end - .Linl_end')
    ops.append('\t.byte 0\n\t.uleb128 1\n\t.byte 1')	# end_sequence
    return '\n'.join([
        '\t.section .debug_line,"",@progbits', '.Ldebug_line0:',
        '\t.long .Lline_end - .Lline_start', '.Lline_start:', '\t.value 4',
        '\t.long .Lline_hdr_end - .Lline_hdr', '.Lline_hdr:',
        # min_inst_length, max_ops_per_insn, default_is_stmt, line_base,
        # line_range, opcode_base
        '\t.byte 1\n\t.byte 1\n\t.byte 1\n\t.byte -5\n\t.byte 14\n\t.byte 13',
        '\t.byte 0,1,1,1,1,0,0,0,1,0,0,1',	# standard_opcode_lengths
        '\t.byte 0',				# no include directories
        '\t.string "hostile.cc"\n\t.uleb128 0\n\t.uleb128 0\n\t.uleb128 0', '\t.byte 0',
        '.Lline_hdr_end:', *ops, '.Lline_end:'])


CFI = {
    # DW_CFA_def_cfa_expression: DW_OP_skip -3, to itself
    'cfi-expr-loop': '\t.cfi_escape 0x0f, 0x03, 0x2f, 0xfd, 0xff',
    # DW_CFA_def_cfa_expression: DW_OP_bra back, on a constant 1
    'cfi-expr-bra-loop': '\t.cfi_escape 0x0f, 0x04, 0x31, 0x28, 0xfd, 0xff',
    # the CFA 1 GiB above the stack pointer: far outside the stack copy
    'cfi-cfa-far': '\t.cfi_def_cfa 7, 0x40000000',
    # DW_CFA_val_expression for the return address: the current stack
    # pointer (an unwind that does not move)
    'cfi-ra-self': '\t.cfi_escape 0x16, 0x10, 0x02, 0x77, 0x00',
    # 20000 DW_CFA_remember_state: a deep state stack
    'cfi-remember-deep': '\n'.join(['\t.cfi_remember_state'] * 20000),
}


def library_source(variant):
    cfi = CFI.get(variant, '')
    if variant.startswith('line-'):
        code = CODE_NOLOC.replace('{cfi}', cfi)
        return '\n'.join([code, abbrev_section(), library_info(variant), line_program(variant)])
    code = CODE.replace('{cfi}', cfi)
    return '\n'.join([code, abbrev_section(), library_info(variant),
                      '\t.section .debug_line,"",@progbits', '.Ldebug_line0:'])


def build(d, variant):
    os.makedirs(d, exist_ok=True)
    with open(f'{d}/hostile.s', 'w') as f:
        f.write(library_source(variant) + '\n')
    with open(f'{d}/main.c', 'w') as f:
        f.write(MAIN_C)
    r = sh(['gcc', '-shared', '-fPIC', '-o', f'{d}/libhostile.so', f'{d}/hostile.s'])
    if r.returncode == 0:
        r = sh(['gcc', '-O2', '-g', '-fno-omit-frame-pointer', '-o', f'{d}/hostile', f'{d}/main.c',
                f'-L{d}', '-lhostile', '-Wl,-rpath,$ORIGIN'])
    if r.returncode:
        log(f'{variant}: build failed: {r.stderr.decode()[:300]}')
        return False
    return True


def record(d, name, cg):
    data = f'{OUT}/{name}.{cg.split(",")[0]}.data'
    env = dict(os.environ, PERF_CONFIG=RECCONF)
    r = sh([args.rec, 'record', '-N', '-q', '-e', 'cpu-clock', '-F', '999', '--call-graph', cg,
            '-o', data, '--', f'{d}/hostile', args.secs], env=env)
    if r.returncode or not os.path.exists(data):
        log(f'{name}: record ({cg}) failed: {r.stderr.decode()[:200]}')
        return None
    return data


def case(group, name, d, note, expect, edit=None, cgs=('fp',)):
    """Build (or reuse) d, record -g and dwarf, edit the library after."""
    if args.only and not re.search(args.only, name):
        return
    for cg in cgs:
        data = record(d, name, cg)
        if edit and data:
            # the edits keep the build-id: each recording gets a copy of its own
            # at a path of the same length as d's: the recording's paths
            # are rewritten in place
            e = f'{OUT}/e/' + f'{len(MANIFEST):03d}{cg}'.ljust(len(os.path.basename(d)), 'x')
            assert len(e) == len(d)
            shutil.copytree(d, e)
            data2 = data + '.edited'
            buf = open(data, 'rb').read()
            put(data2, buf.replace((d + '/').encode(), (e + '/').encode()))
            edit(f'{e}/libhostile.so')
            data = data2
        MANIFEST.append({'group': group, 'name': f'{name} ({cg})', 'data': data, 'runs': RUNS,
                         'note': note, 'skip': None if data else 'perf record failed',
                         'compare': False, 'expect': expect})


# --- ELF edits after linking -----------------------------------------------

def set_shdr(b, s, off=None, size=None, flags=None, name_off=None):
    if name_off is not None:
        struct.pack_into('<I', b, s['ho'], name_off)
    if flags is not None:
        struct.pack_into('<Q', b, s['ho'] + 8, flags)
    if off is not None:
        struct.pack_into('<Q', b, s['ho'] + 24, off)
    if size is not None:
        struct.pack_into('<Q', b, s['ho'] + 32, size)


DEBUG = ('.debug_info', '.debug_abbrev', '.debug_line', '.debug_str', '.debug_aranges',
         '.debug_ranges', '.debug_rnglists', '.debug_loclists', '.debug_line_str')


def zlib_stream(total):
    c = zlib.compressobj(9)
    chunk = bytes(1 << 20)
    out = [c.compress(chunk) for _ in range(total >> 20)]
    out.append(c.flush())
    return b''.join(out)


def zstd_stream(total):
    r = subprocess.run(f'head -c {total} /dev/zero | zstd -19 -q -c', shell=True,
                       stdout=subprocess.PIPE, check=True)
    return r.stdout


def shared_stream(path, ch_type, stream, total, only=DEBUG):
    """Every .debug_* section header points at one compressed stream that
    inflates to total: each within zlib's 1032:1, their sum far past it."""
    b = bytearray(open(path, 'rb').read())
    secs = elf_sections(b)
    off = (len(b) + 7) & ~7
    b += bytes(off - len(b))
    b += struct.pack('<IIQQ', ch_type, 0, total, 1) + stream
    names = []
    for n in only:
        if n in secs:
            set_shdr(b, secs[n], off=off, size=len(b) - off, flags=SHF_COMPRESSED)
            names.append(n)
    put(path, b)
    return names


def debuglink_bomb(path, stream, total):
    """The DWARF moved to a separate debug file found by .gnu_debuglink
    (the library keeps its build-id), whose .debug_* headers then share one
    zlib stream: the debug file libdw looks for itself."""
    dbg = path + '.debug'
    if sh(['objcopy', '--only-keep-debug', path, dbg]).returncode or \
       sh(['objcopy', '--strip-debug', f'--add-gnu-debuglink={dbg}', path]).returncode:
        raise RuntimeError('objcopy failed')
    return shared_stream(dbg, 1, stream, total)


def repeat_names(path):
    """.debug_abbrev, .debug_line and .debug_str renamed .debug_info."""
    b = bytearray(open(path, 'rb').read())
    secs = elf_sections(b)
    for n in ('.debug_abbrev', '.debug_line', '.debug_str'):
        if n in secs:
            set_shdr(b, secs[n], name_off=secs['.debug_info']['name_off'])
    put(path, b)


def repeat_compressed(path, copies):
    """The compressed .debug_info's header copied over the other .debug_*
    sections' headers under its name: the same stream, named .debug_info
    several times."""
    sh(['objcopy', '--compress-debug-sections=zlib', path])
    b = bytearray(open(path, 'rb').read())
    secs = elf_sections(b)
    di = secs['.debug_info']
    for n in [n for n in DEBUG if n in secs and n != '.debug_info'][:copies]:
        set_shdr(b, secs[n], off=di['off'], size=di['size'], flags=SHF_COMPRESSED,
                 name_off=di['name_off'])
    put(path, b)


def overlap(path):
    """.debug_abbrev's header points into .debug_info's data."""
    b = bytearray(open(path, 'rb').read())
    secs = elf_sections(b)
    di = secs['.debug_info']
    set_shdr(b, secs['.debug_abbrev'], off=di['off'] + 11, size=di['size'] - 11)
    put(path, b)


def past_eof(path, name):
    b = bytearray(open(path, 'rb').read())
    secs = elf_sections(b)
    set_shdr(b, secs[name], size=1 << 40)
    put(path, b)


def offset_past_eof(path, name):
    b = bytearray(open(path, 'rb').read())
    secs = elf_sections(b)
    set_shdr(b, secs[name], off=len(b) + (1 << 30))
    put(path, b)


def sym_name_past(path):
    """A function symbol of .symtab (not hostile_spin) named 2 GiB past .strtab."""
    b = bytearray(open(path, 'rb').read())
    secs = elf_sections(b)
    st, strs = secs['.symtab'], secs['.strtab']
    for o in range(st['off'] + 24, st['off'] + st['size'], 24):
        name, info = struct.unpack_from('<IB', b, o)
        nm = b[strs['off'] + name:b.index(b'\0', strs['off'] + name)]
        if info & 0xf == 2 and nm != b'hostile_spin':	# STT_FUNC
            struct.pack_into('<I', b, o, 0x7fff0000)
            break
    put(path, b)


def set_shdr_word(path, name, field, value):
    """sh_link (40, 4 bytes) or sh_entsize (56, 8 bytes) of a section."""
    b = bytearray(open(path, 'rb').read())
    s = elf_sections(b)[name]
    struct.pack_into('<I' if field == 40 else '<Q', b, s['ho'] + field, value)
    put(path, b)


def sec_name_past(path, name):
    b = bytearray(open(path, 'rb').read())
    secs = elf_sections(b)
    set_shdr(b, secs[name], name_off=0x65656b34)
    put(path, b)


def plt_got_huge(path):
    b = bytearray(open(path, 'rb').read())
    secs = elf_sections(b)
    set_shdr(b, secs['.plt.got'], size=0x900000000008)
    put(path, b)


# --- the corpus --------------------------------------------------------------

GOOD = 'hns::inl'		# what an undamaged library's report shows
G_DWARF = 'crafted DWARF (.debug_info)'
G_LINE = 'crafted line programs (.debug_line)'
G_CFI = 'crafted CFI (.eh_frame)'
G_ELF = 'crafted sections (bombs, repeated names, overlaps)'
G_SYM = 'crafted symbol, string and PLT tables'
GROUPS = [G_DWARF, G_LINE, G_CFI, G_ELF, G_SYM]


def variant(group, name, note, expect=GOOD, cgs=('fp',)):
    d = f'{OUT}/v/{name}'
    if args.only and not re.search(args.only, name):
        return
    if build(d, name):
        case(group, name, d, note, expect, cgs=cgs)
    else:
        MANIFEST.append({'group': group, 'name': name, 'data': None, 'runs': RUNS,
                         'note': note, 'skip': 'build failed', 'compare': False})


variant(G_DWARF, 'undamaged', 'the library as written, for comparison', cgs=('fp', 'dwarf'))
variant(G_DWARF, 'imports-dag-40', 'partial units that each import the next twice, 40 deep '
        '(2^40 paths)', expect='')
variant(G_DWARF, 'imports-cycle', 'two partial units that import each other', expect='')
variant(G_DWARF, 'imports-wide', 'a partial unit importing 65535 times one that imports a '
        'leaf unit 65535 times (2^32 paths; the bound, 65536 walks, reached exactly one level '
        'down)', expect='')
variant(G_DWARF, 'nest-deep-100000', 'lexical blocks with code nested 100000 deep around '
        'the inlined call', expect='')
variant(G_DWARF, 'nest-nocode-100000', 'lexical blocks without code nested 100000 deep',
        expect='hostile_spin')
variant(G_DWARF, 'ns-deep-100000', 'the inlined function 100000 namespaces deep', expect='')
variant(G_DWARF, 'origin-loop', 'DW_AT_abstract_origin to itself', expect='hostile_spin')
variant(G_DWARF, 'spec-loop', 'DW_AT_specification loop of two DIEs', expect='hostile_spin')
variant(G_DWARF, 'origin-past-end', 'DW_AT_abstract_origin past .debug_info',
        expect='hostile_spin')
variant(G_DWARF, 'origin-other-unit', 'DW_AT_abstract_origin into the middle of a DIE',
        expect='hostile_spin')
variant(G_LINE, 'line-undamaged', 'the line program written by hand, for comparison',
        expect='hostile.cc:3')
variant(G_LINE, 'line-extop-long', 'an unknown extended opcode of 300 bytes (a ULEB128 '
        'length of two bytes), which a reader skips; libdw of released elfutils reads the '
        'length as one byte and gives line 10, not 3 (elfutils 01-fixes/01)',
        expect='hostile_spin')
variant(G_LINE, 'line-extop-huge', 'an extended opcode that says it runs 2 GiB past '
        'the section', expect='hostile_spin')
variant(G_LINE, 'line-extop-uleb-long', 'an extended opcode length of 12 ULEB128 bytes',
        expect='hostile_spin')
variant(G_LINE, 'line-advance-huge', 'DW_LNS_advance_pc that wraps the address',
        expect='hostile_spin')
for cfi in CFI:
    variant(G_CFI, cfi, {'cfi-expr-loop': 'a CFA expression that jumps to itself',
                         'cfi-expr-bra-loop': 'a CFA expression that branches back forever',
                         'cfi-cfa-far': 'a CFA 1 GiB above the stack pointer',
                         'cfi-ra-self': 'a return address that is the stack pointer',
                         'cfi-remember-deep': '20000 DW_CFA_remember_state'}[cfi],
            expect='hostile_spin', cgs=('dwarf',))

# the ELF edits: on a recording of the undamaged library
base = f'{OUT}/v/undamaged'
if os.path.exists(f'{base}/libhostile.so') and not args.only:
    GIB = 1 << 30
    zs = zlib_stream(GIB)
    log(f'zlib stream of 1 GiB of zeros: {len(zs)} bytes')
    case(G_ELF, 'bomb-shared-zlib', base, 'every .debug_* section one zlib stream of 1 GiB '
         'of zeros: each within 1032:1, together far past it',
         'hostile_spin', edit=lambda p: shared_stream(p, 1, zs, GIB), cgs=('fp', 'dwarf'))
    if shutil.which('zstd'):
        zst = zstd_stream(GIB)
        log(f'zstd stream of 1 GiB of zeros: {len(zst)} bytes')
        case(G_ELF, 'bomb-shared-zstd', base, 'every .debug_* section one zstd stream of 1 GiB '
             'of zeros (zstd has no bound on its ratio)',
             'hostile_spin', edit=lambda p: shared_stream(p, 2, zst, GIB))
    case(G_ELF, 'bomb-shared-zlib-debuglink', base, 'a separate debug file (.gnu_debuglink) '
         'whose .debug_* sections are one zlib stream of 1 GiB of zeros', 'hostile_spin',
         edit=lambda p: debuglink_bomb(p, zs, GIB))
    case(G_ELF, 'bomb-zlib-1G-info', base, '.debug_info alone one zlib stream of 1 GiB of zeros',
         'hostile_spin', edit=lambda p: shared_stream(p, 1, zs, GIB, only=('.debug_info',)))
    case(G_ELF, 'repeated-names', base, '.debug_abbrev, .debug_line, .debug_str named '
         '.debug_info', 'hostile_spin', edit=repeat_names)
    case(G_ELF, 'repeated-compressed', base, 'the compressed .debug_info four times under its '
         'name', 'hostile_spin', edit=lambda p: repeat_compressed(p, 4))
    case(G_ELF, 'overlap', base, '.debug_abbrev inside .debug_info', 'hostile_spin',
         edit=overlap)
    case(G_ELF, 'info-size-past-eof', base, '.debug_info 1 TiB long', 'hostile_spin',
         edit=lambda p: past_eof(p, '.debug_info'))
    case(G_ELF, 'line-offset-past-eof', base, '.debug_line 1 GiB past the end of the file',
         'hostile_spin', edit=lambda p: offset_past_eof(p, '.debug_line'))
    case(G_ELF, 'eh_frame_hdr-size-past-eof', base, '.eh_frame_hdr 1 TiB long',
         'hostile_spin', edit=lambda p: past_eof(p, '.eh_frame_hdr'), cgs=('dwarf',))
    # the findings of the unwinder fuzzer (tests/fuzz/fuzz-unwind.c)
    case(G_SYM, 'symtab-name-past-strtab', base, 'a function of .symtab named 2 GiB past '
         '.strtab', 'hostile_spin', edit=sym_name_past, cgs=('fp', 'dwarf'))
    case(G_SYM, 'text-name-past-shstrtab', base, '.text named 1.7 GB past .shstrtab (its '
         'symbols are not loaded)', '-', edit=lambda p: sec_name_past(p, '.text'))
    case(G_SYM, 'symtab-entsize-0', base, '.symtab with sh_entsize 0', '-',
         edit=lambda p: set_shdr_word(p, '.symtab', 56, 0))
    case(G_SYM, 'plt-got-huge', base, '.plt.got 0x900000000008 bytes long (2^44 entries)',
         'hostile_spin', edit=plt_got_huge)
    case(G_SYM, 'rela-dyn-link-strtab', base, '.rela.dyn\'s symbols in .dynstr (sh_link), '
         'which libelf does not read as symbols', 'hostile_spin',
         edit=lambda p: set_shdr_word(p, '.rela.dyn', 40, 4))

with open(f'{OUT}/manifest.jsonl', 'w') as f:
    for c in MANIFEST:
        f.write(json.dumps(c) + '\n')
log(f'{len(MANIFEST)} cases in {OUT}/manifest.jsonl')
