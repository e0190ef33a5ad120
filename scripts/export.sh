#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Export the working branch ($SERIES_BRANCH in $BASE) into patches/ with
# git format-patch --cover-letter --base, fill the cover letter from
# Documentation/cover-letter.txt, and regenerate tools-perf-overlay/.
# Never edit patches/ or tools-perf-overlay/ by hand.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$BASE"
git rev-parse -q --verify "$SERIES_BRANCH" >/dev/null ||
	{ echo "export: no branch $SERIES_BRANCH in $BASE" >&2; exit 1; }
rm -rf "$TOP/patches"
mkdir -p "$TOP/patches"
git -c core.abbrev=12 format-patch -q --no-signature --cover-letter --base="$BASE_REF" \
	--subject-prefix="PATCH" -o "$TOP/patches" "$BASE_REF..$SERIES_BRANCH"
# The cover letter: subject on the first line of cover-letter.txt, then the body.
CL=$TOP/patches/0000-cover-letter.patch
if [ -f "$TOP/Documentation/cover-letter.txt" ]; then
	python3 - "$CL" "$TOP/Documentation/cover-letter.txt" <<'PY'
import os, sys
cl, src = sys.argv[1], sys.argv[2]
s = open(cl).read()
lines = open(src).read().split('\n')
subject, body = lines[0], '\n'.join(lines[1:]).strip('\n')
s = s.replace('*** SUBJECT HERE ***', subject)
bench = os.path.join(os.path.dirname(src), 'benchmark-cover.txt')
if os.path.exists(bench):
    body = body.replace('@BENCH@', open(bench).read().strip('\n'))
s = s.replace('*** BLURB HERE ***', body)
open(cl, 'w').write(s)
PY
fi
"$TOP/scripts/overlay.sh" "$SERIES_BRANCH" "$TOP/tools-perf-overlay"
echo "export: $(ls "$TOP"/patches | wc -l) files in patches/"
