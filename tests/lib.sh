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

# The perf tests to run (tests/series-perf-tests.txt: perf's own that cover
# unwinding and symbolization, and those the series adds).
perf_tests() { grep -v '^#' "$TOP/tests/series-perf-tests.txt" | sed '/^$/d'; }

# perf_test_result <output of perf test [-v] NAME> -> pass|fail|skip
# from perf test's result lines " N[.M]: name : Ok|FAILED!|Skip (why)"; a
# suite with subtests prints one a subtest.  No result line is a failure.
perf_test_result() {
	local res
	res=$(echo "$1" | sed -nE 's/^ *[0-9]+(\.[0-9]+)?: .* : (Ok|FAILED!|Skip).*$/\2/p')
	if [ -z "$res" ] || echo "$res" | grep -q 'FAILED!'; then echo fail
	elif echo "$res" | grep -q '^Ok$'; then echo pass
	else echo skip; fi
}

# perf_test_failure <output>: what to print of a failed perf test: the
# lines of its shell test that name a failing step, then its last lines.
perf_test_failure() {
	echo "$1" | grep -E '\[Fail|[Ff]ailed[: ]|not ok|Error' | grep -v 'schedstat' | head -10
	echo "$1" | grep -v 'schedstat' | tail -15
}

# perf_test_skip_reason <output>: the "(why)" of perf test's Skip lines
perf_test_skip_reason() {
	local why
	why=$(echo "$1" | sed -nE 's/^ *[0-9]+(\.[0-9]+)?: .* : Skip *(.*)$/\2/p' | sort -u | paste -sd' ')
	# a shell test says why on a line of its own
	case $why in ''|'()') why=$(echo "$1" | sed -n 's/^Skip: //p' | sort -u | paste -sd' ') ;; esac
	echo "$why"
}


# CI's time budget: .ci/run sets CI_DEADLINE (seconds since the epoch) so
# that its totals line comes inside CI's time limit on a slow machine; the
# tests skip what would start after it, saying so.  Unset: no budget.
past_deadline() { [ -n "${CI_DEADLINE:-}" ] && [ "$(date +%s)" -ge "$CI_DEADLINE" ]; }
