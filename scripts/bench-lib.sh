# SPDX-License-Identifier: GPL-2.0
# Common part of the benchmark's three verbs (bench-record.sh,
# bench-measure.sh, bench-report.sh).  Source it.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
CANDLES=$WORK/candles			# recordings and their programs, kept
OUT=$WORK/bench				# outputs of one run
RESULTS=${BENCH_RESULTS:-$OUT/results.tsv}	# what bench-measure.sh measured
RUNS=${BENCH_RUNS:-3}			# runs per command, the median counts
REC=$BUILD/upstream-libdw/perf		# recording is not changed by the series
BUILDS=(${BENCH_BUILDS:-upstream-libdw series-libdw upstream-libunwind series-libunwind})
mkdir -p "$CANDLES" "$OUT"

# The libunwind builds run with unwind.style=libunwind (libdw would go
# first): a perf config file (PERF_CONFIG) per style.
conf_of() {
	case $1 in
	*libunwind) perf_config "$OUT/perfconfig-libunwind" libunwind ;;
	*) perf_config "$OUT/perfconfig-default" ;;
	esac
}

# The candles: name -> modes recorded (BENCH_MODES: only these of them)
candle_modes() {
	if [ -n "${BENCH_MODES:-}" ]; then
		case $1 in addrs*) echo fp ;; quarter) echo dwarf ;; *) echo "$BENCH_MODES" ;; esac
		return
	fi
	case $1 in
	addrs100|addrs3000) echo fp ;;
	quarter) echo dwarf ;;
	*) echo fp dwarf ;;
	esac
}
data_of() { echo "$CANDLES/$1-$2.data"; }	# candle mode

# row <field>...: one line of results, tab-separated
row() { local IFS=$'\t'; echo "$*" >>"$RESULTS"; }
