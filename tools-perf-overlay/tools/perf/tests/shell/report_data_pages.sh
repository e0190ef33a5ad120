#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf report gives back the pages of the events it has delivered (exclusive)

# perf report maps perf.data and reads it from start to end. The pages of
# the events already delivered are given back at the end of each round, so
# that the peak RSS does not grow with the size of the file. Two recordings
# of one workload, the second with ten times the samples: the peak RSS of
# perf report must grow by much less than the file does.

set -e

tmpdir=$(mktemp -d /tmp/perf-test-report-data-pages.XXXXXX)

cleanup()
{
	trap - EXIT TERM INT
	rm -rf "$tmpdir"
}

trap cleanup EXIT TERM INT

if ! command -v python3 > /dev/null; then
	echo "Skip: no python3 to read the peak RSS"
	exit 2
fi

# perf's peak RSS in KiB (getrusage() of the child), its output discarded.
maxrss()
{
	python3 -c '
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
if r.returncode:
	sys.exit(1)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}

# 8 KiB user stacks, a sample every 500 and every 50 us of a one-second loop.
for n in small:500000 big:50000; do
	if ! perf record -q -e task-clock:u -c "${n#*:}" --call-graph dwarf,8192 \
		-o "$tmpdir/${n%%:*}.data" -- perf test -w noploop 1 2> /dev/null
	then
		echo "Skip: failed to record task-clock:u (about 100 MB in /tmp)"
		exit 2
	fi
done

small_kb=$(( $(stat -c %s "$tmpdir/small.data") / 1024 ))
big_kb=$(( $(stat -c %s "$tmpdir/big.data") / 1024 ))
if [ $((big_kb - small_kb)) -lt 16384 ]; then
	echo "Skip: the recordings differ by less than 16 MiB (${small_kb} and ${big_kb} KiB)"
	exit 2
fi

report=(perf report --stdio --no-children -g none --percent-limit 5 --no-inline)
if ! rss_small=$(maxrss "${report[@]}" -i "$tmpdir/small.data") ||
   ! rss_big=$(maxrss "${report[@]}" -i "$tmpdir/big.data"); then
	echo "Error: perf report failed" >&2
	exit 1
fi
echo "perf.data ${small_kb} -> ${big_kb} KiB, perf report peak RSS ${rss_small} -> ${rss_big} KiB"

if [ $((rss_big - rss_small)) -ge $(((big_kb - small_kb) / 2)) ]; then
	echo "Error: perf report's peak RSS grows with the data it has read" >&2
	exit 1
fi
exit 0
