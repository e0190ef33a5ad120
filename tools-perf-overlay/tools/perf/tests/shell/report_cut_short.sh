#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf report of a perf.data cut short in an event (exclusive)

# A perf.data cut in the middle of its data, its header saying that the
# data ends at the cut: the last event runs past the end of the file. perf
# report must report the events before it, not die of SIGBUS.

set -e

# The header is written in the host's byte order; this writes little-endian.
if [ "$(printf '\001\000' | od -An -t u2 | tr -d ' ')" != 1 ]; then
	echo "Skip: not a little-endian host"
	exit 2
fi

tmpdir=$(mktemp -d /tmp/perf-test-report-cut-short.XXXXXX)
data="$tmpdir/perf.data"
cut="$tmpdir/cut.data"

cleanup()
{
	trap - EXIT TERM INT
	rm -rf "$tmpdir"
}

trap cleanup EXIT TERM INT

# Samples of 4 KiB or more: the last one runs past the last page of the file.
if ! perf record -q -e task-clock:u --call-graph dwarf,4096 -o "$data" \
	-- perf test -w noploop 1 2>/dev/null
then
	echo "Skip: failed to record task-clock:u"
	exit 2
fi

u64_at() { od -An -t u8 -j "$1" -N 8 "$data" | tr -d ' '; }
data_offset=$(u64_at 40)
data_size=$(u64_at 48)
at=$((data_offset + data_size / 2 + 5))

# The first half of the data; the header's data size up to the cut (byte
# 48) and no features (the bitmap at bytes 72-103).
head -c "$at" "$data" > "$cut"
size=$((at - data_offset))
bytes=""
for i in 0 1 2 3 4 5 6 7; do
	bytes="$bytes$(printf '\\%03o' $(((size >> (8 * i)) & 255)))"
done
# shellcheck disable=SC2059
printf "$bytes" | dd of="$cut" bs=1 seek=48 conv=notrunc status=none
dd if=/dev/zero of="$cut" bs=1 seek=72 count=32 conv=notrunc status=none

if ! perf report -i "$cut" --stdio --no-children -g none > "$tmpdir/report.txt" \
	2> "$tmpdir/report.err"
then
	echo "Error: perf report failed on a perf.data cut short:" >&2
	tail -5 "$tmpdir/report.err" >&2
	exit 1
fi
if ! grep -q "perf.data was cut short" "$tmpdir/report.err" ||
   ! grep -q "noploop" "$tmpdir/report.txt"
then
	echo "Error: no warning, or no samples reported:" >&2
	tail -5 "$tmpdir/report.err" >&2
	exit 1
fi
exit 0
