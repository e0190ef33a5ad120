#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf report inline frames without their source lines

# perf report by function, without a srcline key, shows no source line of
# an inline frame and looks inline frames up without them: it lists the
# same inline frames as when the lines are shown, keeps no line in the
# build-id cache, and a later perf script, which prints the lines, finds
# them in the DWARF, not in what perf report kept. perf script without
# -F srcline looks them up without the lines too.

err=0
# The user's perfconfig (buildid.srclines, call-graph.sort-key, a sort
# order with srcline, addr2line.style) would change what is looked up.
export PERF_CONFIG=/dev/null
# No debug info downloaded for the system's libraries in some runs only.
export DEBUGINFOD_URLS=
test_dir=$(mktemp -d /tmp/perf-test-report-inline-nolines.XXXXXXXXXX)

cleanup() {
	rm -rf "${test_dir}"
	trap - EXIT TERM INT
}

trap_cleanup() {
	cleanup
	exit 1
}
trap cleanup EXIT
trap trap_cleanup TERM INT

if ! perf check feature -q dwarf; then
	echo "Skip: libdw is not built in"
	exit 2
fi
if ! command -v "${CC:-cc}" > /dev/null; then
	echo "Skip: no C compiler"
	exit 2
fi

cat > "${test_dir}/a.c" << _EOF
#include <time.h>

static volatile int a;

static inline __attribute__((always_inline)) void leaf(int b)
{
	for (int i = 0; i < 1000; i++)
		a += b;
}

static inline __attribute__((always_inline)) void middle(int b)
{
	leaf(b);
	leaf(b + 1);
}

static __attribute__((noinline)) void parent(int b)
{
	middle(b);
}

int main(void)
{
	time_t end = time(NULL) + 2;

	while (time(NULL) < end)
		parent(1);
	return 0;
}
_EOF

cache="${test_dir}/cache"
data="${test_dir}/perf.data"
prog="${test_dir}/prog"

fail() {
	echo "Error: $*"
	err=1
}

# The report's entries of the workload's functions, sorted (the call
# chains' key orders entries of equal overhead otherwise).
entries() {	# build-id cache, perf report options
	local dir=$1

	shift
	perf --buildid-dir "${dir}" report -i "${data}" -q --stdio --children \
		--sort sym "$@" 2> /dev/null |
		grep -E '^ +[0-9.]+%.*\[\.\] (main|parent|middle|leaf)\b' | sort
}

# perf script's frames: function and source line, counted.
lines() {	# perf options
	perf "$@" script -i "${data}" -F ip,sym,srcline --inline 2> /dev/null |
		awk '/^[ \t]+[0-9a-f]+ / { sym = $2; next }
		     /a\.c:/ { print sym, $1, $2 }' | sort | uniq -c
}

# perf script's default output: the frames of the workload's functions.
frames() {	# build-id cache
	perf --buildid-dir "$1" script -i "${data}" 2> /dev/null |
		grep -E ' (main|parent|middle|leaf)[^ ]*\+0x'
}

if ! "${CC:-cc}" -O2 -g -fno-omit-frame-pointer -o "${prog}" "${test_dir}/a.c"; then
	echo "Skip: failed to build the workload"
	exit 2
fi
if ! perf --buildid-dir "${cache}" record -e task-clock:u -g -o "${data}" \
		-- "${prog}" 2> /dev/null; then
	echo "Skip: perf record failed"
	exit 2
fi
bid=$(perf buildid-list -i "${data}" 2> /dev/null | awk -v p="${prog}" '$2 == p { print $1 }')
kept="${cache}/.build-id/${bid:0:2}/${bid:2}/srclines"
if [ -z "${bid}" ] || [ ! -d "${cache}/.build-id/${bid:0:2}/${bid:2}" ]; then
	echo "Skip: perf record made no build-id cache entry for the workload"
	exit 2
fi

# A cache for perf script's first run, as perf record left it.
cp -a "${cache}" "${test_dir}/cache2"
kept2="${test_dir}/cache2/.build-id/${bid:0:2}/${bid:2}/srclines"

mkdir -p "${test_dir}/empty"
entries "${test_dir}/empty" -g none > "${test_dir}/byfunc"
entries "${test_dir}/empty" -g graph,0.5,caller,srcline > "${test_dir}/byline"
lines --buildid-dir "${test_dir}/empty" > "${test_dir}/ref"
if [ ! -s "${test_dir}/ref" ]; then
	echo "Error: perf script printed no source line of the workload"
	exit 1
fi
if ! grep -q "middle (inlined)" "${test_dir}/byline" ||
   ! grep -q "leaf (inlined)" "${test_dir}/byline"; then
	echo "Error: no inline frames with their source lines"
	cat "${test_dir}/byline"
	exit 1
fi
if cmp -s "${test_dir}/byfunc" "${test_dir}/byline"; then
	echo "by function: the same inline frames: ok"
else
	fail "by function, other entries than with the source lines:"
	diff "${test_dir}/byline" "${test_dir}/byfunc"
fi

# What perf report by function keeps names no source file.
entries "${cache}" -g none > "${test_dir}/out"
cmp -s "${test_dir}/byfunc" "${test_dir}/out" || fail "first run with a build-id cache differs"
if [ ! -s "${kept}" ]; then
	fail "perf report kept no inline frames"
elif grep -q "a\.c" "${kept}"; then
	fail "perf report by function looked source lines up"
else
	echo "kept without source lines: ok"
fi
perf --buildid-dir "${cache}" report -v -i "${data}" --stdio --children --sort sym -g none \
	2>&1 > /dev/null | grep -q "source lines of .* read from ${kept}" ||
	fail "the second run did not read the kept frames"
entries "${cache}" -g none > "${test_dir}/out"
cmp -s "${test_dir}/byfunc" "${test_dir}/out" || fail "second run from the kept frames differs"

# perf script then prints the lines, and keeps them.
lines --buildid-dir "${cache}" > "${test_dir}/out"
if cmp -s "${test_dir}/ref" "${test_dir}/out"; then
	echo "perf script after perf report: ok"
else
	fail "perf script after perf report prints other source lines:"
	diff "${test_dir}/ref" "${test_dir}/out"
fi
grep -q "a\.c" "${kept}" || fail "perf script kept no source lines"
entries "${cache}" -g graph,0.5,caller,srcline > "${test_dir}/out"
cmp -s "${test_dir}/byline" "${test_dir}/out" || fail "perf report by source line differs"

# perf script without -F srcline prints no source line either: its first
# run keeps the inline frames without them and prints what perf script
# prints from the kept lines.
frames "${test_dir}/cache2" > "${test_dir}/script"
frames "${cache}" > "${test_dir}/out"
if ! grep -q "middle+0x[0-9a-f]* (inlined)" "${test_dir}/script"; then
	fail "perf script printed no inline frame"
elif [ ! -s "${kept2}" ]; then
	fail "perf script kept no inline frames"
elif grep -q "a\.c" "${kept2}"; then
	fail "perf script without -F srcline looked source lines up"
elif ! cmp -s "${test_dir}/out" "${test_dir}/script"; then
	fail "perf script without source lines prints other frames:"
	diff "${test_dir}/out" "${test_dir}/script" | head -20
else
	echo "perf script without source lines: ok"
fi

exit $err
