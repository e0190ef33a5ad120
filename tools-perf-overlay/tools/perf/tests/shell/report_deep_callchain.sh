#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# perf report --stdio graph of call chains deeper than 64 levels

# A program recurses 80 levels deep, each level spending time of its own:
# the call graph is a node per level, each with the next level as its
# first child (the heaviest: the deepest level spins longest). perf report
# --stdio draws a pipe for each level above a line; they must run down the
# whole graph without a gap, at every depth.

set -e

CC=${CC:-cc}
if ! command -v "$CC" > /dev/null; then
	echo "Skip: no C compiler"
	exit 2
fi

tmpdir=$(mktemp -d /tmp/perf-test-report-deep-callchain.XXXXXX)

cleanup()
{
	trap - EXIT TERM INT
	rm -rf "$tmpdir"
}

trap cleanup EXIT TERM INT

cat > "$tmpdir/deep.c" << _EOF
#include <time.h>

static volatile unsigned long sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) void spin(int n)
{
	for (int i = 0; i < 20000; i++)
		sink += i ^ n;
}

/*
 * Each level spins, then goes one level deeper; the last spins eight
 * times, so that below every level the deeper levels outweigh its own
 * spin and come first, and its pipe runs on to its last line.
 */
__attribute__((noinline)) void level(int n)
{
	spin(n);
	if (n > 0)
		level(n - 1);
	else
		for (int i = 0; i < 7; i++)
			spin(n);
	__asm__ volatile("" ::: "memory");	/* not a tail call */
}

int main(void)
{
	double end = now() + 0.5;

	while (now() < end)
		level(80);
	return 0;
}
_EOF

if ! "$CC" -O2 -fno-omit-frame-pointer -o "$tmpdir/deep" "$tmpdir/deep.c"; then
	echo "Skip: failed to build the workload"
	exit 2
fi

if ! perf record -q -e task-clock:u -F 999 --call-graph fp -o "$tmpdir/perf.data" \
	-- "$tmpdir/deep" 2> /dev/null
then
	echo "Skip: failed to record task-clock:u"
	exit 2
fi

perf report -i "$tmpdir/perf.data" --stdio --no-children -g graph,0,caller \
	--symbols spin > "$tmpdir/report.txt" 2> /dev/null

# The graph starts after "---"; each line has one 11-column group per
# level above it: "|" and 10 spaces, or 11 spaces once a pipe ended.
read -r depth gaps << _EOF
$(awk '
	/---/ { graph = 1 }
	graph && substr($0, 1, 16) == "               |" {
		line = substr($0, 16)
		n = 0; gap = 0; bad = 0
		while (length(line) >= 11 &&
		       (substr(line, 1, 11) == "|          " ||
			substr(line, 1, 11) == "           ")) {
			if (substr(line, 1, 1) == "|") {
				if (gap)
					bad = 1
			} else {
				gap = 1
			}
			line = substr(line, 12)
			n++
		}
		if (n > depth)
			depth = n
		if (bad)
			gaps++
	}
	END { print depth + 0, gaps + 0 }' "$tmpdir/report.txt")
_EOF

echo "graph $depth levels deep, $gaps lines with a gap in the pipes"
if [ "$depth" -le 64 ]; then
	echo "Skip: the recorded chains are not deeper than 64 levels"
	exit 2
fi
if [ "$gaps" -ne 0 ]; then
	echo "Error: the pipes of the levels above a line have gaps" >&2
	grep -m3 -- "--level" "$tmpdir/report.txt" >&2 || true
	exit 1
fi

exit 0
