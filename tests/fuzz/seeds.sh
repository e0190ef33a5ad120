#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Seed corpora of the fuzz harnesses, generated (no binary is kept):
#   tests/fuzz/seeds.sh <dir> [srcline|unwind|kept]	(default srcline)
# srcline, for tests/fuzz/fuzz-srcline.c:
# - tests/fuzz/seeds.cpp built as a shared library with inline frames, by
#   g++ (DWARF 5, DWARF 4, zlib- and zstd-compressed sections, type units,
#   split DWARF without its .dwo, -O0) and clang++ when present;
# - the crafted libraries of tests/corpus/hostile.py (DWARF, line programs
#   and CFI written by hand: import cycles, deep nesting, reference loops,
#   lying extended opcodes), built without recording anything (its --rec is
#   /bin/false, so that its ELF edits of recordings are not made).
# unwind, for tests/fuzz/fuzz-unwind.c (x86_64), see unwind_seeds below.
# kept, for tests/fuzz/fuzz-kept.c: tests/fuzz/seeds.cpp built by g++ -O2 -g
#   as $FUZZ_KEPT_ELF, and the srclines file the harness ($FUZZ_KEPT_HARNESS)
#   keeps for it after looking it up with no file (an empty input).
# Seeds larger than SEED_MAX (1 MiB) are left out: they slow every run.
set -uo pipefail
dir=${1:?seed dir}
what=${2:-srcline}
here=$(cd "$(dirname "$0")" && pwd)
max=${SEED_MAX:-1048576}
src=$here/seeds.cpp
mkdir -p "$dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=0

# Samples of tests/fuzz/unwind-seed.c, each built non-PIE and run: its
# registers and stack four calls deep, and its ELF file: .eh_frame with
# .eh_frame_hdr (-fasynchronous-unwind-tables, frame pointer omitted),
# .debug_frame only for its code (-fno-asynchronous-unwind-tables
# -fno-unwind-tables -g; crt1's .eh_frame stays), frame pointers, -O0, C++
# (templates and a lambda between the frames), clang and clang++, and one
# with IP, SP and BP only. Then made-up samples for the crafted CFI of
# tests/corpus/hostile.py (cfi-*: CFA expression loops, a far CFA, a return
# address that does not move, 20000 DW_CFA_remember_state), IP in
# hostile_spin() past its prologue.
useed() {	# name env compiler flags...
	local name=$1 env=$2 cc=$3
	shift 3
	command -v "$cc" >/dev/null || return 0
	if "$cc" -no-pie -o "$tmp/$name" "$@" 2>/dev/null &&
	   env $env "$tmp/$name" "$dir/unwind-$name" 2>/dev/null; then
		n=$((n + 1))
	else
		rm -f "$dir/unwind-$name"
	fi
}
unwind_seeds() {
	local u=$here/unwind-seed.c f off

	[ "$(uname -m)" = x86_64 ] || { echo "seeds: unwind: x86_64 only"; return 0; }
	useed gcc-O2-eh-frame '' gcc -O2 -g -fasynchronous-unwind-tables -fomit-frame-pointer "$u"
	useed gcc-O2-debug-frame '' gcc -O2 -g -fno-asynchronous-unwind-tables -fno-unwind-tables "$u"
	useed gcc-O2-fp '' gcc -O2 -g -fno-omit-frame-pointer "$u"
	useed gcc-O0 '' gcc -O0 -g "$u"
	useed gcc-O2-fewregs FEWREGS=1 gcc -O2 -g "$u"
	useed g++-O2 '' g++ -x c++ -O2 -g "$u"
	useed clang-O2 '' clang -O2 -g "$u"
	useed clang++-O2 '' clang++ -x c++ -O2 -g "$u"
	command -v python3 >/dev/null && command -v gcc >/dev/null || return 0
	gcc -no-pie -O2 -o "$tmp/useed" "$u" 2>/dev/null || return 0
	python3 "$here/../corpus/hostile.py" --rec /bin/false --out "$tmp/hostile" \
		>/dev/null 2>&1
	for f in "$tmp"/hostile/v/cfi-*/libhostile.so; do
		[ -f "$f" ] || continue
		off=$(nm "$f" | awk '$3 == "hostile_spin" { print $1 }')
		[ -n "$off" ] || continue
		# Past push %rbp; mov %rsp,%rbp (4 bytes): where the crafted CFI holds.
		off=$(printf %x $((0x$off + 6)))
		"$tmp/useed" "$dir/unwind-$(basename "$(dirname "$f")")" "$f" "$off" &&
			n=$((n + 1))
	done
}

if [ "$what" = kept ]; then
	: "${FUZZ_KEPT_ELF:?}" "${FUZZ_KEPT_HARNESS:?}"
	mkdir -p "$(dirname "$FUZZ_KEPT_ELF")"
	g++ -shared -fPIC -O2 -g -o "$FUZZ_KEPT_ELF" "$src" || exit 1
	: >"$tmp/empty"
	(cd "$tmp" && FUZZ_KEPT_SAVE="$dir/kept-g++-O2" "$FUZZ_KEPT_HARNESS" "$tmp/empty") \
		>"$tmp/log" 2>&1
	[ -s "$dir/kept-g++-O2" ] && n=$((n + 1)) || cat "$tmp/log"
	echo "seeds: $n in $dir"
	exit 0
fi

if [ "$what" = unwind ]; then
	unwind_seeds
	echo "seeds: $n in $dir"
	exit 0
fi

seed() {	# name compiler flags...
	local name=$1 cc=$2
	shift 2
	command -v "$cc" >/dev/null || return 0
	if (cd "$tmp" && "$cc" -shared -fPIC -o "$tmp/$name.so" "$src" "$@") 2>/dev/null; then
		cp "$tmp/$name.so" "$dir/cxx-$name.so"
		n=$((n + 1))
	fi
}
seed g++-O2 g++ -O2 -g
seed g++-O2-dwarf4 g++ -O2 -gdwarf-4
seed g++-O2-gz-zlib g++ -O2 -g -gz=zlib
seed g++-O2-dwarf4-gz-zlib g++ -O2 -gdwarf-4 -gz=zlib
seed g++-O2-gz-zstd g++ -O2 -g -gz=zstd
seed g++-O2-types g++ -O2 -gdwarf-4 -fdebug-types-section
seed g++-O2-split g++ -O2 -g -gsplit-dwarf
seed g++-O0 g++ -O0 -g
seed clang++-O2 clang++ -O2 -g
seed clang++-O2-dwarf4 clang++ -O2 -gdwarf-4

if command -v python3 >/dev/null && command -v gcc >/dev/null; then
	python3 "$here/../corpus/hostile.py" --rec /bin/false --out "$tmp/hostile" \
		>/dev/null 2>&1
	for f in "$tmp"/hostile/v/*/libhostile.so; do
		[ -f "$f" ] || continue
		[ "$(stat -c %s "$f")" -le "$max" ] || continue
		cp "$f" "$dir/hostile-$(basename "$(dirname "$f")").so"
		n=$((n + 1))
	done
fi
echo "seeds: $n in $dir"
