# SPDX-License-Identifier: GPL-2.0
# Common part of the project's tests: KTAP through the base tree's
# kselftest helpers, and the paths of the builds.
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
KTAP=$BASE/tools/testing/selftests/kselftest/ktap_helpers.sh
[ -f "$KTAP" ] || KTAP=$UPSTREAM/tools/testing/selftests/kselftest/ktap_helpers.sh
. "$KTAP"
perf_bin() { echo "$BUILD/$1-$2/perf"; }	# tree config
src_of() { case $1 in series) echo "$BASE" ;; upstream) echo "$UPSTREAM" ;; esac; }
TMPD=$(mktemp -d /tmp/perftest.XXXXXX)
trap 'rm -rf "$TMPD"' EXIT

# perf's own tests that cover unwinding and symbolization (names as perf test
# lists them), with those the series adds (tests/series-perf-tests.txt).
perf_tests() {
	printf '%s\n' "Symbols" "Test dwarf unwind" "test addr2line inline unwinding" \
		"Test libdw unwinding of multi-threaded processes" \
		"perf inject to convert DWARF callchains to regular ones"
	grep -v '^#' "$TOP/tests/series-perf-tests.txt" | sed '/^$/d'
}

# perf_test_result <output of perf test NAME> -> pass|fail|skip
perf_test_result() {
	if echo "$1" | grep -q "FAILED"; then echo fail
	elif echo "$1" | grep -qE ': Ok$'; then echo pass
	elif echo "$1" | grep -qE ': Skip'; then echo skip
	else echo fail; fi
}
