#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The benchmark (not a test): record the candles once (bench-record.sh),
# measure the four builds side by side in one run (bench-measure.sh), print
# the tables (bench-report.sh).  Documentation/benchmark.md says what each is.
#   scripts/bench.sh [default|all|<candle|addrs|scale|floor|startup|trace|procs>...]
# default: the C++ candle with inline frames and the clang++ candle (make).
set -uo pipefail
. "$(dirname "$0")/bench-lib.sh"
case ${1:-default} in
default) set -- cxx clang ;;
all) set -- cxx clang bigdwarf ceph cephosd jvm floor make addrs scale startup trace procs ;;
esac
rec=()
for w in "$@"; do
	case $w in
	addrs) rec+=(addrs100 addrs3000) ;;
	scale) rec+=(bigdwarf quarter) ;;
	floor|startup|trace|procs) ;;
	*) rec+=("$w") ;;
	esac
done
: >"$RESULTS"
"$TOP/scripts/bench-record.sh" "${rec[@]}"
"$TOP/scripts/bench-measure.sh" "$@"
"$TOP/scripts/bench-report.sh"
