#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# get_maintainer.pl for the series, saved in MAINTAINERS-notes/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$BASE"
perl scripts/get_maintainer.pl --no-tree --no-git --no-git-fallback \
	"$TOP"/patches/[0-9][0-9][0-9][0-9]-*.patch 2>/dev/null |
	grep -v '^fatal\|^Use\|^.git' >"$TOP/MAINTAINERS-notes/get_maintainer.txt"
cat "$TOP/MAINTAINERS-notes/get_maintainer.txt"
