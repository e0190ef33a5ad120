#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# How long perf top's processing thread stops taking samples, v7.3-rc7 and
# the series side by side.  The load: short-lived processes of the C++
# program with inline frames (as scripts/tsan-top.sh) and ceph's crushtool,
# whose libceph-common.so.2 has 275 MB of separate, compressed DWARF
# (librados2-dbg): the first source line or inline frame of that library
# opens and inflates its debug file.  perf top runs with --call-graph dwarf
# --sort sym,srcline (the processing thread unwinds and resolves inline
# frames, the display thread the srcline sort key).  A uprobe on
# hist_entry_iter__add(), which the processing thread calls for each sample,
# timestamps its work; the longest gap between two calls is its longest
# stall (the load keeps samples coming: 2 CPUs at 499 Hz), the longest
# futex wait of that thread the longest it waited for a lock (or for the
# reading thread to hand over a queue: up to its 100 ms poll).  perf top's own
# header gives the samples lost (ring buffer) and dropped (processing more
# than the refresh delay behind).
#   scripts/top-stall.sh [seconds per run (30)] [runs per build (2)]
# Builds: STALL_BUILDS (default: upstream-libdw series-libdw, of
# work/build/); the uprobes are set in tracefs, at the function's file
# offset (no debug info needed).
set -uo pipefail
. "$(dirname "$0")/bench-lib.sh"
SECS=${1:-30} RUNS_T=${2:-2}
D=$WORK/top-stall/$(date +%Y%m%d-%H%M%S)
mkdir -p "$D"
command -v crushtool >/dev/null && dpkg-query -W librados2-dbg >/dev/null 2>&1 ||
	{ echo "top-stall: needs crushtool and librados2-dbg (scripts/install-deps.sh)" >&2; exit 1; }
"$TOP/scripts/bench-record.sh" cxx >/dev/null 2>&1
[ -x "$CANDLES/cxx" ] || { echo "top-stall: no $CANDLES/cxx" >&2; exit 1; }
[ -s "$CANDLES/crushmap" ] ||
	crushtool --build --num_osds 2000 host straw2 10 rack straw2 10 root straw2 0 \
		-o "$CANDLES/crushmap" >/dev/null

load() {	# until killed
	while :; do "$CANDLES/cxx" 0.3 & "$CANDLES/cxx" 0.2; wait; done &
	while :; do
		crushtool -i "$CANDLES/crushmap" --test --num-rep 3 --min-x 0 \
			--max-x 20000 --show-statistics >/dev/null 2>&1
	done &
	wait
}

UPROBES=/sys/kernel/tracing/uprobe_events
[ -w "$UPROBES" ] || { echo "top-stall: no $UPROBES (tracefs, root)" >&2; exit 1; }
file_off() {	# binary symbol: the file offset of the symbol's code
	local a
	a=$(nm "$1" | awk -v s="$2" '$3 == s { print $1; exit }')
	[ -n "$a" ] || return 1
	readelf -lW "$1" | awk -v a=$((16#$a)) '$1 == "LOAD" {
		o = strtonum($2); v = strtonum($3); n = strtonum($5)
		if (a >= v && a < v + n) { printf "0x%x\n", a - v + o; exit } }'
}
BUILDS_S=(${STALL_BUILDS:-upstream-libdw series-libdw})
echo "| build | run | samples taken | longest stall (s) | stalls > 1 s | longest lock wait (s) | lost | dropped |"
echo "|---|---|---|---|---|---|---|---|"
for r in $(seq 1 "$RUNS_T"); do
	for b in "${BUILDS_S[@]}"; do
		bin=$BUILD/$b/perf ev=stall_${b//-/_} log=$D/$b-$r
		[ -x "$bin" ] || { echo "top-stall: no $bin" >&2; exit 1; }
		off=$(file_off "$bin" hist_entry_iter__add) || { echo "top-stall: no symbol in $bin" >&2; exit 1; }
		echo "-:stall/$ev" >>"$UPROBES" 2>/dev/null
		echo "p:stall/$ev $bin:$off" >>"$UPROBES" || exit 1
		setsid bash -c "$(declare -f load); load" >/dev/null 2>&1 & lp=$!
		sleep 1
		"$REC" record -q -e "stall:$ev" -e syscalls:sys_enter_futex \
			-e syscalls:sys_exit_futex -a -o "$log.probe" -- sleep $((SECS + 2)) \
			>/dev/null 2>&1 & rp=$!
		PERF_CONFIG=$(conf_of "$b") timeout -s INT "$SECS" "$bin" top --stdio \
			-e cpu-clock -F 499 --call-graph dwarf --sort sym,srcline -d 2 \
			>"$log.top" 2>&1
		wait "$rp"
		kill -- -"$lp" 2>/dev/null; wait "$lp" 2>/dev/null
		pkill -f "$CANDLES/cxx" 2>/dev/null; pkill -x crushtool 2>/dev/null
		echo "-:stall/$ev" >>"$UPROBES"
		# the processing thread: the tid with the most calls
		"$REC" script -i "$log.probe" -F tid,time,event 2>/dev/null | tr -d ':' | awk '
			$3 ~ /^stall/ { n[$1]++; t[$1, n[$1]] = $2; next }
			$3 ~ /enter_futex/ { in_f[$1] = $2; next }
			$3 ~ /exit_futex/ && ($1 in in_f) {
				w = $2 - in_f[$1]; delete in_f[$1]
				if (w > fw[$1]) fw[$1] = w
			}
			END {
				for (k in n) if (n[k] > best) { best = n[k]; tid = k }
				for (i = 2; i <= best; i++) {
					g = t[tid, i] - t[tid, i - 1]
					if (g > max) max = g
					if (g > 1) big++
				}
				printf "%d\t%.2f\t%d\t%.2f\n", best, max, big, fw[tid]
			}' >"$log.gaps"
		read -r n max big fw <"$log.gaps"
		hdr=$(grep -a 'lost:' "$log.top" | tail -1)
		lost=$(sed -n 's/.*lost: [0-9]*\/\([0-9]*\).*/\1/p' <<<"$hdr")
		drop=$(sed -n 's/.*drop: [0-9]*\/\([0-9]*\).*/\1/p' <<<"$hdr")
		echo "| $b | $r | ${n:-0} | ${max:-?} | ${big:-?} | ${fw:-?} | ${lost:-?} | ${drop:-?} |"
	done
done
