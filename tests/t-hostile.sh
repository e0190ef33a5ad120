#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Hostile debug info: perf report, perf script and perf annotate of
# recordings of a library whose DWARF, line program, CFI or section headers
# were crafted (tests/corpus/hostile.py: imported-unit cycles and DAGs,
# DIEs nested 100000 deep, reference loops, lying extended opcodes, CFI
# expressions that loop, decompression bombs sharing one stream, zstd
# bombs, repeated and overlapping sections, sections past the end).
# Per case: the series' libdw build, timed, with its max RSS (GNU time), its
# output checked for what the undamaged parts of the file still give
# ("expect"); the series' ASan+UBSan build for sanitizer reports
# (tests/corpus/sancheck.py); v7.3-rc7's libdw build, side by side, as a note.
# A case fails on a hang (HOSTILE_TIMEOUT, 60 s: no timing threshold, a
# hang), a death by a signal, a max RSS past 1 GiB (HOSTILE_MAX_RSS_KB),
# any AddressSanitizer error or a UBSan error or leak in a file the series
# touches, or the expected text missing from the output. A death by the
# signal v7.3-rc7's build dies of on the same run (under ASan: a crash with
# no frame in the series' files, tests/corpus/sancheck.py) is KNOWN, not
# failed. One KTAP line per group. Environment: HOSTILE_ONLY (a regex of case names to generate),
# HOSTILE_UP_TIMEOUT (v7.3-rc7's runs, 20 s).
. "$(dirname "$0")/lib.sh"
msg() { printf '# %s\n' "$*"; }
C=$TOP/tests/corpus
ASAN_PERF=$(perf_bin series asan)
UP_PERF=$(perf_bin upstream libdw)
SER_PERF=$(perf_bin series libdw)
TMO=${HOSTILE_TIMEOUT:-60}
UP_TMO=${HOSTILE_UP_TIMEOUT:-20}
MAX_RSS_KB=${HOSTILE_MAX_RSS_KB:-1048576}
CONF=$(perf_config "$TMPD/perfconfig")
ASAN_ENV=(PERF_CONFIG="$CONF"
	ASAN_OPTIONS=detect_leaks=1:halt_on_error=0:abort_on_error=0:allocator_may_return_null=1:max_allocation_size_mb=4096:hard_rss_limit_mb=6144
	UBSAN_OPTIONS=print_stacktrace=1)
GROUPS_=("crafted DWARF (.debug_info)" "crafted line programs (.debug_line)"
	"crafted CFI (.eh_frame)" "crafted sections (bombs, repeated names, overlaps)"
	"crafted symbol, string and PLT tables")

ktap_print_header
ktap_set_plan ${#GROUPS_[@]}
if [ ! -x "$SER_PERF" ]; then
	for g in "${GROUPS_[@]}"; do ktap_test_skip "$g (no series libdw build)"; done
	ktap_finished
fi
have_asan=0; [ -x "$ASAN_PERF" ] && have_asan=1
have_up=0; [ -x "$UP_PERF" ] && have_up=1
REC=$TMPD/perf-rec
cp "$SER_PERF" "$REC"
SERIES_FILES=$(git -C "$BASE" diff --name-only "$BASE_REF" "$SERIES_BRANCH" -- tools/perf 2>/dev/null |
	sed -n 's#.*/\([^/]*\.[ch]\)$#\1#p' | sort -u | tr '\n' ' ')
export SERIES_FILES

t0=$SECONDS
python3 "$C/hostile.py" --rec "$REC" --out "$TMPD/corpus" ${HOSTILE_ONLY:+--only "$HOSTILE_ONLY"} \
	2>"$TMPD/gen.err" || { cat "$TMPD/gen.err"; ktap_exit_fail_msg "corpus generation failed"; }
MANIFEST=$TMPD/corpus/manifest.jsonl
msg "corpus: $(wc -l <"$MANIFEST") cases in $((SECONDS - t0)) s$([ $have_asan = 1 ] || echo ', no ASan build: sanitizers not run')"

sig() { [ "$1" -gt 128 ] && [ "$1" -lt 160 ] && echo " SIG$(kill -l $(($1 - 128)))"; }

# timed: run perf with GNU time; sets RC, SECS, RSS (KiB)
timed() {	# timeout out err perf args...
	local tmo=$1 out=$2 err=$3; shift 3
	(PERF_CONFIG="$CONF" /usr/bin/time -f '%e %M' -o "$TMPD/time" \
		timeout -k 5 "$tmo" "$@" >"$out" 2>"$err"; exit $?) 2>/dev/null
	RC=$?
	read -r SECS RSS < <(tail -1 "$TMPD/time")
	case $SECS in [0-9]*) ;; *) SECS=? RSS=0 ;; esac
}

for g in "${GROUPS_[@]}"; do
	gfail=0 gknown=0 gn=0 gt=$SECONDS
	while IFS=$'\t' read -r name data skip note expect runs; do
		gn=$((gn + 1))
		if [ "$skip" != - ]; then
			msg "  skip  $name: $skip"
			continue
		fi
		STATUS=ok MSG= SANLINES=() found=0
		IFS='|' read -r -a rs <<<"$runs"
		for run in "${rs[@]}"; do
			IFS=' ' read -r -a a <<<"$run"
			what=${a[0]}
			timed "$TMO" "$TMPD/out" "$TMPD/err" "$SER_PERF" "${a[0]}" -i "$data" "${a[@]:1}"
			src=$RC srss=$RSS urc=-
			MSG+="${MSG:+; }$what $RC$(sig "$RC") ${SECS}s $((RSS / 1024))MB"
			[ "$expect" != - ] && [ "$what" != annotate ] && grep -qF -- "$expect" "$TMPD/out" && found=1
			if [ $have_up = 1 ]; then
				timed "$UP_TMO" /dev/null /dev/null bash -c 'ulimit -v 8388608; exec "$@"' _ \
					"$UP_PERF" "${a[0]}" -i "$data" "${a[@]:1}"
				urc=$RC
				MSG+=" (v7.3-rc7: $RC$(sig "$RC")$([ "$RC" = 124 ] && echo ' timeout') ${SECS}s $((RSS / 1024))MB)"
			fi
			# a death by the signal v7.3-rc7 dies of too: KNOWN, as in t-robust
			if [ "$src" = 124 ] || [ "$src" = 137 ]; then
				STATUS=FAIL; MSG+=" HANG"
			elif [ -n "$(sig "$src")" ]; then
				if [ "$src" = "$urc" ]; then
					[ $STATUS = ok ] && STATUS=KNOWN; MSG+=" as v7.3-rc7"
				else
					STATUS=FAIL
				fi
			fi
			if [ "$srss" -gt "$MAX_RSS_KB" ]; then
				STATUS=FAIL; MSG+=" OVER $((MAX_RSS_KB / 1024)) MB"
			fi
			if [ $have_asan = 1 ]; then
				# perf annotate leaves its session to exit() in builds
				# without DEBUG (builtin-annotate.c): no leak check
				aenv=("${ASAN_ENV[@]}")
				[ "$what" = annotate ] && aenv[1]=${aenv[1]/detect_leaks=1/detect_leaks=0}
				(env "${aenv[@]}" timeout -k 5 $((TMO * 3)) "$ASAN_PERF" "${a[0]}" -i "$data" \
					"${a[@]:1}" >/dev/null 2>"$TMPD/asan.err"; exit $?) 2>/dev/null
				arc=$?
				[ "$arc" != "$RC" ] && [ "$arc" != 0 ] && MSG+=" ASan build: $arc$(sig "$arc")"
				[ "$arc" = 124 ] && { STATUS=FAIL; MSG+=" HANG"; }
				sc=$(python3 "$C/sancheck.py" --upstream-rc "$urc" "$TMPD/asan.err")
				case $? in
				0) ;;
				2) [ $STATUS = ok ] && STATUS=KNOWN; MSG+=" (ASan: v7.3-rc7's crash)" ;;
				*) STATUS=FAIL; MSG+=" SANITIZER" ;;
				esac
				[ -n "$sc" ] && while IFS= read -r l; do SANLINES+=("    [$what] $l"); done <<<"$sc"
			fi
		done
		if [ "$expect" != - ] && [ $found = 0 ]; then
			STATUS=FAIL; MSG+="; '$expect' missing from the output"
		fi
		msg "  $(printf '%-5s' $STATUS) $name: $MSG"
		msg "        ($note)"
		for l in "${SANLINES[@]}"; do msg "$l"; done
		[ $STATUS = FAIL ] && gfail=$((gfail + 1))
		[ $STATUS = KNOWN ] && gknown=$((gknown + 1))
	done < <(python3 - "$MANIFEST" "$g" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    c = json.loads(line)
    if c['group'] == sys.argv[2]:
        print('\t'.join([c['name'], c['data'] or '-', c['skip'] or '-', c['note'] or '-',
                         c.get('expect') or '-', '|'.join(' '.join(r) for r in c['runs'])]))
EOF
)
	msg "  ($((SECONDS - gt)) s)"
	desc="$g: $gn cases, report/script/annotate, series and ASan+UBSan builds"
	[ $gknown -gt 0 ] && desc+=" ($gknown crash as v7.3-rc7 does)"
	if [ $gn -eq 0 ]; then
		ktap_test_skip "$g: no case generated"
	elif [ $gfail -gt 0 ]; then
		ktap_test_fail "$desc: $gfail failed"
	else
		ktap_test_pass "$desc"
	fi
done
msg "total $((SECONDS - t0)) s"
ktap_finished
