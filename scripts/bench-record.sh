#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Record the benchmark's candles with v7.3-rc7's libdw perf, once: a
# recording in work/candles is kept and reused.
#   scripts/bench-record.sh <candle>...
# cxx       bench/cxx-gen.py 3000 (C++, inline frames, debug info), 3 s
# clang     clang++ -O2 -c bench/clang-candle.cpp (Debian's clang: dynamic
#           symbols only)
# make      make -j2 of 64 generated C files, -O2 -g (about 190 processes)
# bigdwarf  ceph's crushtool --test, libceph-common.so.2 with 275 MB of
#           separate DWARF (ceph-base, librados2-dbg)
# quarter   the bigdwarf run for a quarter of its work
# ceph      bench/ceph-job.sh: a one-mon ceph cluster and a librados client
#           issuing mon commands, 10 rounds (broader code: ceph-mon with 279
#           MB of separate DWARF, libceph-common with 262 MB); not in
#           install-deps.sh: apt-get install ceph-mon ceph-mon-dbg python3-rados
# cephosd   bench/ceph-osd-job.sh: one mon and one memstore osd, rados bench
#           3 s of writes and 3 s of reads, objects with xattrs and omap
#           (ceph-osd with 595 MB of separate DWARF); also needs ceph-osd
#           and ceph-osd-dbg
# jvm       bench/jvm-job.sh: javac compiles 300 generated classes and the
#           program they make runs (OpenJDK 17's libjvm.so, HotSpot, with 364
#           MB of DWARF, 156 MB zlib-compressed, in openjdk-17-dbg); not in
#           install-deps.sh: apt-get install openjdk-17-jdk-headless openjdk-17-dbg
# addrs100, addrs3000  bench/addrs-gen.py programs, 5 s at -F 4000
# Each with -g and --call-graph dwarf (addrs*: -g, quarter: dwarf), -e cpu-clock.
set -uo pipefail
. "$(dirname "$0")/bench-lib.sh"

record() {	# name mode freq command...
	local name=$1 mode=$2 freq=$3 data cg=(-g); shift 3
	data=$(data_of "$name" "$mode")
	[ -s "$data" ] && return 0
	[ "$mode" = dwarf ] && cg=(--call-graph dwarf)
	echo "bench: recording $name ($mode)" >&2
	"$REC" record -q -e cpu-clock -F "$freq" "${cg[@]}" -o "$data.tmp" -- "$@" >/dev/null 2>"$data.log" &&
		mv "$data.tmp" "$data"
}

gen_build() {	# name generator n compiler
	[ -x "$CANDLES/$1" ] && return 0
	python3 "$TOP/bench/$2" "$3" >"$CANDLES/$1.src" &&
		$4 -O2 -g -o "$CANDLES/$1" -x "$([ "$4" = g++ ] && echo c++ || echo c)" "$CANDLES/$1.src"
}

crushtool_ok() {
	command -v crushtool >/dev/null && dpkg-query -W librados2-dbg >/dev/null 2>&1 && return 0
	echo "bench: no crushtool or librados2-dbg (scripts/install-deps.sh): no $1 candle" >&2
	return 1
}

ceph_ok() {	# candle packages...
	local c=$1 p; shift
	for p in ceph-mon ceph-mon-dbg librados2-dbg "$@"; do
		dpkg-query -W "$p" >/dev/null 2>&1 && continue
		echo "bench: no $p (apt-get install ceph-mon ceph-mon-dbg librados2-dbg $*): no $c candle" >&2
		return 1
	done
}

jvm_ok() {
	command -v javac >/dev/null && dpkg-query -W openjdk-17-dbg >/dev/null 2>&1 && return 0
	echo "bench: no javac or openjdk-17-dbg (apt-get install openjdk-17-jdk-headless openjdk-17-dbg): no jvm candle" >&2
	return 1
}

make_src() {
	local d=$CANDLES/make-src i j
	[ -f "$d/Makefile" ] && return 0
	mkdir -p "$d"
	for i in $(seq 1 64); do
		{
			echo "#include <stdio.h>"
			echo "#include <string.h>"
			for j in $(seq 1 40); do
				echo "static int f${i}_$j(const char *s) { int h = $j; while (*s) h = h * 31 + *s++; return h ^ (int)strlen(s); }"
			done
			echo "int unit$i(void) { int r = 0;"
			for j in $(seq 1 40); do echo "  r += f${i}_$j(\"unit $i fn $j\");"; done
			echo "  printf(\"%d\\n\", r); return r; }"
		} >"$d/u$i.c"
	done
	printf '%s\n' 'OBJS := $(patsubst %.c,%.o,$(wildcard u*.c))' 'all: $(OBJS)' '%.o: %.c' \
		'	$(CC) -O2 -g -c $< -o $@' 'clean:' '	rm -f *.o' >"$d/Makefile"
}

X=${BIGDWARF_X:-299999}
for c in "$@"; do
	case $c in
	cxx)	gen_build cxx cxx-gen.py 3000 g++ || continue
		for m in fp dwarf; do record cxx $m 999 "$CANDLES/cxx" 3; done ;;
	clang)	for m in fp dwarf; do
			record clang $m 999 clang++ -O2 -std=c++17 -c "$TOP/bench/clang-candle.cpp" \
				-o "$CANDLES/clang-candle.o"
		done ;;
	make)	make_src
		for m in fp dwarf; do
			make -s -C "$CANDLES/make-src" clean >/dev/null
			record make $m 999 make -s -C "$CANDLES/make-src" -j2
		done ;;
	bigdwarf|quarter)
		crushtool_ok "$c" || continue
		[ -s "$CANDLES/crushmap" ] ||
			crushtool --build --num_osds 2000 host straw2 10 rack straw2 10 root straw2 0 \
				-o "$CANDLES/crushmap" >/dev/null
		x=$X; [ "$c" = quarter ] && x=$(( (X + 1) / 4 - 1 ))
		for m in $(candle_modes "$c"); do
			record "$c" $m 999 crushtool -i "$CANDLES/crushmap" --test --num-rep 3 \
				--min-x 0 --max-x "$x" --show-statistics
		done ;;
	ceph)	ceph_ok ceph python3-rados || continue
		for m in $(candle_modes "$c"); do
			record ceph $m 999 "$TOP/bench/ceph-job.sh" "$CANDLES/ceph-$m.scratch" 10
			rm -rf "$CANDLES/ceph-$m.scratch"
		done ;;
	cephosd) ceph_ok cephosd ceph-osd ceph-osd-dbg || continue
		for m in $(candle_modes "$c"); do
			record cephosd $m 999 "$TOP/bench/ceph-osd-job.sh" "$CANDLES/cephosd-$m.scratch" 3
			rm -rf "$CANDLES/cephosd-$m.scratch"
		done ;;
	jvm)	jvm_ok || continue
		for m in $(candle_modes "$c"); do
			record jvm $m 999 "$TOP/bench/jvm-job.sh" "$CANDLES/jvm-$m.scratch" 300
			rm -rf "$CANDLES/jvm-$m.scratch"
		done ;;
	addrs100|addrs3000)
		gen_build "$c" addrs-gen.py "${c#addrs}" gcc || continue
		record "$c" fp 4000 "$CANDLES/$c" 5 ;;
	*) echo "bench-record: no candle $c" >&2; exit 2 ;;
	esac
done
exit 0
