#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the project's tests (tests/t-*.sh, KTAP each) and print the totals
# as the last line: "N passed, N failed, N skipped" (an expected failure,
# XFAIL, counts as passed; an unexpected pass, XPASS, or an error as failed).
#   tests/run.sh [t-name ...]
cd "$(dirname "$0")"
pass=0 fail=0 skip=0
tests=("$@"); [ ${#tests[@]} -eq 0 ] && tests=(t-*.sh)
log=$(mktemp /tmp/perftest-run.XXXXXX)
for t in "${tests[@]}"; do
	t=${t%.sh}.sh
	echo "# ---- $t"
	bash "./$t" 2>&1 | tee "$log"
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
