#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Test DWARF unwinding through a library with .eh_frame_hdr after .eh_frame

# gold (and BOLT) put the .eh_frame_hdr section header after .eh_frame's.
# libdw of elfutils before 0.196 then ignores its binary search table and
# scans .eh_frame; perf makes libdw read the table from the PT_GNU_EH_FRAME
# program header instead. Samples in such a library, built without
# .debug_frame or frame pointers, must unwind back to main(), with each
# unwinder built in.

set -e

styles=""
if perf check feature -q libdw-dwarf-unwind; then
	styles="libdw"
fi
if perf check feature -q libunwind; then
	styles="$styles libunwind"
fi
if [ -z "$styles" ]; then
	echo "Skip: no DWARF unwinder built in"
	exit 2
fi

CC=${CC:-cc}
if ! command -v "$CC" > /dev/null || ! command -v readelf > /dev/null; then
	echo "Skip: no C compiler or no readelf"
	exit 2
fi

tmpdir=$(mktemp -d /tmp/perf-test-dwarf-unwind-eh-frame-hdr.XXXXXX)
perf_data="$tmpdir/perf.data"
perf_script="$tmpdir/perf-script.txt"

cleanup()
{
	trap - EXIT TERM INT
	rm -rf "$tmpdir"
}

trap cleanup EXIT TERM INT

cat > "$tmpdir/lib.c" << _EOF
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) void inner(volatile int *x)
{
	volatile char buf[64];

	for (int i = 0; i < 100000; i++)
		buf[i % 64] = (*x)++;
}

__attribute__((noinline)) void work(double secs)
{
	volatile int x = 0;
	double end = now() + secs;

	while (now() < end)
		inner(&x);
}
_EOF

cat > "$tmpdir/main.c" << _EOF
void work(double secs);

/* Not a tail call: run() stays in the chain. */
__attribute__((noinline)) int run(void)
{
	work(0.5);
	return 1;
}

int main(void)
{
	return !run();
}
_EOF

if ! "$CC" -O2 -fomit-frame-pointer -fPIC -shared -fuse-ld=gold \
	-o "$tmpdir/libwork.so" "$tmpdir/lib.c" 2> /dev/null ||
   ! "$CC" -O2 -o "$tmpdir/main" "$tmpdir/main.c" -L"$tmpdir" -lwork \
	-Wl,-rpath,"$tmpdir"
then
	echo "Skip: failed to build the workload (no gold linker?)"
	exit 2
fi

if ! readelf -SW "$tmpdir/libwork.so" | awk '
	/\.eh_frame_hdr/ { hdr = NR }
	/\.eh_frame / { frame = NR }
	END { exit !(hdr && frame && hdr > frame) }'
then
	echo "Skip: the linker put .eh_frame_hdr before .eh_frame"
	exit 2
fi

if ! perf record -q -e task-clock:u -F 499 --call-graph dwarf,8192 \
	-o "$perf_data" -- "$tmpdir/main"
then
	echo "Skip: failed to record task-clock:u"
	exit 2
fi

for style in $styles; do
	if ! perf script -v --unwind-style="$style" -F ip,sym -i "$perf_data" \
		> "$perf_script" 2> "$tmpdir/stderr"
	then
		echo "Error: failed to process the recording with $style" >&2
		exit 1
	fi
	# Only with elfutils before 0.196.
	if [ "$style" = libdw ] &&
	   grep -q "libwork.so: .eh_frame_hdr after .eh_frame" "$tmpdir/stderr"; then
		echo "libdw: the unwinder takes .eh_frame_hdr from the program header"
	fi

	nr_samples=$(awk 'BEGIN { RS = "" } $2 == "inner" { n++ } END { print n + 0 }' \
		"$perf_script")
	nr_unwound=$(awk '
		BEGIN { RS = "" }
		$2 == "inner" && $4 == "work" && $6 == "run" && $8 == "main" { n++ }
		END { print n + 0 }' "$perf_script")
	echo "$style: $nr_unwound of $nr_samples samples in inner unwound to main"
	if [ "$nr_samples" -eq 0 ] || [ "$nr_unwound" -lt $((nr_samples * 9 / 10)) ]; then
		echo "Error: $style did not unwind through libwork.so" >&2
		exit 1
	fi
done

exit 0
