#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ELF64 section headers for the corpus generators (gen.py, hostile.py)."""
import struct

SHF_COMPRESSED = 0x800


def elf_sections(b):
    assert b[:4] == b'\x7fELF' and b[4] == 2, 'ELF64 only'
    shoff, = struct.unpack_from('<Q', b, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)
    hdrs = []
    for i in range(shnum):
        ho = shoff + i * shentsize
        name, typ, flags, addr, off, size = struct.unpack_from('<IIQQQQ', b, ho)
        hdrs.append({'i': i, 'ho': ho, 'name_off': name, 'type': typ, 'flags': flags,
                     'off': off, 'size': size})
    stroff = hdrs[shstrndx]['off']
    secs = {}
    for s in hdrs:
        n = b[stroff + s['name_off']:b.index(b'\0', stroff + s['name_off'])].decode()
        s['name'] = n
        secs[n] = s
    return secs
