#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The memory of perf report's call graphs: perf report --stdio (graph call
# chains, --children) of the jvm (-g) and cxx (dwarf) candles, with and
# without inline frames, by each build, BENCH_RUNS (5) interleaved rounds;
# buildid.srclines off so that every run reads the DWARF. Prints the median
# wall s, user+sys s, max RSS and max RssAnon (MiB) per build and report,
# and the md5 of each output (the same for every build, or the builds
# differ in what they print).
#   scripts/bench-graph.sh BUILD...	(default: series-libdw)
set -uo pipefail
. "$(dirname "$0")/bench-lib.sh"
RUNS=${BENCH_RUNS:-5}
[ $# -gt 0 ] || set -- series-libdw
W=$OUT/graph
rm -rf "$W"; mkdir -p "$W"
printf '[buildid]\n\tsrclines = false\n\tuncompressed-debug = 0\n' > "$W/perfconfig"
for b in "$@"; do
	[ -x "$BUILD/$b/perf" ] || { echo "no $BUILD/$b/perf" >&2; exit 2; }
done
for d in jvm-fp cxx-dwarf; do
	[ -s "$CANDLES/$d.data" ] || { echo "no $CANDLES/$d.data (scripts/bench-record.sh)" >&2; exit 2; }
done
for _ in $(seq "$RUNS"); do
	for b in "$@"; do
		for d in jvm-fp cxx-dwarf; do
			for opt in "" --no-inline; do
				# shellcheck disable=SC2086
				PERF_CONFIG=$W/perfconfig python3 "$TOP/bench/memtime.py" "$W/t" \
					"$BUILD/$b/perf" report -i "$CANDLES/$d.data" --stdio $opt \
					> "$W/out" 2>/dev/null
				echo "$b $d${opt:+ $opt} $(cat "$W/t") $(md5sum < "$W/out" | cut -c1-8)"
			done
		done
	done
done > "$W/runs"
python3 - "$W/runs" <<'EOF'
import collections, statistics, sys
runs = collections.OrderedDict()
for line in open(sys.argv[1]):
    f = line.split()
    key = (f[0], " ".join(f[1:-6]))
    runs.setdefault(key, []).append(f[-6:])
print("%-24s %-24s %6s %6s %6s %7s  %s" % ("build", "report", "wall", "u+s", "RSS", "RssAnon", "md5"))
for (b, what), v in runs.items():
    med = lambda i, scale=1: statistics.median(float(x[i]) * scale for x in v)
    us = statistics.median(float(x[1]) + float(x[2]) for x in v)
    md5 = ",".join(sorted(set(x[5] for x in v)))
    print("%-24s %-24s %6.2f %6.2f %6.0f %7.0f  %s" % (b, what, med(0), us, med(3, 1 / 1024),
                                                    med(4, 1 / 1024), md5))
EOF
