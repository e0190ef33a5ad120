#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# Time the inflation of the zlib-compressed (SHF_COMPRESSED) sections of an
# ELF file: the floor of reading its DWARF once.  bench/inflate.py <file>
import struct, sys, zlib, time
f = open(sys.argv[1], 'rb').read()
shoff, = struct.unpack_from('<Q', f, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', f, 0x3a)
t = time.time(); total = 0
for i in range(shnum):
    name, typ, flags, addr, off, size = struct.unpack_from('<IIQQQQ', f, shoff + i * shentsize)
    if flags & 0x800:  # SHF_COMPRESSED
        ch_type, _, ch_size, _ = struct.unpack_from('<IIQQ', f, off)
        total += len(zlib.decompress(f[off + 24:off + size]))
print("%.2f s to inflate %d MB" % (time.time() - t, total >> 20))
