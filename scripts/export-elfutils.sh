#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Export the elfutils work branch ($ELFUTILS_BRANCH, default "work", in
# $WORK/elfutils-src, on tag elfutils-0.192) into patches/elfutils/NN-topic/:
# Documentation/series/elfutils-topics says how many of its commits, in
# order, each folder gets; each is git format-patch --cover-letter --base
# output, its cover letter from Documentation/series/elfutils-<folder>.txt
# (subject on the first line). Never edit patches/elfutils/ by hand.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
SRC=$WORK/elfutils-src
BR=${ELFUTILS_BRANCH:-work}
TOPICS=$TOP/Documentation/series/elfutils-topics
cd "$SRC"
mapfile -t commits < <(git rev-list --reverse "elfutils-0.192..$BR")
total=$(awk '!/^#/ && NF == 2 { n += $2 } END { print n + 0 }' "$TOPICS")
[ "$total" -eq "${#commits[@]}" ] ||
	{ echo "export-elfutils: $TOPICS counts $total patches, $BR has ${#commits[@]}" >&2; exit 1; }
rm -rf "$TOP/patches/elfutils"
mkdir -p "$TOP/patches/elfutils"
first=0 prev=elfutils-0.192
while read -r topic count; do
	case $topic in ''|'#'*) continue ;; esac
	tip=${commits[$((first + count - 1))]}
	out=$TOP/patches/elfutils/$topic
	git -c core.abbrev=12 -c user.name="Perf Series Dev" -c user.email=dev@invalid format-patch -q --no-signature --cover-letter \
		--base=elfutils-0.192 --subject-prefix="PATCH" -o "$out" "$prev..$tip"
	python3 - "$out/0000-cover-letter.patch" "$TOP/Documentation/series/elfutils-$topic.txt" <<'PY'
import sys
cl, src = sys.argv[1], sys.argv[2]
s = open(cl).read()
lines = open(src).read().split('\n')
s = s.replace('*** SUBJECT HERE ***', lines[0])
s = s.replace('*** BLURB HERE ***', '\n'.join(lines[1:]).strip('\n'))
open(cl, 'w').write(s)
PY
	first=$((first + count)) prev=$tip
done < "$TOPICS"
echo "export-elfutils: $(ls "$TOP"/patches/elfutils/*/[0-9]*.patch | grep -vc /0000-) patches in $(ls -d "$TOP"/patches/elfutils/*/ | wc -l) series"
