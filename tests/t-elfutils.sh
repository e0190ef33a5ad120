#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The series with other elfutils than the system's (Debian 12: 0.188):
# bookworm-backports' 0.192, linked through LIBDW_DIR and an rpath, and
# Debian unstable's, the newest (0.196 when written), whose libraries need a
# newer glibc: built and run in a debootstrap chroot of sid. Each: perf
# builds, and perf's unwinding and symbolization tests pass.
# And "series": elfutils 0.192 from its release tarball with the elfutils
# series of patches/elfutils/ (scripts/elfutils-src.sh), installed as the
# release that would carry it (0.197), so that perf's _ELFUTILS_PREREQ()
# code for it is built and run.  ELFUTILS_MAKE_CHECK=1 (make check-full)
# also runs elfutils' own make check with the series, as one more test.
# ELFUTILS_SUITES (default "bookworm-backports sid series") picks the ones
# to run. Of tests/series-perf-tests.txt, the tests of what libdw and
# libelf do for perf (unwinding, source lines, inline frames, symbols);
# t-perftest runs them all with the system's elfutils.
. "$(dirname "$0")/lib.sh"

SUITES=(${ELFUTILS_SUITES-bookworm-backports sid series})
mapfile -t PERF_TESTS < <(perf_tests | grep -E 'Symbols|unwind|addr2line|inject|Callchains|inline frames')
ktap_print_header
ktap_set_plan $(( ${#SUITES[@]} * (1 + ${#PERF_TESTS[@]}) + ${ELFUTILS_MAKE_CHECK:-0} ))

run_tests() {	# suite: runner...
	local suite=$1 t out; shift
	for t in "${PERF_TESTS[@]}"; do
		if past_deadline; then
			ktap_test_skip "elfutils $suite: perf test '$t' (past the CI time budget)"; continue
		fi
		out=$("$@" "$TOP/tests/perf-test.sh perf '$t'" 2>&1)
		case $(perf_test_result "$out") in
		pass) ktap_test_pass "elfutils $suite: perf test '$t'" ;;
		skip) ktap_test_skip "elfutils $suite: perf test '$t' ($(perf_test_skip_reason "$out"))" ;;
		*) ktap_print_msg "$(perf_test_failure "$out")"; ktap_test_fail "elfutils $suite: perf test '$t'" ;;
		esac
	done
}
skip_tests() {	# suite why
	for t in "${PERF_TESTS[@]}"; do ktap_test_skip "elfutils $1: perf test '$t' ($2)"; done
}

in_host() {	# perf test command line, with the suite's build first in PATH
	(cd "$BASE/tools/perf" && PATH=$BUILD/series-elfutils-$suite:$PATH PERF_CONFIG=/dev/null \
		timeout 600 bash -c "$1")
}
in_chroot() {
	timeout 600 "$TOP/scripts/sid-chroot.sh" run "$1"
}

for suite in "${SUITES[@]}"; do
	if past_deadline; then
		ktap_test_skip "elfutils $suite: perf builds (past the CI time budget)"
		skip_tests "$suite" "past the CI time budget"; continue
	fi
	if [ "$suite" = sid ]; then
		if ! out=$("$TOP/scripts/sid-chroot.sh" setup 2>&1) ||
		   ! out="$out $("$TOP/scripts/sid-chroot.sh" build series 2>&1)"; then
			ktap_print_msg "$(echo "$out" | tail -20)"
			ktap_test_fail "elfutils sid: perf builds in a sid chroot"
			skip_tests sid "no build"; continue
		fi
		ktap_print_msg "sid chroot: $(echo "$out" | grep -m1 libdw-dev)"
		ktap_test_pass "elfutils sid: perf builds in a sid chroot"
		run_tests sid in_chroot
	else
		if ! out=$("$TOP/scripts/build.sh" series "elfutils-$suite" 2>&1); then
			ktap_print_msg "$(echo "$out" | tail -20)"
			ktap_test_fail "elfutils $suite: perf builds"
			skip_tests "$suite" "no build"; continue
		fi
		if [ "$suite" = series ]; then
			ktap_print_msg "series: elfutils 0.192 + $(ls "$TOP"/patches/elfutils/*/[0-9]*.patch | grep -vc /0000-) patches, as 0.197"
		else
			ktap_print_msg "$suite: $(tr '\n' ' ' <"$WORK/elfutils-$suite/.done")"
		fi
		ktap_test_pass "elfutils $suite: perf builds"
		run_tests "$suite" in_host
	fi
done
if [ "${ELFUTILS_MAKE_CHECK:-0}" = 1 ]; then
	if "$TOP/scripts/elfutils-src.sh" check; then
		ktap_print_msg "$(grep -E '^# (TOTAL|PASS|SKIP|FAIL|XFAIL|ERROR)' "$WORK/elfutils-obj/tests/test-suite.log" | tr '\n' ' ')"
		ktap_test_pass "elfutils' make check with the elfutils series"
	else
		ktap_print_msg "$(grep -E '^(FAIL|ERROR):' "$WORK/elfutils-obj/tests/test-suite.log" | head -20)"
		ktap_test_fail "elfutils' make check with the elfutils series"
	fi
fi
ktap_finished
