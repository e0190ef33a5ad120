#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.pl --strict on every patch of patches/. The only accepted
# complaints are the missing Signed-off-by, which the human submitter adds,
# and --strict's "Avoid CamelCase" for names that external library headers
# define (libdw's Dwarf_Die, libelf's GElf_Shdr, zlib's inflateInit, ...):
# perf has to use them.
# New files under tools/perf/ are covered by the F: tools/perf/ line of
# PERFORMANCE EVENTS SUBSYSTEM in MAINTAINERS; checkpatch still asks
# "does MAINTAINERS need updating?" (FILE_PATH_CHANGES): that one is ignored.
# Prints one line per patch: "ok <patch>" or "FAIL <patch>" + the report.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
rc=0
# Fixes: tags name upstream commits. The Debian base tree has no history, so
# checkpatch cannot look them up there: skip that one check then, and only
# then (with PERF_TREE=<a kernel git tree> it runs).
EXTRA=(--ignore FILE_PATH_CHANGES)
if [ -z "${PERF_TREE:-}" ] && [ "$(git -C "$BASE" rev-list --count "$BASE_REF")" -le 1 ]; then
	EXTRA+=(--ignore UNKNOWN_COMMIT_ID)
fi
LIBHDRS=(/usr/include/elfutils/*.h /usr/include/libelf.h /usr/include/gelf.h /usr/include/inttypes.h
	 /usr/include/dwarf.h /usr/include/libunwind*.h /usr/include/zlib.h)
cd "$BASE"
for p in "$TOP"/patches/[0-9][0-9]-*/[0-9][0-9][0-9][0-9]-*.patch; do
	case $p in */0000-cover-letter.patch) continue ;; esac
	out=$(perl "$BASE/scripts/checkpatch.pl" --strict --no-tree --no-signoff "${EXTRA[@]}" "$p" 2>&1)
	# Drop CamelCase complaints about library names, with their context lines.
	out=$(echo "$out" | python3 -c '
import re, sys, glob
hdrs = sys.argv[1:]
text = " ".join(open(h, errors="replace").read() for h in hdrs if glob.os.path.exists(h))
blocks, cur = [], []
for line in sys.stdin.read().split("\n"):
    if re.match(r"^(ERROR|WARNING|CHECK):", line) and cur:
        blocks.append(cur); cur = []
    cur.append(line)
blocks.append(cur)
for b in blocks:
    m = re.match(r"^CHECK: Avoid CamelCase: <(\w+)>", b[0])
    if m and re.search(r"\b%s\b" % m.group(1), text):
        print("NOTE: library name " + m.group(1))
        continue
    print("\n".join(b))
' "${LIBHDRS[@]}")
	if grep -qE '^(ERROR|WARNING|CHECK):' <<<"$out"; then
		echo "FAIL $(basename "$p")"; echo "$out" | sed 's/^/    /'
		rc=1
	else
		echo "ok $(basename "$p")"
	fi
done
exit $rc
