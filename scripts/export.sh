#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Export the working branch ($SERIES_BRANCH in $BASE) into the topic series
# of patches/: Documentation/series/topics says how many of the branch's
# commits, in order, each folder gets. Each folder is git format-patch
# --cover-letter --base output: base-commit is the base, and the patches of
# the folders before it are its prerequisite-patch-id lines. The cover
# letter's subject and body come from Documentation/series/<folder>.txt
# (@BENCH-<name>@ there is replaced by Documentation/series/bench-<name>.txt,
# a table of a benchmark run).
# Regenerates tools-perf-overlay/ too. Never edit either by hand.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
TOPICS=$TOP/Documentation/series/topics
cd "$BASE"
git rev-parse -q --verify "$SERIES_BRANCH" >/dev/null ||
	{ echo "export: no branch $SERIES_BRANCH in $BASE" >&2; exit 1; }
mapfile -t commits < <(git rev-list --reverse "$BASE_REF..$SERIES_BRANCH")
total=$(awk '!/^#/ && NF == 2 { n += $2 } END { print n + 0 }' "$TOPICS")
if [ "$total" -ne "${#commits[@]}" ]; then
	echo "export: $TOPICS counts $total patches, $SERIES_BRANCH has ${#commits[@]}" >&2
	exit 1
fi

# The perf series only: patches/elfutils/ is scripts/export-elfutils.sh's.
rm -rf "$TOP"/patches/[0-9][0-9]-*
mkdir -p "$TOP/patches"
first=0 prev=$BASE_REF
while read -r topic count; do
	case $topic in ''|'#'*) continue ;; esac
	tip=${commits[$((first + count - 1))]}
	out=$TOP/patches/$topic
	prefix=PATCH
	case $topic in *-rfc) prefix="RFC PATCH" ;; esac	# needs an unreleased elfutils
	git -c core.abbrev=12 format-patch -q --no-signature --cover-letter \
		--base="$BASE_REF" --subject-prefix="$prefix" -o "$out" "$prev..$tip"
	python3 - "$out/0000-cover-letter.patch" "$TOP/Documentation/series/$topic.txt" <<'PY'
import os, re, sys
cl, src = sys.argv[1], sys.argv[2]
s = open(cl).read()
lines = open(src).read().split('\n')
subject, body = lines[0], '\n'.join(lines[1:]).strip('\n')
def bench(m):
    f = os.path.join(os.path.dirname(src), 'bench-%s.txt' % m.group(1))
    return open(f).read().strip('\n') if os.path.exists(f) else m.group(0)
body = re.sub(r'@BENCH-([A-Za-z0-9_-]+)@', bench, body)
s = s.replace('*** SUBJECT HERE ***', subject)
s = s.replace('*** BLURB HERE ***', body)
open(cl, 'w').write(s)
PY
	first=$((first + count)) prev=$tip
done < "$TOPICS"
"$TOP/scripts/overlay.sh" "$SERIES_BRANCH" "$TOP/tools-perf-overlay"
echo "export: $(ls "$TOP"/patches/[0-9][0-9]-*/[0-9]*.patch | grep -vc /0000-) patches in $(ls -d "$TOP"/patches/[0-9][0-9]-*/ | wc -l) series"
