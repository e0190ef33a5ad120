#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Apply the topic series of patches/ with git am on the base, folder by
# folder in order, on branch series-applied (APPLY_BRANCH). The tree is
# left on that branch, ready for scripts/build.sh series.
#   APPLY_DIR=<dir>  apply in a fresh worktree there instead (the tree
#                    you hack in is left alone).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
T=${APPLY_DIR:-$BASE}
if [ "$T" != "$BASE" ]; then
	git -C "$BASE" worktree remove -f "$T" 2>/dev/null || rm -rf "$T"
	git -C "$BASE" worktree prune
	git -C "$BASE" worktree add -q -f --detach "$T" "$BASE_REF" 2>/dev/null
fi
cd "$T"
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	echo "apply: $T has uncommitted changes; commit or stash them first" >&2
	exit 1
fi
git am --abort >/dev/null 2>&1 || true
git checkout -q -f -B "${APPLY_BRANCH:-series-applied}" "$BASE_REF"
n=0 s=0
log=$(mktemp)
for dir in "$TOP"/patches/[0-9][0-9]-*/; do
	for p in "$dir"[0-9][0-9][0-9][0-9]-*.patch; do
		case $p in */0000-cover-letter.patch) continue ;; esac
		if ! git -c user.name=apply -c user.email=apply@invalid am -q --keep-cr "$p" >"$log" 2>&1; then
			echo "apply: $(basename "$dir")/$(basename "$p") does NOT apply:" >&2
			cat "$log" >&2; rm -f "$log"
			git am --abort >/dev/null 2>&1 || true
			exit 1
		fi
		n=$((n + 1))
	done
	s=$((s + 1))
done
rm -f "$log"
# The branch scripts/export.sh exports, made once from patches/ (on a new
# machine, say): hack there, export, apply again.
[ -n "${APPLY_BRANCH:-}" ] || git rev-parse -q --verify "$SERIES_BRANCH" >/dev/null ||
	git branch "$SERIES_BRANCH"
echo "apply: $n patches of $s series applied on $BASE_REF in $T (branch ${APPLY_BRANCH:-series-applied})"
