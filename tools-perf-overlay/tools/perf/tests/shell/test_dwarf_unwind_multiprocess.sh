#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Test libdw unwinding of many processes of one binary (exclusive)

# The ELF files of a binary and of its libraries are opened once and shared
# by the libdw unwinder of every process (address space) that maps them.
# Each process must still be unwound through to its own callers, and no
# file is opened twice.

set -e

if ! perf check feature -q libdw-dwarf-unwind; then
	echo "Skip: libdw DWARF unwinding is not available"
	exit 2
fi

tmpdir=$(mktemp -d /tmp/perf-test-dwarf-unwind-multiprocess.XXXXXX)
perf_data="$tmpdir/perf.data"
perf_script="$tmpdir/perf-script.txt"
perf_debug="$tmpdir/perf-debug.txt"
nr_procs=4

cleanup()
{
	trap - EXIT TERM INT
	rm -rf "$tmpdir"
}

trap cleanup EXIT TERM INT

if ! perf record -q -e task-clock:u -F 99 --call-graph dwarf,8192 \
	-o "$perf_data" -- sh -c "for i in \$(seq $nr_procs); do \
		perf test -w leafloop 1 & done; wait"
then
	echo "Skip: failed to record task-clock:u"
	exit 2
fi

if ! perf script -v --unwind-style=libdw -F pid,ip,sym -i "$perf_data" \
	> "$perf_script" 2> "$perf_debug"
then
	echo "Error: failed to process the recording with libdw" >&2
	exit 1
fi

# Processes with a sample in leaf() unwound through parent() to leafloop().
nr_unwound=$(
	awk '
		BEGIN { RS = "" }
		/ leaf\n[^\n]* parent\n[^\n]* leafloop\n/ { seen[$1] = 1 }
		END {
			for (pid in seen)
				n++
			print n + 0
		}
	' "$perf_script"
)

if [ "$nr_unwound" -ne "$nr_procs" ]; then
	echo "Error: expected leaf/parent/leafloop chains in $nr_procs" \
		"processes, found $nr_unwound" >&2
	exit 1
fi

# One ELF handle per file, whatever the number of processes mapping it.
nr_opened=$(grep -c '^libdw: opened ' "$perf_debug" || true)
reopened=$(grep '^libdw: opened ' "$perf_debug" | sort | uniq -d)
echo "libdw opened $nr_opened files for unwinding"
if [ "$nr_opened" -eq 0 ] || [ -n "$reopened" ]; then
	echo "Error: files opened more than once for unwinding: $reopened" >&2
	exit 1
fi

exit 0
