#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf script source lines kept in the build-id cache

# The first perf script of a recording keeps the source lines and inline
# frames it found in the program's build-id cache entry (srclines); the
# next one takes them from there, without the program's debug info, and
# both print what perf script prints without a build-id cache. A damaged
# file or one of another build is not read and is replaced, perf processes
# writing it at once leave one whole file, inline frames asked for after
# the lines alone are found, perf report keeps and reads them as perf
# script does, a read-only cache keeps none and prints the same lines, and
# buildid.srclines = false neither reads nor keeps them.

err=0
test_dir=$(mktemp -d /tmp/perf-test-srcline-kept.XXXXXXXXXX)

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
if ! command -v "${CC:-cc}" > /dev/null || ! command -v objcopy > /dev/null; then
	echo "Skip: no C compiler or objcopy"
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

static __attribute__((noinline)) void parent(int b)
{
	leaf(b);
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

# The program's frames: function and source line, counted.
lines() {	# perf options
	perf "$@" script -i "${data}" -F ip,sym,srcline --inline 2> /dev/null |
		awk '/^[ \t]+[0-9a-f]+ / { sym = $2; next }
		     /a\.c:/ { print sym, $1, $2 }' | sort | uniq -c
}

fail() {
	echo "Error: $*"
	err=1
}

check() {	# what, perf options
	local what=$1

	shift
	lines "$@" > "${test_dir}/out"
	if cmp -s "${test_dir}/ref" "${test_dir}/out"; then
		echo "${what}: ok"
		return
	fi
	fail "${what}: source lines differ from those without a build-id cache:"
	diff "${test_dir}/ref" "${test_dir}/out"
}

if ! "${CC:-cc}" -O2 -g -o "${prog}" "${test_dir}/a.c" ||
   ! "${CC:-cc}" -O1 -g -o "${test_dir}/other" "${test_dir}/a.c"; then
	echo "Skip: failed to build the workload"
	exit 2
fi
if ! perf --buildid-dir "${cache}" record -e task-clock:u -o "${data}" \
		-- "${prog}" 2> /dev/null; then
	echo "Skip: perf record failed"
	exit 2
fi
bid=$(perf buildid-list -i "${data}" 2> /dev/null | awk -v p="${prog}" '$2 == p { print $1 }')
entry="${cache}/.build-id/${bid:0:2}/${bid:2}"
kept="${entry}/srclines"
if [ -z "${bid}" ] || [ ! -d "${entry}" ]; then
	echo "Skip: perf record made no build-id cache entry for the workload"
	exit 2
fi

mkdir -p "${test_dir}/empty"
lines --buildid-dir "${test_dir}/empty" > "${test_dir}/ref"
if ! grep -q "a\.c:" "${test_dir}/ref"; then
	echo "Error: no source lines without a build-id cache"
	exit 1
fi
[ -e "${test_dir}/empty/.build-id" ] && fail "source lines kept without a cache entry"

check "first run" --buildid-dir "${cache}"
[ -s "${kept}" ] || fail "no source lines kept in the build-id cache"
cp "${kept}" "${test_dir}/kept"

# The second run reads no DWARF: the program and its cache copy without it.
cp "${prog}" "${test_dir}/prog.full"
cp "${entry}/elf" "${test_dir}/elf.full"
objcopy --strip-debug "${prog}"
objcopy --strip-debug "${entry}/elf"
perf --buildid-dir "${cache}" script -v -i "${data}" -F ip,sym,srcline --inline \
	> /dev/null 2> "${test_dir}/log"
grep -q "source lines of .* read from ${kept}" "${test_dir}/log" ||
	fail "the second run did not read the kept source lines"
check "second run, no debug info" --buildid-dir "${cache}"
cmp -s "${test_dir}/kept" "${kept}" || fail "the second run rewrote the kept source lines"
cp "${test_dir}/prog.full" "${prog}"
cp "${test_dir}/elf.full" "${entry}/elf"

# Torn: not read, made again.
truncate -s $(($(stat -c %s "${kept}") - 9)) "${kept}"
check "truncated file" --buildid-dir "${cache}"
cmp -s "${test_dir}/kept" "${kept}" || fail "the truncated file was not made again"

# Another build's: not read, replaced.
perf --buildid-dir "${test_dir}/other.cache" record -e task-clock:u -o "${test_dir}/other.data" \
	-- "${test_dir}/other" > /dev/null 2>&1
perf --buildid-dir "${test_dir}/other.cache" script -i "${test_dir}/other.data" \
	-F ip,sym,srcline --inline > /dev/null 2>&1
obid=$(perf buildid-list -i "${test_dir}/other.data" 2> /dev/null |
       awk -v p="${test_dir}/other" '$2 == p { print $1 }')
other="${test_dir}/other.cache/.build-id/${obid:0:2}/${obid:2}/srclines"
if [ -s "${other}" ]; then
	cp "${other}" "${kept}"
	check "file of another build" --buildid-dir "${cache}"
	cmp -s "${test_dir}/kept" "${kept}" || fail "another build's file was not replaced"
else
	fail "no source lines kept for the other build"
fi

# Garbage in the middle: not read, replaced.
size=$(stat -c %s "${kept}")
dd if=/dev/urandom of="${kept}" bs=1 seek=64 count=$((size - 64)) conv=notrunc 2> /dev/null
check "damaged file" --buildid-dir "${cache}"

# The lines alone first, then inline frames: found in the DWARF.
rm -f "${kept}"
perf --buildid-dir "${cache}" script -i "${data}" -F ip,sym,srcline > /dev/null 2>&1
[ -s "${kept}" ] || fail "no source lines kept without inline frames"
check "inline frames after the lines" --buildid-dir "${cache}"
cmp -s "${test_dir}/kept" "${kept}" || fail "the inline frames were not kept"

# perf report keeps them too, and reads them.
rm -f "${kept}"
perf --buildid-dir "${cache}" report -i "${data}" --stdio --sort srcline \
	> "${test_dir}/report.1" 2>&1
[ -s "${kept}" ] || fail "perf report kept no source lines"
perf --buildid-dir "${cache}" report -i "${data}" --stdio --sort srcline \
	> "${test_dir}/report.2" 2>&1
cmp -s "${test_dir}/report.1" "${test_dir}/report.2" ||
	fail "perf report prints other source lines from the kept ones"

# Four at once: one whole file, no temporary file left.
rm -f "${kept}"
for i in 1 2 3 4; do
	lines --buildid-dir "${cache}" > "${test_dir}/out.$i" &
done
wait
for i in 1 2 3 4; do
	cmp -s "${test_dir}/ref" "${test_dir}/out.$i" ||
		fail "concurrent run $i: source lines differ"
done
cmp -s "${test_dir}/kept" "${kept}" || fail "concurrent runs left no whole file"
ls "${kept}".* > /dev/null 2>&1 && fail "temporary files left"

# A read-only cache: the lines, no file (root writes through permissions:
# a read-only bind mount in a mount namespace of its own).
rm -f "${kept}"
if [ "$(id -u)" != 0 ]; then
	chmod a-w "${entry}"
	check "read-only cache" --buildid-dir "${cache}"
	chmod u+w "${entry}"
elif unshare -m true 2> /dev/null; then
	export -f lines
	export data
	unshare -m bash -c "mount --bind -o ro '$(cd "${entry}" && pwd -P)' '${entry}' &&
		lines --buildid-dir '${cache}'" > "${test_dir}/out"
	if cmp -s "${test_dir}/ref" "${test_dir}/out"; then
		echo "read-only cache: ok"
	else
		fail "read-only cache: source lines differ"
	fi
else
	echo "read-only cache: skipped (no mount namespace)"
fi
[ -e "${kept}" ] && fail "source lines kept in a read-only cache"

# Off: neither read nor kept.
rm -f "${kept}"
cat > "${test_dir}/config" << _EOF
[buildid]
	dir = ${cache}
	srclines = false
_EOF
PERF_CONFIG="${test_dir}/config" check "buildid.srclines = false"
[ -e "${kept}" ] && fail "source lines kept with buildid.srclines = false"

exit ${err}
