#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every patch builds at its position (incremental builds in the series'
# build folders).  Needs scripts/apply.sh and the tip's builds (make build).
#
# libdw configuration: every patch.  LIBUNWIND=1 configuration: the last
# patch of each topic series, and every patch that changes a file the
# LIBUNWIND=1 build compiles differently from the libdw build: a file
# that names LIBUNWIND or what the headers declare under it (LU_NAMES), a
# build file, or a source or header of the objects only the LIBUNWIND=1
# build has (from their dependency lists in its build folder).
# BISECT_ALL=1 builds every patch in both.
#
# Which patches: under make check (and so in CI), those of the first topic
# series, the fixes that go to perf-tools; under make check-full
# (CHECK_FULL=1, or BISECT_SERIES=all) every patch of every series.
#
# The walk goes from the tip backwards, so that it starts from the tip's
# builds; the build folders are left at the first patch and rebuild what
# changed on the next scripts/build.sh.  Run last by tests/run.sh.  Under
# CI's time budget (CI_DEADLINE) the builds that would start after it are
# skipped.
. "$(dirname "$0")/lib.sh"
ktap_print_header
cd "$BASE"
br=$(git rev-parse --abbrev-ref HEAD)
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	ktap_skip_all "uncommitted changes in $BASE"; ktap_print_totals; exit 0
fi
commits=($(git rev-list "$BASE_REF..HEAD"))	# newest first
BISECT_SERIES=${BISECT_SERIES:-$([ "${CHECK_FULL:-}" = 1 ] && echo all || echo first)}
if [ "$BISECT_SERIES" = first ]; then
	read -r folder count < <(grep -v '^#' "$TOP/Documentation/series/topics" | awk 'NF == 2')
	ktap_print_msg "the $count patches of $folder (make check-full: all ${#commits[@]})"
	commits=("${commits[@]: -$count}")
fi

# Files whose change needs a LIBUNWIND=1 build: sources and headers of the
# objects only that build has, relative to the top of the kernel tree.
LU=$BUILD/series-libunwind DW=$BUILD/series-libdw
comm -13 <(cd "$DW" && find . -name '*.o' | sort) <(cd "$LU" && find . -name '*.o' | sort) |
while read -r o; do
	f=$LU/$(dirname "$o")/.$(basename "$o").cmd
	[ -f "$f" ] && sed -n -e 's/^source_[^ ]* := //p' -e 's/^  \([^ ]*\) \\\{0,1\}$/\1/p' "$f"
done | grep -v '^/' | sed -e 's|^\.\./|tools/|' -e t -e 's|^|tools/perf/|' | sort -u >"$TMPD/lu-deps"

# Last patch of each topic series (Documentation/series/topics).
tips=" "
n=0
while read -r folder count; do
	n=$((n + count))
	tips+="$(git rev-list --reverse "$BASE_REF..HEAD" | sed -n "${n}p") "
done < <(grep -v '^#' "$TOP/Documentation/series/topics" | awk 'NF == 2')

# What util/*.h declare under HAVE_LIBUNWIND_SUPPORT (v7.3-rc7 and the
# series), with LIBUNWIND itself and libunwind's own names.
LU_NAMES='LIBUNWIND|libunwind|unwind__(prepare|flush|finish)_access|maps__(set_)?(addr_space|e_machine)|elf_base_addr|debug_frame_offset|eh_frame_hdr_(addr|offset)'

needs_libunwind() {	# commit
	local f
	[ "${BISECT_ALL:-}" = 1 ] && return 0
	case $tips in *" $1 "*) return 0 ;; esac
	while read -r f; do
		grep -qxF "$f" "$TMPD/lu-deps" && return 0
		case ${f##*/} in Build|Makefile*|*.mak) return 0 ;; esac
		git show "$1:$f" 2>/dev/null | grep -qE "$LU_NAMES" && return 0
	done < <(git diff-tree --no-commit-id --name-only -r "$1")
	return 1
}

plan=0
for c in "${commits[@]}"; do
	plan=$((plan + 1)); needs_libunwind "$c" && plan=$((plan + 1))
done
ktap_set_plan $plan
ktap_print_msg "LIBUNWIND=1 builds at $((plan - ${#commits[@]})) of ${#commits[@]} patches"
for c in "${commits[@]}"; do
	git checkout -q --detach "$c"
	subj=$(git log -1 --format=%s "$c")
	cfgs=(libdw)
	needs_libunwind "$c" && cfgs+=(libunwind)
	for cfg in "${cfgs[@]}"; do
		if past_deadline; then
			ktap_test_skip "builds ($cfg): $subj (past the CI time budget)"
		elif out=$("$TOP/scripts/build.sh" series "$cfg" 2>&1); then
			ktap_test_pass "builds ($cfg): $subj"
		else
			ktap_print_msg "$(echo "$out" | tail -15)"; ktap_test_fail "builds ($cfg): $subj"
		fi
	done
done
git checkout -q "$br"
ktap_finished
