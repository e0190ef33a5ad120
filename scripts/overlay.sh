#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Write every file the series adds or changes, as it reads after the whole
# series, under <outdir>/<path in the kernel tree>; removed files are listed
# in <outdir>/DELETED.
#   scripts/overlay.sh <commit-ish after the series> <outdir>
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rev=${1:?rev}; out=${2:?outdir}
rm -rf "$out"; mkdir -p "$out"
cd "$BASE"
git diff --no-renames --name-status "$BASE_REF" "$rev" | while read -r st path; do
	case $st in
	D) echo "$path" >>"$out/DELETED" ;;
	*) mkdir -p "$out/$(dirname "$path")"
	   git show "$rev:$path" >"$out/$path"
	   [ "$(git ls-tree "$rev" -- "$path" | cut -c1-6)" = 100755 ] && chmod +x "$out/$path" || true ;;
	esac
done
