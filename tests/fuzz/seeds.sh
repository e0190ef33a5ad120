#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Seed corpus for tests/fuzz/fuzz-srcline.c, generated (no binary is kept):
#   tests/fuzz/seeds.sh <dir>
# - tests/fuzz/seeds.cpp built as a shared library with inline frames, by
#   g++ (DWARF 5, DWARF 4, zlib- and zstd-compressed sections, type units,
#   split DWARF without its .dwo, -O0) and clang++ when present;
# - the crafted libraries of tests/corpus/hostile.py (DWARF, line programs
#   and CFI written by hand: import cycles, deep nesting, reference loops,
#   lying extended opcodes), built without recording anything (its --rec is
#   /bin/false, so that its ELF edits of recordings are not made).
# Seeds larger than SEED_MAX (1 MiB) are left out: they slow every run.
set -uo pipefail
dir=${1:?seed dir}
here=$(cd "$(dirname "$0")" && pwd)
max=${SEED_MAX:-1048576}
src=$here/seeds.cpp
mkdir -p "$dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=0
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
