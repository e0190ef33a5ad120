#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the project's tests (tests/t-*.sh, KTAP each) and print the totals
# as the last line: "N passed, N failed, N skipped".
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
	p=$(echo "$tot" | sed -n 's/.*Totals: pass:\([0-9]*\).*/\1/p')
	f=$(echo "$tot" | sed -n 's/.* fail:\([0-9]*\).*/\1/p')
	s=$(echo "$tot" | sed -n 's/.*skip:\([0-9]*\).*/\1/p')
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
done
rm -f "$log"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
