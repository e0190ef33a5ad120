#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.pl --strict on every patch of patches/. The only accepted
# complaint is the missing Signed-off-by, which the human submitter adds.
# Prints one line per patch: "ok <patch>" or "FAIL <patch>" + the report.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
rc=0
# Fixes: tags name upstream commits. The Debian base tree has no history, so
# checkpatch cannot look them up there: skip that one check then, and only
# then (with PERF_TREE=<a kernel git tree> it runs).
EXTRA=()
if [ -z "${PERF_TREE:-}" ] && [ "$(git -C "$BASE" rev-list --count "$BASE_REF")" -le 1 ]; then
	EXTRA=(--ignore UNKNOWN_COMMIT_ID)
fi
for p in "$TOP"/patches/[0-9][0-9][0-9][0-9]-*.patch; do
	case $p in */0000-cover-letter.patch) continue ;; esac
	out=$(perl "$BASE/scripts/checkpatch.pl" --strict --no-tree --no-signoff "${EXTRA[@]}" "$p" 2>&1)
	if echo "$out" | grep -qE '^(ERROR|WARNING|CHECK):'; then
		echo "FAIL $(basename "$p")"; echo "$out" | sed 's/^/    /'
		rc=1
	else
		echo "ok $(basename "$p")"
	fi
done
exit $rc
