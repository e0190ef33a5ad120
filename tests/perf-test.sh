#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf-test.sh <perf> <name>: run, verbose, the perf test suite named exactly
# <name> (perf test NAME would run every suite whose name contains NAME).
# Run from the source tree whose tests/shell perf is to find.  Standalone:
# it also runs in the sid chroot.
perf=$1 name=$2
n=$("$perf" test list 2>&1 | awk -v n="$name" '
	{ i = index($0, ": ") }
	i && $1 !~ /\./ && substr($0, i + 2) == n { sub(":", "", $1); print $1; exit }')
if [ -z "$n" ]; then
	echo "perf test lists no suite named '$name'"
	exit 1
fi
exec "$perf" test -v "$n"
