#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf's own tests that cover unwinding and symbolization, with the series
# applied, in the libdw build and the LIBUNWIND=1 build (there also with
# unwind.style=libunwind).  Run from the source tree so that the shell
# tests are found.
. "$(dirname "$0")/lib.sh"

PERF_TESTS=(
	"Symbols"
	"Test dwarf unwind"
	"test addr2line inline unwinding"
	"Test libdw unwinding of multi-threaded processes"
	"perf inject to convert DWARF callchains to regular ones"
)
# Tests the series adds are found by their names in this file.
[ -f "$TOP/tests/series-perf-tests.txt" ] &&
	mapfile -t -O ${#PERF_TESTS[@]} PERF_TESTS < <(grep -v '^#' "$TOP/tests/series-perf-tests.txt" | sed '/^$/d')

RUNS=("libdw:" "libunwind:" "libunwind:unwind.style=libunwind")
ktap_print_header
ktap_set_plan $(( ${#PERF_TESTS[@]} * ${#RUNS[@]} ))

for run in "${RUNS[@]}"; do
	cfg=${run%%:*}; style=${run#*:}
	perf=$(perf_bin series "$cfg")
	# perf reads $HOME/.perfconfig: a home of the run's own for the style.
	home=$TMPD/home-$cfg-${style#unwind.style=}
	mkdir -p "$home"
	: >"$home/.perfconfig"
	[ -n "$style" ] && printf '[unwind]\n\tstyle = %s\n' "${style#unwind.style=}" >"$home/.perfconfig"
	for t in "${PERF_TESTS[@]}"; do
		name="series-$cfg${style:+ $style}: perf test '$t'"
		if [ ! -x "$perf" ]; then ktap_test_fail "$name (no perf binary)"; continue; fi
		out=$(cd "$BASE/tools/perf" && HOME=$home timeout 600 "$perf" test "$t" 2>&1)
		# perf test prints " N: name : Ok|FAILED!|Skip"; a test with subtests prints several.
		if echo "$out" | grep -q "FAILED"; then
			ktap_print_msg "$(echo "$out" | tail -30)"; ktap_test_fail "$name"
		elif echo "$out" | grep -qE ': Ok$'; then
			ktap_test_pass "$name"
		elif echo "$out" | grep -qE ': Skip'; then
			ktap_test_skip "$name ($(echo "$out" | grep -oE 'Skip.*' | head -1))"
		else
			ktap_print_msg "$out"; ktap_test_fail "$name (not found or no result)"
		fi
	done
done
ktap_finished
