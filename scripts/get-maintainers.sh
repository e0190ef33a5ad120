#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# get_maintainer.pl for each series of patches/, saved in
# MAINTAINERS-notes/get_maintainer.txt (one section per folder).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$BASE"
out=$TOP/MAINTAINERS-notes/get_maintainer.txt
{
	echo "# scripts/get-maintainers.sh: get_maintainer.pl --no-git of each series"
	for d in "$TOP"/patches/*/; do
		echo
		echo "## $(basename "$d")"
		perl scripts/get_maintainer.pl --no-tree --no-git --no-git-fallback \
			"$d"[0-9][0-9][0-9][0-9]-*.patch 2>/dev/null | grep -v '^fatal\|^Use\|^.git' || true
	done
} >"$out"
cat "$out"
