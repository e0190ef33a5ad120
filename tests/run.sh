#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the project's tests (tests/t-*.sh, KTAP each) and print the totals
# as the last line: "N passed, N failed, N skipped" (an expected failure,
# XFAIL, counts as passed; an unexpected pass, XPASS, or an error as failed).
#   tests/run.sh [t-name ...]
# All of them by default, the quick and the user-facing ones first and
# t-bisect (the longest; it leaves the build folders at the first patch)
# last.  Each test's time is printed after it.  Past CI's time budget
# (CI_DEADLINE, set by .ci/run) a test that has not started is skipped.
cd "$(dirname "$0")"
past_deadline() { [ -n "${CI_DEADLINE:-}" ] && [ "$(date +%s)" -ge "$CI_DEADLINE" ]; }
pass=0 fail=0 skip=0
ORDER=(t-series t-perftest t-robust t-hostile t-e2e t-startup t-builds t-elfutils)
tests=("$@")
if [ ${#tests[@]} -eq 0 ]; then
	tests=("${ORDER[@]}")
	for t in t-*.sh; do	# any other, then t-bisect
		t=${t%.sh}
		case " ${ORDER[*]} t-bisect " in *" $t "*) ;; *) tests+=("$t") ;; esac
	done
	tests+=(t-bisect)
fi
log=$(mktemp /tmp/perftest-run.XXXXXX)
for t in "${tests[@]}"; do
	t=${t%.sh}.sh
	echo "# ---- $t"
	if past_deadline; then
		echo "# $t skipped: past the CI time budget"; skip=$((skip + 1)); continue
	fi
	t0=$(date +%s)
	bash "./$t" 2>&1 | tee "$log"
	echo "# $t took $(( $(date +%s) - t0 )) s"
	tot=$(grep '^# Totals:' "$log" | tail -1)
	if [ -z "$tot" ]; then
		echo "not ok - $t gave no totals"; fail=$((fail + 1)); continue
	fi
	n() { local v; v=$(echo "$tot" | sed -n "s/.* $1:\([0-9]*\).*/\1/p"); echo "${v:-0}"; }
	p=$(( $(n pass) + $(n xfail) ))
	f=$(( $(n fail) + $(n xpass) + $(n error) ))
	s=$(n skip)
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
done
rm -f "$log"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
