#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build perf out of tree, incrementally.
#   scripts/build.sh <series|upstream|at-NN> <libdw|libunwind|asan|tsan|m32|nolibdw|nolibelf|minimal|elfutils-<suite>|elfutils-series> [make args]
# series   = the series branch checked out in $BASE
# upstream = a worktree of the base commit in $WORK/upstream
# at-NN    = a worktree of the tip of topic series NN in $WORK/wt-at-NN
# at-NN.M  = the same for patch M of topic series NN (a patch's numbers
#            against its parent, at-NN.M-1, or at-(NN-1) for M = 1)
# The binary is $WORK/build/<tree>-<config>/perf.
#
# Rust: the Rust test workload (tests/workloads/code_with_type.rs) is
# built when rustc is found.  rustc's standard library objects carry their
# LLVM bitcode in a .llvmbc section.  When rustup's rustc (LLVM 20+) is used
# on Debian 12, GNU ar autoloads /usr/lib/bfd-plugins/LLVMgold-14.so to
# index libperf-test.a; LLVM 14 cannot parse the newer bitcode and aborts
# with "LLVM ERROR: Invalid encoding".  In that case ar is told to load
# GCC's LTO plugin only (explicit --plugin disables the autoload), which
# keeps the Rust workload.  Without a GCC plugin we fall back to NO_RUST=1.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tree=${1:?series|upstream}; cfg=${2:?libdw|libunwind}; shift 2

case $tree in
series)   SRC=$BASE ;;
upstream)
	if [ ! -d "$UPSTREAM/tools/perf" ]; then
		git -C "$BASE" worktree add -q -f --detach "$UPSTREAM" "$BASE_REF" 2>/dev/null
	else
		git -C "$UPSTREAM" checkout -q --detach "$BASE_REF"
	fi
	SRC=$UPSTREAM ;;
# at-NN: the tip of topic series NN (Documentation/series/topics) of the
# work branch, in a worktree of its own: what the cover letters measure.
at-[0-9][0-9]|at-[0-9][0-9].[0-9]*)
	t=${tree#at-} m=
	[ "$t" = "${t%.*}" ] || { m=${t#*.}; t=${t%.*}; }
	n=$(awk -v t="$t" -v m="$m" '!/^#/ && NF == 2 {
		if (substr($1, 1, 2) == t) { print n + (m == "" ? $2 : m); exit } n += $2 }' \
		"$TOP/Documentation/series/topics")
	rev=$(git -C "$BASE" rev-list --reverse "$BASE_REF..$SERIES_BRANCH" | sed -n "${n:-0}p")
	[ -n "$rev" ] || { echo "no series ${tree#at-}" >&2; exit 2; }
	# One worktree for all the at-NN.M builds: make rebuilds what
	# checking out another patch changed.
	SRC=$WORK/wt-$tree
	[ -z "$m" ] || SRC=$WORK/wt-patch
	if [ ! -d "$SRC/tools/perf" ]; then
		git -C "$BASE" worktree add -q -f --detach "$SRC" "$rev"
	else
		git -C "$SRC" checkout -q --detach "$rev"
	fi ;;
*) echo "unknown tree $tree" >&2; exit 2 ;;
esac

FLAGS=()
case $cfg in
libdw) ;;
libunwind) FLAGS+=(LIBUNWIND=1) ;;
# ASan+UBSan build of the libdw configuration, for tests/t-robust.sh
# (WERROR=0: gcc 12 warns falsely under -fsanitize, format-truncation).
asan)	FLAGS+=(EXTRA_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -g"
		NO_RUST=1 WERROR=0) ;;
# libdw of elfutils 0.192 with the elfutils series of patches/elfutils/
# (scripts/elfutils-src.sh), found at run time through the binary's rpath.
elfutils-series)
	EU=$("$(dirname "$0")/elfutils-src.sh" build)
	FLAGS+=(LIBDW_DIR="$EU" EXTRA_CFLAGS="-I$EU/include" LDFLAGS="-Wl,-rpath,$EU/lib -L$EU/lib"
		NO_RUST=1) ;;
# libdw of another elfutils (scripts/elfutils.sh <suite>), found at run
# time through the binary's rpath.
elfutils-*)
	EU=$WORK/$cfg
	[ -f "$EU/.done" ] || "$(dirname "$0")/elfutils.sh" "${cfg#elfutils-}" >/dev/null
	FLAGS+=(LIBDW_DIR="$EU" EXTRA_CFLAGS="-I$EU/include" LDFLAGS="-Wl,-rpath,$EU/lib -L$EU/lib"
		NO_RUST=1) ;;
# ThreadSanitizer build for scripts/tsan-top.sh (no BPF skeletons: clang's
# BPF build does not take -fsanitize).
tsan)	FLAGS+=(EXTRA_CFLAGS="-fsanitize=thread -g -O1" LDFLAGS="-fsanitize=thread"
		NO_LIBBPF=1 NO_RUST=1 WERROR=0) ;;
# i386 (tests/t-builds.sh): the libdw build as a 32-bit program, where
# u64 is not unsigned long and pointers are 32 bits, against the i386
# libraries of scripts/install-deps.sh; what has no i386 library here is off.
m32)	export CC="${CC:-gcc} -m32" CXX="${CXX:-g++} -m32"
	FLAGS+=(LD="ld -m elf_i386" HOSTCC=gcc HOSTLD=ld
		PKG_CONFIG_LIBDIR=/usr/lib/i386-linux-gnu/pkgconfig:/usr/share/pkgconfig
		NO_LIBPYTHON=1 NO_LIBPERL=1 NO_LIBBPF=1 NO_RUST=1 NO_JVMTI=1 NO_SDT=1
		NO_LIBUNWIND=1 NO_SLANG=1 NO_GTK2=1) ;;
# Build coverage (tests/t-builds.sh): without libdw, without libelf, and
# perf's own minimal build (make_minimal of tools/perf/tests/make).
nolibdw)  FLAGS+=(NO_LIBDW=1) ;;
nolibelf) FLAGS+=(NO_LIBELF=1) ;;
minimal)  FLAGS+=(NO_LIBPYTHON=1 NO_DEMANGLE=1 NO_LIBELF=1 NO_BACKTRACE=1 NO_LIBNUMA=1
		  NO_LIBBIONIC=1 NO_LIBDW=1 NO_LIBBPF=1 NO_SDT=1 NO_JVMTI=1 NO_LIBZSTD=1
		  NO_CAPSTONE=1) ;;
*) echo "unknown config $cfg" >&2; exit 2 ;;
esac

rust_llvm_newer() {
	command -v rustc >/dev/null || return 1
	local r b
	r=$(rustc -vV 2>/dev/null | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
	b=$(ls /usr/lib/bfd-plugins/LLVMgold*.so 2>/dev/null |
		sed -n 's/.*LLVMgold-\([0-9]*\)\.so/\1/p' | sort -n | tail -1)
	[ -n "$r" ] && [ -n "$b" ] && [ "$r" -gt "$b" ]
}
if [ "${NO_RUST:-}" = 1 ]; then
	FLAGS+=(NO_RUST=1)
elif [ "$cfg" = asan ] || [ "$cfg" = tsan ] || [ "$cfg" = m32 ] || [ "${cfg#elfutils-}" != "$cfg" ]; then
	:
elif rust_llvm_newer; then
	lto=$(${CC:-gcc} -print-file-name=liblto_plugin.so)
	if [ -f "$lto" ]; then
		FLAGS+=(AR="ar --plugin $lto")
	else
		FLAGS+=(NO_RUST=1)
	fi
fi

# ccache (kept in the clone) makes the bisect builds of tests/t-bisect.sh
# recompile only what a patch really changes, not all that includes a
# header it touched.
if [ "${NO_CCACHE:-}" != 1 ] && command -v ccache >/dev/null; then
	export CCACHE_DIR=${CCACHE_DIR:-$WORK/ccache} CCACHE_BASEDIR=$SRC
	FLAGS+=(CC="ccache ${CC:-gcc}" CXX="ccache ${CXX:-g++}")
fi

OUT=$BUILD/$tree-$cfg
mkdir -p "$OUT"
echo "build: $tree-$cfg in $OUT"
make -s -C "$SRC/tools/perf" O="$OUT" -j"$JOBS" "${FLAGS[@]}" "$@" >"$OUT/build.log" 2>&1 || {
	tail -40 "$OUT/build.log" >&2; echo "build: $tree-$cfg FAILED (log: $OUT/build.log)" >&2; exit 1; }
echo "build: $tree-$cfg ok"
