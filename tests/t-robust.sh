#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Robustness: perf report and perf script of the series' ASan+UBSan build
# on damaged input. tests/corpus/gen.py records a small C workload (an
# executable and its shared library, recursion) and damages the recordings
# (truncated, bit flips, lying user regs and stack dumps, stack size 0) and
# the DSOs they point at (.eh_frame, .debug_frame, .debug_info, .debug_line
# damaged, compressed sections with a lying Elf64_Chdr, truncated, stripped,
# deleted). A case fails on a hang (timeout), a death by signal that
# upstream's build does not share, any AddressSanitizer error, and UBSan
# errors or LeakSanitizer leaks with a frame in a file the series touches
# (tests/corpus/sancheck.py); other reports are printed as notes, and so are
# exit codes that differ from upstream's. One KTAP line per group of cases,
# one "#" line per case. Last, valgrind memcheck of the normal series build
# on the undamaged dwarf recording.
# A crash upstream's build shares (same signal; under ASan a SEGV/BUS/FPE/ILL
# report with no frame in the series' files) is reported as KNOWN, not failed.
# Environment: ROBUST_ASAN_PERF (the perf to test), ROBUST_TIMEOUT (per run,
# 120 s), ROBUST_ONLY (a regex of the groups to run), ROBUST_KEEP (a folder
# to keep the stderr of every run in), ROBUST_VG_BUDGET (no valgrind past
# this many seconds, 200; none under make check-full).
. "$(dirname "$0")/lib.sh"
# msg echoes its words unquoted (globbing, spaces squeezed)
msg() { printf '# %s\n' "$*"; }
C=$TOP/tests/corpus
ASAN_PERF=${ROBUST_ASAN_PERF:-$(perf_bin series asan)}
UP_PERF=$(perf_bin upstream libdw)
SER_PERF=$(perf_bin series libdw)
TMO=${ROBUST_TIMEOUT:-120}
# no ~/.debug, no ~/.perfconfig
CONF=$(perf_config "$TMPD/perfconfig")
# allocator_may_return_null: a failed malloc returns NULL as glibc's does
# (a decompression bomb is then the program's problem, not an ASan report);
# max_allocation_size_mb, hard_rss_limit_mb and ulimit -v keep a bomb from
# taking the machine's memory.
ASAN_ENV=(PERF_CONFIG="$CONF"
	ASAN_OPTIONS=detect_leaks=1:halt_on_error=0:abort_on_error=0:allocator_may_return_null=1:max_allocation_size_mb=4096:hard_rss_limit_mb=6144
	UBSAN_OPTIONS=print_stacktrace=1)
VMEM_KB=8388608

CASE_GROUPS=(
	"undamaged recordings"
	"deep recursion (5000 frames)"
	"address space changes (dlopen/dlclose, exiting processes)"
	"perf.data user stack size 0"
	"perf.data truncated"
	"perf.data bit flips in the data section"
	"perf.data bit flips in sample payloads (sizes kept)"
	"perf.data user regs and stack dump lies"
	".eh_frame/.eh_frame_hdr damaged"
	".eh_frame_hdr after .eh_frame (gold), damaged"
	".debug_frame damaged (code without .eh_frame FDEs)"
	".debug_info/.debug_abbrev damaged"
	".debug_line/.debug_str damaged"
	"compressed .debug_* with a lying Elf64_Chdr"
	"separate compressed debug file (debuglink)"
	"DSO damaged as a whole"
)
VG_NAME="valgrind memcheck: series libdw perf report, undamaged dwarf recording"

ktap_print_header
ktap_set_plan $((${#CASE_GROUPS[@]} + 1))

if [ ! -x "$ASAN_PERF" ]; then
	for g in "${CASE_GROUPS[@]}" "$VG_NAME"; do
		ktap_test_skip "$g (no ASan build at $ASAN_PERF)"
	done
	ktap_finished
fi

# A perf to record with and one for valgrind: the series' normal build may
# be relinked by a build running meanwhile; take a copy that runs.
usable_copy() {	# src dst
	local i
	for i in 1 2 3 4 5 6; do
		if [ -x "$1" ] && cp "$1" "$2" 2>/dev/null && "$2" version >/dev/null 2>&1; then
			return 0
		fi
		sleep 10
	done
	return 1
}
REC=$TMPD/perf-rec
usable_copy "$SER_PERF" "$REC" || usable_copy "$UP_PERF" "$REC" ||
	ktap_exit_fail_msg "no perf to record with ($SER_PERF, $UP_PERF)"
have_up=0; [ -x "$UP_PERF" ] && have_up=1

# The files the series touches, for tests/corpus/sancheck.py.
SERIES_FILES=$(git -C "$BASE" diff --name-only "$BASE_REF" "$SERIES_BRANCH" -- tools/perf 2>/dev/null |
	sed -n 's#.*/\([^/]*\.[ch]\)$#\1#p' | sort -u | tr '\n' ' ')
export SERIES_FILES
# For UBSan errors at lines upstream has too (sancheck.py): the commit of the
# ASan build, from its version string (7.3.rc7.g<hash>).
SAN_COMMIT=$("$ASAN_PERF" version 2>/dev/null | sed -n 's/.*\.g\([0-9a-f]\{7,\}\).*/\1/p')
if [ -n "$SAN_COMMIT" ] && git -C "$BASE" cat-file -e "$SAN_COMMIT^{commit}" 2>/dev/null; then
	export SAN_GIT=$BASE SAN_COMMIT SAN_UPSTREAM=$BASE_REF
fi
msg "ASan perf: $("$ASAN_PERF" version 2>&1 | head -1), upstream: $("$UP_PERF" version 2>&1 | head -1)"

t0=$SECONDS
python3 "$C/gen.py" --rec "$REC" --out "$TMPD/corpus" --src "$TOP/tests/workloads/robust.c" \
	2>"$TMPD/gen.err" || { cat "$TMPD/gen.err"; ktap_exit_fail_msg "corpus generation failed"; }
msg "corpus: $(wc -l <"$TMPD/corpus/manifest.jsonl") cases in $((SECONDS - t0)) s, recorded with $( [ "$(cmp -s "$REC" "$SER_PERF" && echo y)" = y ] && echo series || echo upstream ) libdw perf"
MANIFEST=$TMPD/corpus/manifest.jsonl

sig() { [ "$1" -gt 128 ] && [ "$1" -lt 160 ] && echo " SIG$(kill -l $(($1 - 128)))"; }

# run_case: the ASan perf and upstream's perf on one input; sets STATUS
# (ok, FAIL, KNOWN) and MSG, adds sanitizer lines to SANLINES. An exit
# status 129..159 is a death by signal (perf's own failures exit with
# -errno & 255, 160..255).
run_case() {	# data compare runs(|-separated)
	local data=$1 compare=$2 run rc urc sc what out uout n=0
	local -a runs
	IFS='|' read -r -a runs <<<"$3"
	STATUS=ok MSG=
	for run in "${runs[@]}"; do
		n=$((n + 1))
		local -a a
		IFS=' ' read -r -a a <<<"$run"
		what=${a[0]}${a[1]:+ ${a[*]:1}}
		what=${what/ --stdio -q/}
		local err=$TMPD/run.err
		out=/dev/null uout=/dev/null
		if [ "$compare" != 0 ] && [ "${a[0]}" = script ]; then
			out=$TMPD/run.out uout=$TMPD/up.out
		fi
		# in a subshell that waits (not exec): its "Segmentation fault"
		# message goes to /dev/null
		(env "${ASAN_ENV[@]}" timeout -k 5 "$TMO" "$ASAN_PERF" "${a[0]}" -i "$data" "${a[@]:1}" \
			>"$out" 2>"$err"; exit $?) 2>/dev/null
		rc=$?
		urc=-
		if [ $have_up = 1 ]; then
			(ulimit -v $VMEM_KB; PERF_CONFIG="$CONF" timeout -k 5 "$TMO" "$UP_PERF" "${a[0]}" -i "$data" "${a[@]:1}" \
				>"$uout" 2>"$TMPD/up.err"; exit $?) 2>/dev/null
			urc=$?
		fi
		MSG+="${MSG:+, }$what $rc$(sig $rc)"
		[ "$rc" != "$urc" ] && MSG+=" (upstream $urc$(sig $urc))"
		if [ "$rc" = 124 ]; then
			STATUS=FAIL; MSG+=" HANG (timeout ${TMO}s)"
		elif [ -n "$(sig $rc)" ]; then
			if [ "$rc" = "$urc" ]; then
				[ $STATUS = ok ] && STATUS=KNOWN
				MSG+=" as upstream: $(grep -m1 -v '^\s*$' "$err" | cut -c1-100)"
			else
				STATUS=FAIL
			fi
		fi
		if [ "$out" != /dev/null ] && [ "$rc" = 0 ] && [ "$urc" = 0 ]; then
			local outermost=
			[ "$compare" != 1 ] && outermost=$compare
			if ! python3 "$TOP/tests/chaincmp.py" compare "$uout" "$out" $outermost >"$TMPD/cmp.txt"; then
				STATUS=FAIL
				MSG+=" CHAINS DIFFER from upstream: $(tail -1 "$TMPD/cmp.txt")"
				# the first differing samples (upstream | series), to
				# tell from a CI log which one is wrong
				while IFS= read -r l; do
					SANLINES+=("    [$what] $l")
				done < <(head -n 40 "$TMPD/cmp.txt" | sed 's/^# //')
			else
				MSG+=" (chains as upstream's$(sed -n 's/.*, \([1-9][0-9]*\) complete in the second only$/; \1 complete only in the series/p' "$TMPD/cmp.txt"))"
			fi
		fi
		if [ -n "${ROBUST_KEEP:-}" ]; then	# a folder for the stderr of each run
			mkdir -p "$ROBUST_KEEP"
			cp "$err" "$ROBUST_KEEP/$(basename "$data").${a[0]}$n.err"
		fi
		sc=$(python3 "$C/sancheck.py" --upstream-rc "$urc" "$err")
		case $? in
		0) ;;
		2) [ $STATUS = ok ] && STATUS=KNOWN; MSG+=" (ASan: upstream's crash)" ;;
		*) STATUS=FAIL; MSG+=" SANITIZER" ;;
		esac
		if [ -n "$sc" ]; then
			while IFS= read -r l; do SANLINES+=("    [$what] $l"); done <<<"$sc"
		fi
		if grep -q "AddressSanitizer: hard rss limit" "$err"; then
			MSG+=" (hit hard_rss_limit_mb)"
		fi
	done
}

for g in "${CASE_GROUPS[@]}"; do
	if [ -n "${ROBUST_ONLY:-}" ] && [[ ! $g =~ $ROBUST_ONLY ]]; then
		ktap_test_skip "$g (not in ROBUST_ONLY)"
		continue
	fi
	gfail=0 gknown=0 gn=0 gt=$SECONDS
	while IFS=$'\t' read -r name data skip note compare runs; do
		gn=$((gn + 1))
		if [ "$skip" != - ]; then
			msg "  skip  $name: $skip"
			continue
		fi
		SANLINES=()
		run_case "$data" "$compare" "$runs"
		msg "  $(printf '%-5s' $STATUS) $name: $MSG"
		[ "$note" != - ] && msg "        ($note)"
		for l in "${SANLINES[@]}"; do msg "$l"; done
		case $STATUS in FAIL) gfail=$((gfail + 1)) ;; KNOWN) gknown=$((gknown + 1)) ;; esac
	done < <(python3 "$C/cases.py" "$MANIFEST" "$g")
	desc="$g: $gn cases, ASan+UBSan perf report/script"
	[ $gknown -gt 0 ] && desc+=" ($gknown crash as upstream does)"
	msg "  ($((SECONDS - gt)) s)"
	if [ $gn -eq 0 ]; then
		ktap_test_skip "$g: no case generated"
	elif [ $gfail -gt 0 ]; then
		ktap_test_fail "$desc: $gfail failed"
	else
		ktap_test_pass "$desc"
	fi
done

# valgrind memcheck of the normal (uninstrumented) series build: under
# make check-full (CHECK_FULL=1) always.
VG=$TMPD/perf-vg
VG_BUDGET=${ROBUST_VG_BUDGET:-$([ "${CHECK_FULL:-}" = 1 ] && echo 1000000 || echo 200)}
if ! command -v valgrind >/dev/null; then
	ktap_test_skip "$VG_NAME (no valgrind)"
elif [ $((SECONDS - t0)) -gt "$VG_BUDGET" ]; then
	ktap_test_skip "$VG_NAME (over the time budget: ROBUST_VG_BUDGET=$VG_BUDGET s; make check-full runs it)"
elif ! usable_copy "$SER_PERF" "$VG"; then
	ktap_test_skip "$VG_NAME (no series libdw build)"
else
	t=$SECONDS
	PERF_CONFIG="$CONF" timeout 120 valgrind --error-exitcode=99 --leak-check=no --num-callers=30 \
		"$VG" report -i "$TMPD/corpus/dwarf.data" --stdio -q >/dev/null 2>"$TMPD/vg.err"
	rc=$?
	sc=$(python3 "$C/sancheck.py" --valgrind "$TMPD/vg.err"); scrc=$?
	nerr=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$TMPD/vg.err" | tail -1)
	msg "  valgrind exit $rc, ${nerr:-?} errors, $((SECONDS - t)) s"
	[ -n "$sc" ] && while IFS= read -r l; do msg "    $l"; done <<<"$sc"
	if [ $rc = 124 ] || [ $scrc -ne 0 ]; then
		ktap_test_fail "$VG_NAME"
	else
		ktap_test_pass "$VG_NAME"
	fi
fi
msg "total $((SECONDS - t0)) s"
ktap_finished
