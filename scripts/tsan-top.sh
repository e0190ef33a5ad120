#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf top's two threads under ThreadSanitizer: the processing thread
# unwinds (--call-graph dwarf) and resolves inline frames, the display
# thread resolves the srcline sort key, while short-lived processes of a
# C++ program with inline frames and debug info come and go.  Counts the
# reports with a frame in util/libdw.c, util/unwind-libdw.c,
# util/srcline.c or util/symbol.c, for v7.3-rc7 and the series, run after run.
#   scripts/tsan-top.sh [seconds per run (40)] [runs per tree (2)]
# Builds work/build/<tree>-tsan first.  Reports in work/tsan/<time>/<tree>-<run>.*
set -uo pipefail
. "$(dirname "$0")/bench-lib.sh"
SECS=${1:-40} RUNS_T=${2:-2}
D=$WORK/tsan/$(date +%Y%m%d-%H%M%S)
mkdir -p "$D"
for tree in upstream series; do
	"$TOP/scripts/build.sh" "$tree" tsan >/dev/null || exit 1
done
"$TOP/scripts/bench-record.sh" cxx >/dev/null 2>&1
[ -x "$CANDLES/cxx" ] || { echo "tsan-top: no $CANDLES/cxx" >&2; exit 1; }

load() {	# short-lived processes with inline frames, until killed
	while :; do
		"$CANDLES/cxx" 0.3 & "$CANDLES/cxx" 0.2
		wait
	done
}
echo "| tree | run | reports | with a frame in util/libdw.c, unwind-libdw.c, srcline.c or symbol.c |"
echo "|---|---|---|---|"
for r in $(seq 1 "$RUNS_T"); do
	for tree in upstream series; do
		log=$D/$tree-$r
		rm -f "$log".*
		load & lp=$!
		PERF_CONFIG=$(conf_of "$tree-libdw") TSAN_OPTIONS="log_path=$log report_signal_unsafe=0 halt_on_error=0" \
			timeout -s INT "$SECS" "$BUILD/$tree-tsan/perf" top --stdio -e cpu-clock -F 499 \
			--call-graph dwarf --sort sym,srcline -d 2 >/dev/null 2>&1
		kill "$lp" 2>/dev/null; wait "$lp" 2>/dev/null
		pkill -f "$CANDLES/cxx" 2>/dev/null
		cat "$log".* 2>/dev/null >"$log.all"
		n=$(grep -c '^WARNING: ThreadSanitizer' "$log.all")
		# one report: from its WARNING line to the next "===" line
		ours=$(awk '/^WARNING: ThreadSanitizer/ { in_r = 1; hit = 0 }
			in_r && /util\/(libdw|unwind-libdw|srcline|symbol)\.c/ { hit = 1 }
			/^=+$/ && in_r { if (hit) n++; in_r = 0 } END { print n + 0 }' "$log.all")
		echo "| $tree | $r | $n | $ours |"
	done
done
