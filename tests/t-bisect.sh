#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every patch builds at its position, in the libdw and in the LIBUNWIND=1
# configuration (incremental builds in the series' build folders, which
# end at the tip of the series).  Needs scripts/apply.sh to have run.
. "$(dirname "$0")/lib.sh"
ktap_print_header
cd "$BASE"
br=$(git rev-parse --abbrev-ref HEAD)
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	ktap_skip_all "uncommitted changes in $BASE"; ktap_print_totals; exit 0
fi
commits=($(git rev-list --reverse "$BASE_REF..HEAD"))
ktap_set_plan $(( ${#commits[@]} * 2 ))
for c in "${commits[@]}"; do
	git checkout -q --detach "$c"
	subj=$(git log -1 --format=%s "$c")
	for cfg in libdw libunwind; do
		if out=$("$TOP/scripts/build.sh" series "$cfg" 2>&1); then
			ktap_test_pass "builds ($cfg): $subj"
		else
			ktap_print_msg "$(echo "$out" | tail -15)"; ktap_test_fail "builds ($cfg): $subj"
		fi
	done
done
git checkout -q "$br"
ktap_finished
