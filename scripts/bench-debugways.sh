#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Max RSS and output of perf report of the jvm candle (scripts/bench-record.sh
# jvm, fp mode) for each way libjvm.so's debug file can be found: under
# /usr/lib/debug/.build-id (as openjdk-17-dbg installs it), through the
# binary's .gnu_debuglink (libjvm.debuginfo under /usr/lib/debug/<dir>), from
# a debuginfod server on 127.0.0.1 (downloaded during the run, and from the
# client's cache), from the build-id cache's debug entry, and under --symfs.
# With and without inline frames; buildid.srclines and
# buildid.uncompressed-debug off, so that every run reads the DWARF.
#   scripts/bench-debugways.sh [build]	(default series-libdw)
# Prints: way, mode, wall s, max RSS KiB, md5 of the output (the same output
# for every way but --symfs, where only libjvm.so is in the sysroot).
# Moves the installed debug file away while it runs and puts it back at exit.
set -uo pipefail
. "$(dirname "$0")/bench-lib.sh"
P=$BUILD/${1:-series-libdw}/perf
DATA=$CANDLES/jvm-fp.data
JVM=$(readlink -f /usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so)
RUNS=${BENCH_RUNS:-3}
W=$OUT/debugways
[ -s "$DATA" ] && [ -x "$P" ] || { echo "no $DATA or $P" >&2; exit 2; }
BID=$("$P" buildid-list -i "$DATA" 2>/dev/null | awk -v j="$JVM" '$2 == j { print $1 }')
HOST=/usr/lib/debug/.build-id/${BID:0:2}/${BID:2}.debug
LINK=/usr/lib/debug$(dirname "$JVM")/libjvm.debuginfo
[ -n "$BID" ] && [ -f "$HOST" ] || { echo "no debug file for $JVM" >&2; exit 2; }
command -v debuginfod >/dev/null || { echo "no debuginfod (apt-get install debuginfod)" >&2; exit 2; }
rm -rf "$W"; mkdir -p "$W/served" "$W/empty"
cp -a "$HOST" "$W/served/libjvm.debug"
mv "$HOST" "$W/host.debug"
dpid=
restore() {
	[ -e "$W/host.debug" ] && mv "$W/host.debug" "$HOST"
	rm -f "$LINK"
	[ -n "$dpid" ] && kill "$dpid" 2>/dev/null
}
trap restore EXIT
printf '[buildid]\n\tsrclines = false\n\tuncompressed-debug = 0\n' > "$W/perfconfig"
export PERF_CONFIG=$W/perfconfig

run() {	# way, perf options, report options
	local way=$1 pre=$2 post=$3 mode opt
	for mode in inline no-inline; do
		opt=; [ $mode = no-inline ] && opt=--no-inline
		for _ in $(seq "$RUNS"); do
			[ -n "${FRESH_DCACHE:-}" ] && rm -rf "$W/dcache"
			# shellcheck disable=SC2086
			/usr/bin/time -f "%e %M" -o "$W/t" "$P" $pre report -i "$DATA" --stdio \
				$post $opt > "$W/out" 2>/dev/null
			echo "$way $mode $(cat "$W/t") $(md5sum < "$W/out" | cut -c1-8)"
		done
	done
}

cp "$W/host.debug" "$HOST"
run build-id-path "--buildid-dir $W/empty" ""
rm -f "$HOST"

mkdir -p "$(dirname "$LINK")"
cp "$W/served/libjvm.debug" "$LINK"
run debuglink "--buildid-dir $W/empty" ""
rm -f "$LINK"

port=$((20000 + RANDOM % 20000))
debuginfod -d "$W/db.sqlite" -p "$port" -F "$W/served" > "$W/debuginfod.log" 2>&1 &
dpid=$!
export DEBUGINFOD_URLS=http://127.0.0.1:$port DEBUGINFOD_CACHE_PATH=$W/dcache
for _ in $(seq 120); do
	rm -rf "$W/dcache"
	debuginfod-find debuginfo "$BID" >/dev/null 2>&1 && break
	sleep 0.5
done
FRESH_DCACHE=1 run debuginfod-download "--buildid-dir $W/empty" ""
debuginfod-find debuginfo "$BID" >/dev/null
run debuginfod-cached "--buildid-dir $W/empty" ""
kill "$dpid"; dpid=
unset DEBUGINFOD_URLS DEBUGINFOD_CACHE_PATH

mkdir -p "$W/cache/.build-id/${BID:0:2}/${BID:2}"
cp "$W/served/libjvm.debug" "$W/cache/.build-id/${BID:0:2}/${BID:2}/debug"
run buildid-cache-debug "--buildid-dir $W/cache" ""

mkdir -p "$W/root$(dirname "$JVM")" "$W/root$(dirname "$HOST")"
cp "$JVM" "$W/root$JVM"
cp "$W/served/libjvm.debug" "$W/root$HOST"
run symfs "--buildid-dir $W/empty" "--symfs $W/root"
