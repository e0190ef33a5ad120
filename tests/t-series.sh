#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The series as a maintainer receives it: it applies with git am on the
# base, checkpatch.pl --strict is clean (but for the Signed-off-by the
# human submitter adds), every patch carries Assisted-by and no
# Signed-off-by, and tools-perf-overlay/ matches the series.  The elfutils
# series (patches/elfutils/) applies with git am on the elfutils 0.192
# release, and each of its patches has a "lib: Imperative" subject, a
# ChangeLog-style entry per file (elfutils' CONTRIBUTING), Assisted-by and
# no Signed-off-by.
. "$(dirname "$0")/lib.sh"
ktap_print_header
ktap_set_plan 8

if out=$(APPLY_DIR=$WORK/apply-check APPLY_BRANCH=series-check "$TOP/scripts/apply.sh" 2>&1); then
	ktap_print_msg "$out"; ktap_test_pass "series applies with git am on $BASE_REF"
else
	ktap_print_msg "$out"; ktap_test_fail "series applies with git am on $BASE_REF"
fi

if out=$("$TOP/scripts/checkpatch.sh" 2>&1); then
	ktap_print_msg "$(echo "$out" | wc -l) patches checked"; ktap_test_pass "checkpatch.pl --strict clean"
else
	ktap_print_msg "$out"; ktap_test_fail "checkpatch.pl --strict clean"
fi

tags_ok=true
for p in "$TOP"/patches/[0-9][0-9]-*/[0-9][0-9][0-9][0-9]-*.patch; do
	case $p in */0000-cover-letter.patch) continue ;; esac
	grep -q '^Assisted-by: ' "$p" || { ktap_print_msg "$(basename "$p"): no Assisted-by"; tags_ok=false; }
	grep -q '^Signed-off-by: ' "$p" && { ktap_print_msg "$(basename "$p"): has a Signed-off-by"; tags_ok=false; }
	grep -qE '^Subject: \[(RFC )?PATCH[^]]*\] (perf|tools lib)( [a-z0-9,/_-]+)*: [A-Z]' "$p" ||
		{ ktap_print_msg "$(basename "$p"): subject not 'perf <area>: <Imperative>' nor 'tools lib <lib>: <Imperative>'"; tags_ok=false; }
	# Words that mean nothing in git history.
	if sed -n '/^Subject:/,/^---$/p' "$p" | grep -qiE "previous patch|next patch|this series|patch [0-9]+ of|candle|corpus|v?7\.3-rc[0-9]"; then
		ktap_print_msg "$(basename "$p"): the message names other patches, the series or the project's words"
		tags_ok=false
	fi
done
if $tags_ok; then ktap_test_pass "tags and subjects"; else ktap_test_fail "tags and subjects"; fi

# Each topic series as format-patch --base writes it: base-commit, the
# patches of the series before it as prerequisite-patch-id lines, and a
# cover letter of at most 110 lines besides those (one line per earlier
# patch: they would otherwise leave the last covers no room).
covers_ok=true nprev=0
for dir in "$TOP"/patches/[0-9][0-9]-*/; do
	cl=$dir/0000-cover-letter.patch
	npre=$(grep -c '^prerequisite-patch-id: ' "$cl" 2>/dev/null)
	if ! grep -q '^base-commit: ' "$cl" 2>/dev/null || [ "${npre:-0}" -ne "$nprev" ] ||
	   [ $(($(wc -l < "$cl") - ${npre:-0})) -gt 110 ] || grep -qiE '\*\*\* (SUBJECT|BLURB) HERE|\(draft\)|^Draft\.|@[A-Z]+(-[A-Za-z0-9_-]+)?@' "$cl"; then
		ktap_print_msg "$(basename "$dir"): base-commit, $npre prerequisites (expected $nprev), $(($(wc -l < "$cl") - ${npre:-0})) other lines"
		covers_ok=false
	fi
	nprev=$((nprev + $(ls "$dir" | grep -c '^[0-9][0-9][0-9][0-9]-' ) - 1))
done
if $covers_ok; then ktap_test_pass "cover letters and prerequisites"; else ktap_test_fail "cover letters and prerequisites"; fi

if [ -d "$WORK/apply-check" ]; then
	"$TOP/scripts/overlay.sh" series-check "$TMPD/overlay" >/dev/null 2>&1
	if out=$(diff -r "$TMPD/overlay" "$TOP/tools-perf-overlay" 2>&1); then
		ktap_test_pass "tools-perf-overlay/ matches the series"
	else
		ktap_print_msg "$(echo "$out" | head -20)"; ktap_test_fail "tools-perf-overlay/ matches the series"
	fi
	git -C "$BASE" worktree remove -f "$WORK/apply-check" 2>/dev/null || true
else
	ktap_test_fail "tools-perf-overlay/ matches the series (series did not apply)"
fi
# The project's own scripts: each parses, and bench-report.sh makes its
# tables from a row of every kind bench-measure.sh writes.
scripts_ok=true
for f in "$TOP"/scripts/*.sh "$TOP"/tests/*.sh "$TOP"/.ci/run; do
	bash -n "$f" 2>/dev/null || { ktap_print_msg "$f does not parse"; scripts_ok=false; }
done
T=$'\t'
cat >"$TMPD/results.tsv" <<EOF
env${T}2026-12-04${T}2${T}6.1${T}0.188${T}1.6.2${T}3
info${T}jvm${T}fp${T}2${T}7284${T}4950
cmd${T}jvm${T}fp${T}report${T}upstream-libdw${T}20.4${T}16.5${T}1318172
cmd${T}jvm${T}fp${T}report${T}series-libdw${T}1.9${T}1.9${T}443272
cmd${T}jvm${T}fp${T}script${T}series-libdw${T}1.8${T}1.8${T}440360
complete${T}jvm${T}fp${T}series-libdw${T}0.03${T}0.43
instr${T}jvm-fp${T}report${T}series-libdw${T}12174678226
floor${T}libjvm.so: zlib inflate (bench/inflate.py)${T}1.62
atfloor${T}jvm${T}report${T}series-libdw${T}1.90${T}442124
atfloor${T}jvm${T}script${T}series-libdw${T}1.81${T}441212
atfloor${T}jvm${T}noinline${T}series-libdw${T}0.25${T}93448
atfloor${T}jvm${T}inflate${T}series-libdw${T}1.61${T}0
startup${T}perf record${T}series-libdw${T}40${T}900${T}100${T}10
trace${T}series-libdw${T}1.2${T}0.9${T}90000${T}0${T}1000
procs${T}perf list${T}series-libdw${T}40${T}45${T}900${T}2000
EOF
if out=$("$TOP/scripts/bench-report.sh" "$TMPD/results.tsv" 2>&1) &&
   echo "$out" | grep -qF '| jvm | series-libdw | 1.90 | 1.81 | 0.25 | 1.61 | 1.02x | 0.97x |' &&
   echo "$out" | grep -q '^### the floors' && echo "$out" | grep -q '^### start-up'; then
	:
else
	ktap_print_msg "$(echo "$out" | head -20)"; scripts_ok=false
fi
if $scripts_ok; then
	ktap_test_pass "the project's scripts parse, bench-report.sh makes its tables"
else
	ktap_test_fail "the project's scripts parse, bench-report.sh makes its tables"
fi
if out=$("$TOP/scripts/elfutils-src.sh" apply 2>&1); then
	ktap_print_msg "$(echo "$out" | grep '^elfutils:')"; ktap_test_pass "elfutils series applies with git am on elfutils 0.192"
else
	ktap_print_msg "$(echo "$out" | tail -10)"; ktap_test_fail "elfutils series applies with git am on elfutils 0.192"
fi

eu_ok=true neu=0
for p in "$TOP"/patches/elfutils/[0-9][0-9]-*/[0-9][0-9][0-9][0-9]-*.patch; do
	case $p in */0000-cover-letter.patch) continue ;; esac
	neu=$((neu + 1))
	b=$(basename "$p")
	grep -q '^Assisted-by: ' "$p" || { ktap_print_msg "$b: no Assisted-by"; eu_ok=false; }
	grep -q '^Signed-off-by: ' "$p" && { ktap_print_msg "$b: has a Signed-off-by"; eu_ok=false; }
	grep -qE '^Subject: \[PATCH[^]]*\] (lib[a-z]+|src|tests)(, lib[a-z]+)*: [A-Z]' "$p" ||
		{ ktap_print_msg "$b: subject not 'libxx: <Imperative>'"; eu_ok=false; }
	# A ChangeLog entry for every file the patch changes.
	for f in $(sed -n 's/^diff --git a\/\([^ ]*\) .*/\1/p' "$p"); do
		sed -n '/^Subject:/,/^---$/p' "$p" | grep -qE "^[[:space:]]*\* ([^ ]*[ ,]+)*$f([ :,(]|$)" ||
			{ ktap_print_msg "$b: no ChangeLog entry for $f"; eu_ok=false; }
	done
done
[ "$neu" -gt 0 ] || { ktap_print_msg "no patches in patches/elfutils"; eu_ok=false; }
if $eu_ok; then ktap_test_pass "elfutils patches: subjects, ChangeLog entries, tags"
else ktap_test_fail "elfutils patches: subjects, ChangeLog entries, tags"; fi
ktap_finished
