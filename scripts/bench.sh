#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The benchmark (not a test): standard candles recorded once (cached in
# work/candles), then perf report/script of each with the four builds,
# side by side in one run.  Prints one markdown table.
#   scripts/bench.sh clang|bigdwarf|make|addrs|scale|startup|trace|procs|all
# BENCH_RUNS (default 3): runs per command, the median is reported.
# BENCH_CMDS (default: report noinline script srcline).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
RUNS=${BENCH_RUNS:-3}
CMDS=(${BENCH_CMDS:-report noinline script srcline})
CANDLES=$WORK/candles
OUT=$WORK/bench
mkdir -p "$CANDLES" "$OUT"
REC=$BUILD/upstream-libdw/perf		# recording is not changed by the series
BUILDS=(upstream-libdw series-libdw upstream-libunwind series-libunwind)
# libunwind builds run with unwind.style=libunwind (libdw would go first).
mkdir -p "$OUT/home-libunwind" "$OUT/home-default"
printf '[unwind]\n\tstyle = libunwind\n' >"$OUT/home-libunwind/.perfconfig"
: >"$OUT/home-default/.perfconfig"
home_of() { case $1 in *libunwind) echo "$OUT/home-libunwind" ;; *) echo "$OUT/home-default" ;; esac; }

record() {	# name mode command...
	local name=$1 mode=$2; shift 2
	local data=$CANDLES/$name-$mode.data
	[ -s "$data" ] && return 0
	local cg=(-g)
	[ "$mode" = dwarf ] && cg=(--call-graph dwarf)
	echo "bench: recording $name ($mode)" >&2
	"$REC" record -q -e cpu-clock -F 999 "${cg[@]}" -o "$data.tmp" -- "$@" >/dev/null 2>"$data.log" &&
		mv "$data.tmp" "$data"
}

candle_clang() {
	local src=$TOP/bench/clang-candle.cpp
	for mode in fp dwarf; do
		record clang "$mode" clang++ -O2 -std=c++17 -c "$src" -o "$CANDLES/clang-candle.o"
	done
}

candle_make() {
	local d=$CANDLES/make-src
	if [ ! -f "$d/Makefile" ]; then
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
		{
			echo 'OBJS := $(patsubst %.c,%.o,$(wildcard u*.c))'
			echo 'all: $(OBJS)'
			echo '%.o: %.c'
			printf '\t$(CC) -O2 -g -c $< -o $@\n'
			echo 'clean:'
			printf '\trm -f *.o\n'
		} >"$d/Makefile"
	fi
	for mode in fp dwarf; do
		make -s -C "$d" clean >/dev/null
		record make "$mode" make -s -C "$d" -j2
	done
}

# A real C++ program with big separate DWARF: ceph's crushtool, whose hot
# library libceph-common.so.2 has 275 MB of DWARF (92 MB zlib-compressed)
# in librados2-dbg.
candle_bigdwarf() {
	if ! command -v crushtool >/dev/null || ! dpkg-query -W librados2-dbg >/dev/null 2>&1; then
		echo "bench: installing ceph-base librados2-dbg for the big-DWARF candle" >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
			ceph-base librados2-dbg >/dev/null 2>&1 || { echo "bench: no crushtool" >&2; return 1; }
	fi
	[ -s "$CANDLES/crushmap" ] ||
		crushtool --build --num_osds 2000 host straw2 10 rack straw2 10 root straw2 0 \
			-o "$CANDLES/crushmap" >/dev/null
	for mode in fp dwarf; do
		record bigdwarf "$mode" crushtool -i "$CANDLES/crushmap" --test --num-rep 3 \
			--min-x 0 --max-x "${BIGDWARF_X:-299999}" --show-statistics
	done
}

# Cost per unique address: the same run time (and about as many samples)
# spread over 100 and over 3000 functions of one DSO, each with two levels
# of inlined helpers: 10x the distinct sampled addresses. What inline
# frames cost above the floor (the same report with --no-inline) should
# grow no more than the distinct addresses do.
candle_addrs() {
	local n data
	for n in 100 3000; do
		if [ ! -x "$CANDLES/addrs$n" ]; then
			python3 "$TOP/bench/addrs-gen.py" "$n" >"$CANDLES/addrs$n.c" &&
				gcc -O2 -g -o "$CANDLES/addrs$n" "$CANDLES/addrs$n.c" || return 1
		fi
		data=$CANDLES/addrs$n-fp.data
		if [ ! -s "$data" ]; then
			echo "bench: recording addrs$n (fp)" >&2
			"$REC" record -q -e cpu-clock -F 4000 -g -o "$data.tmp" -- "$CANDLES/addrs$n" 5 \
				>/dev/null 2>&1 && mv "$data.tmp" "$data"
		fi
	done
}

bench_addrs() {
	local a1=$CANDLES/addrs100-fp.data a2=$CANDLES/addrs3000-fp.data b d1 d2
	local r1 n1 r2 n2
	[ -s "$a1" ] && [ -s "$a2" ] || return 0
	d1=$("$REC" script -i "$a1" -F ip --hide-call-graph 2>/dev/null | sort -u | wc -l)
	d2=$("$REC" script -i "$a2" -F ip --hide-call-graph 2>/dev/null | sort -u | wc -l)
	echo
	echo "### cost per unique address: one DSO, 100 and 3000 functions with inlined helpers, -g"
	echo
	echo "Distinct sampled addresses: $d1 and $d2 ($(python3 -c "print('%.1fx' % ($d2 / max($d1, 1)))")), samples:" \
		"$("$REC" report -i "$a1" --stats 2>/dev/null | awk '/SAMPLE events:/ && !n++ {print $3}') and" \
		"$("$REC" report -i "$a2" --stats 2>/dev/null | awk '/SAMPLE events:/ && !n++ {print $3}')."
	echo "\"above the floor\" = report (inline frames on) - the same with --no-inline."
	echo
	echo "| build | report s, 100 | --no-inline s, 100 | report s, 3000 | --no-inline s, 3000 | above the floor, 3000 / 100 | max RSS MiB, 100 / 3000 |"
	echo "|---|---|---|---|---|---|---|"
	for b in upstream-libdw series-libdw series-libunwind; do
		read -r r1 _ m1 < <(measure "$b" report "$a1")
		read -r n1 _ _ < <(measure "$b" noinline "$a1")
		read -r r2 _ m2 < <(measure "$b" report "$a2")
		read -r n2 _ _ < <(measure "$b" noinline "$a2")
		printf '| %s | %.2f | %.2f | %.2f | %.2f | %s | %d / %d |\n' "$b" "$r1" "$n1" "$r2" "$n2" \
			"$(python3 -c "print('%.1fx' % (max($r2 - $n2, 0.01) / max($r1 - $n1, 0.01)))")" \
			$(( m1 / 1024 )) $(( m2 / 1024 ))
	done
	# Wall time above the floor is a few tenths of a second at 100
	# functions: count instructions too (the series only: upstream's
	# 3000-function report takes a minute natively).
	command -v valgrind >/dev/null || return 0
	instr() {	# perf report args... -> instructions
		HOME=$(home_of series-libdw) valgrind --tool=callgrind --callgrind-out-file=/dev/null \
			"$BUILD/series-libdw/perf" report -q --stdio -g none --children --percent-limit 5 "$@" \
			2>&1 >/dev/null | awk '/Collected/ {print $NF}'
	}
	r1=$(instr -i "$a1"); n1=$(instr -i "$a1" --no-inline)
	r2=$(instr -i "$a2"); n2=$(instr -i "$a2" --no-inline)
	echo
	echo "series-libdw, instructions (callgrind): 100 functions $(python3 -c "print('%.2fG, --no-inline %.2fG' % ($r1 / 1e9, $n1 / 1e9))");" \
		"3000 functions $(python3 -c "print('%.2fG, --no-inline %.2fG' % ($r2 / 1e9, $n2 / 1e9))");" \
		"above the floor $(python3 -c "print('%.1fx' % (($r2 - $n2) / max($r1 - $n1, 1)))") for $(python3 -c "print('%.1fx' % ($d2 / max($d1, 1)))") the distinct addresses."
}

# The big-DWARF candle recorded for a quarter of the work: time per sample
# flat means the full recording costs at most 4x the quarter one.
bench_scale() {
	local q=$CANDLES/bigdwarf-quarter-dwarf.data f=$CANDLES/bigdwarf-dwarf.data
	if [ ! -s "$q" ]; then
		echo "bench: recording bigdwarf-quarter (dwarf)" >&2
		"$REC" record -q -e cpu-clock -F 999 --call-graph dwarf -o "$q.tmp" -- crushtool \
			-i "$CANDLES/crushmap" --test --num-rep 3 --min-x 0 \
			--max-x $(( (${BIGDWARF_X:-299999} + 1) / 4 - 1 )) --show-statistics >/dev/null 2>&1 &&
			mv "$q.tmp" "$q"
	fi
	local nq nf
	nq=$("$REC" report -i "$q" --stats 2>/dev/null | awk '/SAMPLE events:/ && !n++ {print $3}')
	nf=$("$REC" report -i "$f" --stats 2>/dev/null | awk '/SAMPLE events:/ && !n++ {print $3}')
	echo
	echo "### time per sample: crushtool --call-graph dwarf, $nq and $nf samples"
	echo
	echo "| command | build | wall s (quarter) | wall s (full) | full / quarter | samples full / quarter |"
	echo "|---|---|---|---|---|---|"
	for cmd in noinline script; do
		for b in "${BUILDS[@]}"; do
			read -r wq _ _ < <(measure "$b" "$cmd" "$q")
			read -r wf _ _ < <(measure "$b" "$cmd" "$f")
			printf '| %s | %s | %.2f | %.2f | %s | %s |\n' "$cmd" "$b" "$wq" "$wf" \
				"$(python3 -c "print('%.2fx' % ($wf / max($wq, 0.001)))")" \
				"$(python3 -c "print('%.2fx' % (${nf:-0} / max(${nq:-1}, 1)))")"
		done
	done
}

# The floor of the big-DWARF report with inline frames: --no-inline plus
# one decompression of the hot library's debug file.
bench_floor() {
	local dbg
	dbg=$(find /usr/lib/debug/.build-id -name '*.debug' -size +50M 2>/dev/null | sed -n 1p)
	[ -n "$dbg" ] || return 0
	echo
	echo "### floor of the crushtool -g report with inline frames"
	echo
	for r in $(seq 1 "$RUNS"); do
		/usr/bin/time -f "objcopy --decompress-debug-sections: %e s" \
			objcopy --decompress-debug-sections "$dbg" "$OUT/dec.$$" 2>&1 | tail -1
		rm -f "$OUT/dec.$$"
		python3 "$TOP/bench/inflate.py" "$dbg"
	done | sed 's/^/- /'
}

# measure <build> <cmd> <data> -> "wall usersys maxrss_kb" (median of RUNS)
measure() {
	local b=$1 cmd=$2 data=$3 perf=$BUILD/$1/perf
	local args tf
	# Its own file: the caller reads the result before this function's
	# rm runs, so a shared name races with the next call.
	tf=$(mktemp "$OUT/time.XXXXXX")
	case $cmd in
	report)   args=(report -i "$data" -q --stdio -g none --children --percent-limit 5) ;;
	noinline) args=(report -i "$data" -q --stdio -g none --children --percent-limit 5 --no-inline) ;;
	script)   args=(script -i "$data") ;;
	srcline)  args=(report -i "$data" -q --stdio --sort srcline --percent-limit 5) ;;
	esac
	for r in $(seq 1 "$RUNS"); do
		HOME=$(home_of "$b") /usr/bin/time -f "%e %U %S %M" -o "$tf" \
			timeout "${BENCH_TIMEOUT:-900}" "$perf" "${args[@]}" >"$OUT/$b.$cmd.out" 2>"$OUT/$b.$cmd.err"
		rc=$?
		# A run killed by the timeout counts as the timeout (a lower bound).
		awk -v rc=$rc -v t="${BENCH_TIMEOUT:-900}" '!/^Command/ {
			if (rc == 124) $1 = t; printf "%.3f %.3f %d\n", $1, $2 + $3, $4 }' "$tf"
		[ $rc = 124 ] && break	# no point in timing it out again
	done | sort -n -k1 | awk -v n="$RUNS" '{l[NR] = $0} END {print l[int((NR + 1) / 2)]}'
	rm -f "$tf"
}

completeness() {	# perf script output -> "shallow% unknown%"
	python3 "$TOP/tests/chaincmp.py" stats "$1" |
		python3 -c 'import json,sys; d=json.load(sys.stdin); print("%.1f%% %.1f%%" % (100*d["shallow_share"], 100*d["unknown_share"]))'
}

bench_candle() {	# name
	local name=$1 mode data b cmd
	for mode in fp dwarf; do
		data=$CANDLES/$name-$mode.data
		[ -s "$data" ] || continue
		echo
		echo "### $name, $( [ $mode = fp ] && echo '-g' || echo '--call-graph dwarf'), $(du -m "$data" | cut -f1) MB"
		echo
		echo "| command | build | wall s | user+sys s | max RSS MiB | wall vs upstream libdw | wall vs libunwind (series) | RSS vs libunwind (series) |"
		echo "|---|---|---|---|---|---|---|---|"
		for cmd in "${CMDS[@]}"; do
			declare -A W=() C=() M=()
			for b in "${BUILDS[@]}"; do
				read -r W[$b] C[$b] M[$b] < <(measure "$b" "$cmd" "$data")
				if [ "$cmd" = script ]; then
					cp "$OUT/$b.script.out" "$OUT/$name-$mode.$b.script"
				fi
			done
			for b in "${BUILDS[@]}"; do
				printf '| %s | %s | %.2f | %.2f | %d | %s | %s | %s |\n' "$cmd" "$b" "${W[$b]}" "${C[$b]}" $(( ${M[$b]} / 1024 )) \
					"$(python3 -c "print('%.2fx' % (${W[$b]} / max(${W[upstream-libdw]}, 0.001)))")" \
					"$(python3 -c "print('%.2fx' % (${W[$b]} / max(${W[series-libunwind]}, 0.001)))")" \
					"$(python3 -c "print('%.2fx' % (${M[$b]} / max(${M[series-libunwind]}, 1)))")"
			done
			unset W C M
		done
		if [[ " ${CMDS[*]} " == *" script "* ]]; then
			echo
			echo "Chain completeness (perf script): share of samples with at most one frame / with an [unknown] frame:"
			for b in "${BUILDS[@]}"; do
				echo "- $b: $(completeness "$OUT/$name-$mode.$b.script")"
			done
		fi
	done
}

bench_startup() {
	echo
	echo "### start-up"
	echo
	echo "| command | build | wall ms (median) | syscalls | stat-family calls | getdents64 |"
	echo "|---|---|---|---|---|---|"
	for b in upstream-libdw series-libdw; do
		perf=$BUILD/$b/perf
		cmds=("record -o /dev/null -e cpu-clock -- true" "stat -e task-clock -- true")
		# perf trace needs tracefs (mount -t tracefs nodev /sys/kernel/tracing).
		[ -d /sys/kernel/tracing/events/syscalls ] && cmds+=("trace -o /dev/null -- true")
		for c in "${cmds[@]}"; do
			w=$(for r in $(seq 1 "$RUNS"); do
				/usr/bin/time -f "%e" -o "$OUT/t.$$" "$perf" $c >/dev/null 2>&1; cat "$OUT/t.$$"
			done | sort -n | awk -v n="$RUNS" 'NR == int((n + 1) / 2) {print $1 * 1000}')
			strace -f -c -o "$OUT/strace.$$" "$perf" $c >/dev/null 2>&1
			tot=$(awk '/^100.00|total$/ {print $(NF-2)}' "$OUT/strace.$$" | tail -1)
			st=$(awk '$NF ~ /^(newfstatat|fstat|stat|lstat|statx)$/ {s += $4} END {print s + 0}' "$OUT/strace.$$")
			gd=$(awk '$NF == "getdents64" {print $4}' "$OUT/strace.$$")
			printf '| perf %s | %s | %s | %s | %s | %s |\n' "${c%% --*}" "$b" "$w" "$tot" "$st" "${gd:-0}"
		done
	done
	rm -f "$OUT/t.$$" "$OUT/strace.$$"
}

# perf trace -a of a program that starts threads: each new thread's
# set_robust_list and rseq carry a struct that perf trace prints with BTF.
bench_trace() {
	local n=${BENCH_THREADS:-1000} prog=$CANDLES/threads b r
	[ -d /sys/kernel/tracing/events/syscalls ] || return 0
	cc -O2 -pthread -o "$prog" "$TOP/bench/threads.c" || return 0
	echo
	echo "### perf trace -a of a program that starts and joins $n threads"
	echo
	echo "| build | wall s | user+sys s | max RSS MiB | events lost | lines of the program |"
	echo "|---|---|---|---|---|---|"
	for b in upstream-libdw series-libdw; do
		for r in $(seq 1 "$RUNS"); do
			/usr/bin/time -f "%e %U %S %M" -o "$OUT/t.$$" "$BUILD/$b/perf" trace -a \
				-o "$OUT/trace.$$" -- "$prog" "$n" >/dev/null 2>&1
			echo "$(cat "$OUT/t.$$") $(grep -o 'LOST [0-9]*' "$OUT/trace.$$" |
				awk '{s += $2} END {print s + 0}') $(grep -c ' threads/' "$OUT/trace.$$")"
		done | sort -n | awk -v n="$RUNS" -v b="$b" 'NR == int((n + 1) / 2) {
			printf "| %s | %.2f | %.2f | %.0f | %d | %d |\n", b, $1, $2 + $3, $4 / 1024, $5, $6 }'
	done
	rm -f "$OUT/t.$$" "$OUT/trace.$$"
}

# Start-up with many processes on the machine: upstream scans the fds of
# every process (DRM PMUs) for the PMU mappings header.
bench_procs() {
	local n=${BENCH_PROCS:-2000} pids=() b w0 w1
	echo
	echo "### start-up with $n more idle processes (3 fds each)"
	echo
	echo "| command | build | wall ms, alone | wall ms, with $n processes | growth | syscalls, with $n processes |"
	echo "|---|---|---|---|---|---|"
	local cmds=("record -o /dev/null -e cpu-clock -- true" "list" "stat -a --per-thread -e task-clock -o /dev/null -- true")
	startup_wall() {	# perf command... -> median wall ms of RUNS
		for r in $(seq 1 "$RUNS"); do
			/usr/bin/time -f "%e" -o "$OUT/t.$$" "$@" >/dev/null 2>&1; cat "$OUT/t.$$"
		done | sort -n | awk -v n="$RUNS" 'NR == int((n + 1) / 2) {print $1 * 1000}'
	}
	declare -A W0
	for b in upstream-libdw series-libdw; do
		for c in "${cmds[@]}"; do W0[$b $c]=$(startup_wall "$BUILD/$b/perf" $c); done
	done
	for i in $(seq 1 "$n"); do
		sleep 3600 </dev/null >/dev/null 2>&1 3</dev/null &
		pids+=($!)
	done
	sleep 2
	for c in "${cmds[@]}"; do
		for b in upstream-libdw series-libdw; do
			w0=${W0[$b $c]}
			w1=$(startup_wall "$BUILD/$b/perf" $c)
			strace -f -c -o "$OUT/strace.$$" "$BUILD/$b/perf" $c >/dev/null 2>&1
			tot=$(awk '/^100.00|total$/ {print $(NF-2)}' "$OUT/strace.$$" | tail -1)
			printf '| perf %s | %s | %s | %s | %s | %s |\n' "${c%% -o /dev/null*}" "$b" "$w0" "$w1" \
				"$(python3 -c "print('%+.0f%%' % (100 * ($w1 / max($w0, 1) - 1)))")" "$tot"
		done
	done
	kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null
	rm -f "$OUT/t.$$" "$OUT/strace.$$"
}

what=${1:-clang}
echo "## Benchmark $(date -u +%Y-%m-%d), $(nproc) cores, $(uname -r), elfutils $(dpkg-query -W -f='${Version}' libdw1 2>/dev/null), libunwind $(dpkg-query -W -f='${Version}' libunwind8 2>/dev/null), median of $RUNS"
echo
echo "libunwind builds run with unwind.style=libunwind; 'series' = v7.3-rc7 + patches/."
case $what in
clang) candle_clang && bench_candle clang ;;
make) candle_make && bench_candle make ;;
bigdwarf) candle_bigdwarf && bench_candle bigdwarf && bench_floor ;;
startup) bench_startup; bench_trace; bench_procs ;;
trace) bench_trace ;;
procs) bench_procs ;;
scale) candle_bigdwarf && bench_scale ;;
addrs) candle_addrs && bench_addrs ;;
all)
	candle_clang && bench_candle clang
	candle_bigdwarf && bench_candle bigdwarf && bench_floor
	candle_make && bench_candle make
	candle_addrs && bench_addrs
	bench_scale
	bench_startup
	bench_trace
	bench_procs ;;
esac
