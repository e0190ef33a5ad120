#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Measure the builds on recorded candles (bench-record.sh) and at start-up;
# append the results, one tab-separated row each, to work/bench/results.tsv
# (bench-report.sh makes the tables).
#   scripts/bench-measure.sh <candle|addrs|scale|floor|atfloor|startup|trace|procs>...
# BENCH_CMDS (default "report noinline script srcline"): the commands run on
# a candle; BENCH_RUNS (3): the median of that many runs is kept;
# BENCH_BUILDS (the four) and BENCH_STARTUP_BUILDS (upstream-libdw
# series-libdw): the work/build/ folders compared.
# Rows:
#   env <date> <cores> <kernel> <elfutils> <libunwind> <runs>
#   cmd <candle> <mode> <command> <build> <wall s> <user+sys s> <max RSS KiB> <max RssAnon KiB>
#   complete <candle> <mode> <build> <share of chains of <= 1 frame> <share with an [unknown] frame>
#   info <candle> <mode> <MB> <samples> <distinct sampled addresses>
#   instr <candle> <command> <build> <instructions>  (BENCH_CALLGRIND=1: of
#         every candle measured, as <candle>-<mode>, instead of the time)
#   floor <what> <s>
#   atfloor <candle> <report|script|noinline|inflate> <build> <wall s> <max RSS KiB>
#           (interleaved rounds, medians; inflate: bench/inflate.py's seconds)
#   startup <command> <build> <wall ms> <syscalls> <stat calls> <getdents64 calls>
#   trace <build> <wall s> <user+sys s> <max RSS KiB> <events lost> <lines of the program>
#   procs <command> <build> <wall ms alone> <wall ms with more processes> <syscalls> <processes>
#   warm <candle> <mode> <command> <build> <first|second|noinline> <wall s> <user+sys s> <max RSS KiB> <max RssAnon KiB>
set -uo pipefail
. "$(dirname "$0")/bench-lib.sh"
CMDS=(${BENCH_CMDS:-report noinline script srcline})
TMO=${BENCH_TIMEOUT:-900}

args_of() {	# command data
	local r=(report -i "$2" -q --stdio -g none --children --percent-limit 5)
	case $1 in
	report)   echo "${r[@]}" ;;
	noinline) echo "${r[@]}" --no-inline ;;
	script)   echo script -i "$2" ;;
	scriptnoinline) echo script -i "$2" --no-inline ;;
	srcline)  echo report -i "$2" -q --stdio --sort srcline --percent-limit 5 ;;
	esac
}

# time_cmd <build> <command> <data> -> "wall user+sys maxrss_kib rssanon_kib",
# the run of median wall time of RUNS (bench/memtime.py: max RSS and the
# largest RssAnon); the output of the last run in $OUT/<build>.<command>.out.
# A run the timeout kills counts as the timeout (a lower bound) and is not
# repeated.
time_cmd() {
	local b=$1 cmd=$2 data=$3 tf rc r
	tf=$(mktemp "$OUT/time.XXXXXX")
	for r in $(seq 1 "$RUNS"); do
		echo "$TMO 0 0 0 0" >"$tf"
		# shellcheck disable=SC2046
		PERF_CONFIG=$(conf_of "$b") timeout "$TMO" "$TOP/bench/memtime.py" "$tf" \
			"$BUILD/$b/perf" $(args_of "$cmd" "$data") \
			>"$OUT/$b.$cmd.out" 2>"$OUT/$b.$cmd.err"
		rc=$?
		awk -v rc=$rc -v t="$TMO" '{
			if (rc == 124) $1 = t; printf "%.3f %.3f %d %d\n", $1, $2 + $3, $4, $5 }' "$tf"
		[ $rc = 124 ] && break
	done | sort -n -k1 | awk '{ l[NR] = $0 } END { print l[int((NR + 1) / 2)] }'
	rm -f "$tf"
}

samples() { "$REC" report -i "$1" --stats 2>/dev/null | awk '/SAMPLE events:/ && !n++ { print $3 }'; }
addresses() { "$REC" script -i "$1" -F ip --hide-call-graph 2>/dev/null | sort -u | wc -l; }

candle() {	# name
	local c=$1 m data b cmd w u r
	for m in $(candle_modes "$c"); do
		data=$(data_of "$c" "$m")
		[ -s "$data" ] || { echo "bench: no $data (bench-record.sh $c)" >&2; continue; }
		row info "$c" "$m" "$(du -m "$data" | cut -f1)" "$(samples "$data")" "$(addresses "$data")"
		for cmd in "${CMDS[@]}"; do
			for b in "${BUILDS[@]}"; do
				[ -x "$BUILD/$b/perf" ] || continue
				if [ -n "${BENCH_CALLGRIND:-}" ]; then
					row instr "$c-$m" "$cmd" "$b" "$(callgrind "$b" "$cmd" "$data")"
					continue
				fi
				read -r w u r a < <(time_cmd "$b" "$cmd" "$data")
				row cmd "$c" "$m" "$cmd" "$b" "$w" "$u" "$r" "$a"
				[ "$cmd" = script ] || continue
				row complete "$c" "$m" "$b" $(python3 "$TOP/tests/chaincmp.py" stats \
					"$OUT/$b.script.out" | python3 -c 'import json, sys
d = json.load(sys.stdin); print(d["shallow_share"], d["unknown_share"])')
			done
		done
	done
}

callgrind() {	# build command data -> instructions
	# shellcheck disable=SC2046
	PERF_CONFIG=$(conf_of "$1") valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		"$BUILD/$1/perf" $(args_of "$2" "$3") 2>&1 >/dev/null | awk '/Collected/ { print $NF }'
}

# Instructions of the series' report with and without inline frames
# (callgrind: wall time above the floor is tenths of a second here).
instr() {	# candle
	local data cmd n
	command -v valgrind >/dev/null || return 0
	data=$(data_of "$1" fp)
	for cmd in report noinline; do
		row instr "$1" "$cmd" series-libdw "$(callgrind series-libdw "$cmd" "$data")"
	done
}

# The floors of the big-DWARF reports with inline frames: one decompression
# of the hot library's debug file (crushtool's libceph-common.so.2; the jvm
# candle's libjvm.so).
floor() {
	local lib dbg r what
	for lib in /usr/lib/x86_64-linux-gnu/ceph/libceph-common.so.2 \
		   /usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so; do
		dbg=$(readelf -n "$lib" 2>/dev/null |
			awk '/Build ID/ { print substr($3, 1, 2) "/" substr($3, 3) }')
		dbg=/usr/lib/debug/.build-id/$dbg.debug
		[ -s "$dbg" ] || continue
		what=$(basename "$lib")
		for r in $(seq 1 "$RUNS"); do
			/usr/bin/time -f "%e" -o "$OUT/t.$$" objcopy --decompress-debug-sections "$dbg" "$OUT/dec.$$"
			row floor "$what: objcopy --decompress-debug-sections" "$(cat "$OUT/t.$$")"
			rm -f "$OUT/dec.$$"
			row floor "$what: zlib inflate (bench/inflate.py)" "$(python3 "$TOP/bench/inflate.py" "$dbg" |
				grep -oE '[0-9.]+ s' | head -1 | cut -d' ' -f1)"
		done
	done
	rm -f "$OUT/t.$$"
}

# A big-DWARF candle against its floor in one loop: RUNS rounds of the
# series' report, script and --no-inline report and the inflation of the
# hot library's debug file, one after the other, so that all four see the
# machine as it is in that round (wall time here drifts by 10-30% in a
# minute); medians. Issue 18's ratios come from these.
atfloor() {
	local c lib dbg data b=${BENCH_NEW:-series-libdw} r cmd
	for c in bigdwarf:/usr/lib/x86_64-linux-gnu/ceph/libceph-common.so.2 \
		 jvm:/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so; do
		lib=${c#*:}; c=${c%%:*}; data=$(data_of "$c" fp)
		dbg=$(readelf -n "$lib" 2>/dev/null |
			awk '/Build ID/ { print substr($3, 1, 2) "/" substr($3, 3) }')
		dbg=/usr/lib/debug/.build-id/$dbg.debug
		if [ ! -s "$data" ] || [ ! -s "$dbg" ] || [ ! -x "$BUILD/$b/perf" ]; then
			continue
		fi
		for r in $(seq 1 "$RUNS"); do
			for cmd in report script noinline; do
				# shellcheck disable=SC2046
				PERF_CONFIG=$(conf_of "$b") /usr/bin/time -f "%e %M" -o "$OUT/t.$$" \
					"$BUILD/$b/perf" $(args_of "$cmd" "$data") >/dev/null 2>&1
				echo "$cmd $(cat "$OUT/t.$$")"
			done
			echo "inflate $(python3 "$TOP/bench/inflate.py" "$dbg" | grep -oE '^[0-9.]+') 0"
		done | sort -k1,1 -k2n | awk -v n="$RUNS" '{ i[$1]++ }
			i[$1] == int((n + 1) / 2) { print $1, $2, $3 }' |
			while read -r cmd w m; do row atfloor "$c" "$cmd" "$b" "$w" "$m"; done
	done
	rm -f "$OUT/t.$$"
}

# Later runs on the same recording (the build-id cache's warm path): for
# each candle of BENCH_WARM (default "jvm") and mode of BENCH_WARM_MODES
# (default fp), the commands of
# BENCH_WARM_CMDS (default "report srcline script"), RUNS interleaved rounds of: a build-id cache with an entry for
# each dso with samples, as perf record makes them; the first run, which
# may keep what it found in it; the second run. The report and script
# commands with --no-inline too, in each round.
#   warm <candle> <mode> <command> <build> <first|second|noinline> <wall s> <user+sys s> <max RSS KiB> <max RssAnon KiB>
warm_once() {	# config build command data -> "wall user+sys maxrss rssanon"
	local tf
	tf=$(mktemp "$OUT/time.XXXXXX")
	echo "$TMO 0 0 0 0" >"$tf"
	# shellcheck disable=SC2046
	PERF_CONFIG=$1 timeout "$TMO" "$TOP/bench/memtime.py" "$tf" "$BUILD/$2/perf" \
		$(args_of "$3" "$4") >"$OUT/$2.$3.warm.out" 2>/dev/null
	awk '{ printf "%.3f %.3f %d %d\n", $1, $2 + $3, $4, $5 }' "$tf"
	rm -f "$tf"
}
warm() {
	local c m data conf cache b cmd r f
	for c in ${BENCH_WARM:-jvm}; do
	for m in ${BENCH_WARM_MODES:-fp}; do
		data=$(data_of "$c" "$m")
		[ -s "$data" ] || { echo "bench: no $data (bench-record.sh $c)" >&2; continue; }
		for b in ${BENCH_WARM_BUILDS:-upstream-libdw series-libdw}; do
			[ -x "$BUILD/$b/perf" ] || continue
			conf=$(perf_config "$OUT/perfconfig-warm")
			cache=$conf.debug
			for cmd in ${BENCH_WARM_CMDS:-report srcline script}; do
				for r in $(seq 1 "$RUNS"); do
					rm -rf "$cache"
					"$REC" buildid-list -i "$data" --with-hits 2>/dev/null |
						awk '$2 ~ /^\// { print $2 }' | while read -r f; do
						[ -f "$f" ] && "$REC" --buildid-dir "$cache" buildid-cache -a "$f" 2>/dev/null
					done
					echo "first $(warm_once "$conf" "$b" "$cmd" "$data")"
					echo "second $(warm_once "$conf" "$b" "$cmd" "$data")"
					case $cmd in
					report) echo "noinline $(warm_once "$conf" "$b" noinline "$data")" ;;
					script) echo "noinline $(warm_once "$conf" "$b" scriptnoinline "$data")" ;;
					esac
				done | sort -k1,1 -k2n | awk -v n="$RUNS" '{ i[$1]++ }
					i[$1] == int((n + 1) / 2) { print }' |
					while read -r ph w u x a; do row warm "$c" "$m" "$cmd" "$b" "$ph" "$w" "$u" "$x" "$a"; done
			done
			rm -rf "$cache"
		done
	done
	done
}

wall_ms() {	# command... -> median wall ms of RUNS
	local r
	for r in $(seq 1 "$RUNS"); do
		/usr/bin/time -f "%e" -o "$OUT/t.$$" "$@" >/dev/null 2>&1; cat "$OUT/t.$$"
	done | sort -n | awk -v n="$RUNS" 'NR == int((n + 1) / 2) { print $1 * 1000 }'
	rm -f "$OUT/t.$$"
}
syscalls() {	# command... -> "total stat-family getdents64"
	strace -f -c -o "$OUT/strace.$$" "$@" >/dev/null 2>&1
	awk '/total$/ { t = $(NF - 2) } $NF ~ /^(newfstatat|fstat|stat|lstat|statx)$/ { s += $4 }
	     $NF == "getdents64" { g = $4 } END { print t + 0, s + 0, g + 0 }' "$OUT/strace.$$"
	rm -f "$OUT/strace.$$"
}

STARTUP=("record -o /dev/null -e cpu-clock -- true" "stat -e task-clock -- true")
# perf trace needs tracefs (mount -t tracefs nodev /sys/kernel/tracing).
[ -d /sys/kernel/tracing/events/syscalls ] && STARTUP+=("trace -o /dev/null -- true")
startup() {
	local b c
	for b in ${BENCH_STARTUP_BUILDS:-upstream-libdw series-libdw}; do
		for c in "${STARTUP[@]}"; do
			# shellcheck disable=SC2086
			row startup "perf ${c%% --*}" "$b" "$(wall_ms "$BUILD/$b/perf" $c)" \
				$(syscalls "$BUILD/$b/perf" $c)
		done
	done
}

# perf trace -a of a program that starts threads: each new thread's
# set_robust_list and rseq carry a struct that perf trace prints with BTF.
trace() {
	local n=${BENCH_THREADS:-1000} prog=$CANDLES/threads b r
	[ -d /sys/kernel/tracing/events/syscalls ] || return 0
	cc -O2 -pthread -o "$prog" "$TOP/bench/threads.c" || return 0
	for b in ${BENCH_STARTUP_BUILDS:-upstream-libdw series-libdw}; do
		for r in $(seq 1 "$RUNS"); do
			/usr/bin/time -f "%e %U %S %M" -o "$OUT/t.$$" "$BUILD/$b/perf" trace -a \
				-o "$OUT/trace.$$" -- "$prog" "$n" >/dev/null 2>&1
			echo "$(cat "$OUT/t.$$") $(grep -o 'LOST [0-9]*' "$OUT/trace.$$" |
				awk '{ s += $2 } END { print s + 0 }') $(grep -c ' threads/' "$OUT/trace.$$")"
		done | sort -n | awk -v n="$RUNS" 'NR == int((n + 1) / 2) { print $1, $2 + $3, $4, $5, $6 }' |
			{ read -r w u m l p; row trace "$b" "$w" "$u" "$m" "$l" "$p"; }
	done
	rm -f "$OUT/t.$$" "$OUT/trace.$$"
}

# Start-up with many processes on the machine: v7.3-rc7 scans the fds of
# every process (DRM PMUs) for the PMU mappings header.
procs() {
	local n=${BENCH_PROCS:-2000} pids=() b c i
	local cmds=("record -o /dev/null -e cpu-clock -- true" "list"
		    "stat -a --per-thread -e task-clock -o /dev/null -- true")
	declare -A W0
	for b in ${BENCH_STARTUP_BUILDS:-upstream-libdw series-libdw}; do
		# shellcheck disable=SC2086
		for c in "${cmds[@]}"; do W0[$b $c]=$(wall_ms "$BUILD/$b/perf" $c); done
	done
	for i in $(seq 1 "$n"); do
		sleep 3600 </dev/null >/dev/null 2>&1 3</dev/null &
		pids+=($!)
	done
	sleep 2
	for c in "${cmds[@]}"; do
		for b in ${BENCH_STARTUP_BUILDS:-upstream-libdw series-libdw}; do
			# shellcheck disable=SC2086
			row procs "perf ${c%% -o /dev/null*}" "$b" "${W0[$b $c]}" \
				"$(wall_ms "$BUILD/$b/perf" $c)" \
				"$(syscalls "$BUILD/$b/perf" $c | cut -d' ' -f1)" "$n"
		done
	done
	kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null
}

row env "$(date -u +%Y-%m-%d)" "$(nproc)" "$(uname -r)" \
	"$(dpkg-query -W -f='${Version}' libdw1 2>/dev/null)" \
	"$(dpkg-query -W -f='${Version}' libunwind8 2>/dev/null)" "$RUNS"
for w in "$@"; do
	case $w in
	addrs)	candle addrs100; candle addrs3000; instr addrs100; instr addrs3000 ;;
	scale)	CMDS=(noinline script) candle quarter ;;
	floor|atfloor|startup|trace|procs|warm) $w ;;
	*)	candle "$w" ;;
	esac
done
