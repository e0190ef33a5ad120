#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf script source lines from the build-id cache's uncompressed debug info

# A program whose debug info is compressed, in the program itself and in a
# separate debug file: the first perf script keeps the debug info
# uncompressed in the program's build-id cache entry, the next one reads
# it from there, and both print the source lines and inline frames perf
# script prints without a build-id cache. A damaged copy is removed and
# made again, one of another build is not read, perf processes making it at
# once leave one whole copy, and a read-only cache or a full quota
# (buildid.uncompressed-debug) leaves no copy and the same lines.

err=0
test_dir=$(mktemp -d /tmp/perf-test-srcline-uncompressed.XXXXXXXXXX)

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

static __attribute__((noinline)) void other(int b)
{
	leaf(b + 1);
}

int main(int argc, char **argv)
{
	time_t end = time(NULL) + 2;

	while (time(NULL) < end) {
		if (argc > 1)
			other(1);
		else
			parent(1);
	}
	return 0;
}
_EOF

# The program's frames: function and source line, counted.
lines() {	# case, perf options
	local name=$1

	shift
	perf "$@" script -i "${test_dir}/${name}.data" -F ip,sym,srcline --inline 2> /dev/null |
		awk '/^[ \t]+[0-9a-f]+ / { sym = $2; next }
		     /a\.c:/ { print sym, $1, $2 }' | sort | uniq -c
}

check() {	# case, what, perf options
	local name=$1 what=$2

	shift 2
	lines "${name}" "$@" > "${test_dir}/out"
	if cmp -s "${test_dir}/${name}.ref" "${test_dir}/out"; then
		echo "${name}: ${what}: ok"
		return
	fi
	echo "Error: ${name}: ${what}: source lines differ from those without a build-id cache:"
	diff "${test_dir}/${name}.ref" "${test_dir}/out"
	err=1
}

fail() {
	echo "Error: $*"
	err=1
}

# The uncompressed copy of the program's debug info in the cache: its path.
copy_of() {	# case
	local bid

	bid=$(perf buildid-list -i "${test_dir}/$1.data" 2> /dev/null |
	      awk -v p="${test_dir}/$1" '$2 == p { print $1 }')
	echo "${test_dir}/$1.cache/.build-id/${bid:0:2}/${bid:2}/debug.uncompressed"
}

# inline: debug info compressed in the program; split: in a separate debug
# file found through .gnu_debuglink, the program stripped.
if ! "${CC:-cc}" -O2 -g -o "${test_dir}/inline" "${test_dir}/a.c" ||
   ! objcopy --compress-debug-sections=zlib "${test_dir}/inline" ||
   ! "${CC:-cc}" -O2 -g -o "${test_dir}/split.full" "${test_dir}/a.c" ||
   ! "${CC:-cc}" -O1 -g -o "${test_dir}/other" "${test_dir}/a.c" ||
   ! objcopy --only-keep-debug --compress-debug-sections=zlib "${test_dir}/split.full" \
		"${test_dir}/split.debug" ||
   ! (cd "${test_dir}" && objcopy --strip-all --add-gnu-debuglink=split.debug \
		split.full split); then
	echo "Skip: failed to build the workload"
	exit 2
fi
if ! readelf -S "${test_dir}/split.debug" 2> /dev/null | grep -A1 '\.debug_info' |
		grep -q ' C '; then
	echo "Skip: objcopy did not compress the debug sections"
	exit 2
fi

# The source lines kept in the cache (buildid.srclines) would spare the
# later runs the DWARF: the copy is tested without them, then with them.
printf '[buildid]\n\tsrclines = false\n' > "${test_dir}/base-config"
export PERF_CONFIG="${test_dir}/base-config"

mkdir -p "${test_dir}/empty"
for name in inline split; do
	cache="${test_dir}/${name}.cache"
	if ! perf --buildid-dir "${cache}" record -e task-clock:u -o "${test_dir}/${name}.data" \
			-- "${test_dir}/${name}" 2> /dev/null; then
		echo "Skip: perf record failed"
		exit 2
	fi
	copy=$(copy_of "${name}")
	if [ ! -d "$(dirname "${copy}")" ]; then
		echo "Skip: perf record made no build-id cache entry for the workload"
		exit 2
	fi
	lines "${name}" --buildid-dir "${test_dir}/empty" > "${test_dir}/${name}.ref"
	if ! grep -q "a\.c:" "${test_dir}/${name}.ref"; then
		fail "${name}: no source lines without a build-id cache"
		continue
	fi

	check "${name}" "first run" --buildid-dir "${cache}"
	[ -s "${copy}" ] || fail "${name}: no uncompressed copy in the build-id cache"
	# What libdw read is inflated (a lazily inflating libdw leaves the rest).
	if readelf -SW "${copy}" 2> /dev/null | grep -E '\.debug_(info|line) ' |
			awk '{ print $(NF - 3) }' | grep -q C; then
		fail "${name}: .debug_info or .debug_line compressed in the copy"
	fi
	perf --buildid-dir "${cache}" script -v -i "${test_dir}/${name}.data" \
		-F ip,sym,srcline > /dev/null 2> "${test_dir}/log"
	grep -q "uncompressed from ${copy}" "${test_dir}/log" ||
		fail "${name}: the second run did not read the copy"
	check "${name}" "second run" --buildid-dir "${cache}"

	# Torn: made again.
	size=$(stat -c %s "${copy}")
	truncate -s $((size / 2)) "${copy}"
	check "${name}" "truncated copy" --buildid-dir "${cache}"
	[ "$(stat -c %s "${copy}" 2> /dev/null)" = "${size}" ] ||
		fail "${name}: the truncated copy was not made again"

	# Another build's copy: not read, replaced.
	cp "${test_dir}/other" "${copy}"
	check "${name}" "copy of another build" --buildid-dir "${cache}"
	cmp -s "${test_dir}/other" "${copy}" && fail "${name}: another build's copy kept"

	# Four at once: one whole copy, no temporary file left.
	rm -f "${copy}"
	for i in 1 2 3 4; do
		lines "${name}" --buildid-dir "${cache}" > "${test_dir}/out.$i" &
	done
	wait
	for i in 1 2 3 4; do
		cmp -s "${test_dir}/${name}.ref" "${test_dir}/out.$i" ||
			fail "${name}: concurrent run $i: source lines differ"
	done
	[ "$(stat -c %s "${copy}" 2> /dev/null)" = "${size}" ] ||
		fail "${name}: concurrent runs left no whole copy"
	ls "${copy}".* > /dev/null 2>&1 && fail "${name}: temporary files left"
	check "${name}" "copy made by concurrent runs" --buildid-dir "${cache}"

	# Over the quota: none kept.
	rm -f "${copy}"
	cat > "${test_dir}/config" << _EOF
[buildid]
	dir = ${cache}
	uncompressed-debug = 1K
	srclines = false
_EOF
	PERF_CONFIG="${test_dir}/config" check "${name}" "quota reached"
	[ -e "${copy}" ] && fail "${name}: a copy past buildid.uncompressed-debug"
done

# A read-only cache: the lines, no copy (root writes through permissions:
# a read-only bind mount in a mount namespace of its own).
copy=$(copy_of inline)
rm -f "${copy}"
entry=$(cd "$(dirname "${copy}")" && pwd -P)
if [ "$(id -u)" != 0 ]; then
	chmod a-w "${entry}"
	check inline "read-only cache" --buildid-dir "${test_dir}/inline.cache"
	chmod u+w "${entry}"
elif unshare -m true 2> /dev/null; then
	export -f lines
	export test_dir
	unshare -m bash -c "mount --bind -o ro '${entry}' '${entry}' &&
		lines inline --buildid-dir '${test_dir}/inline.cache'" > "${test_dir}/out"
	if cmp -s "${test_dir}/inline.ref" "${test_dir}/out"; then
		echo "inline: read-only cache: ok"
	else
		fail "inline: read-only cache: source lines differ"
	fi
else
	echo "inline: read-only cache: skipped (no mount namespace)"
fi
[ -e "${copy}" ] && fail "inline: a copy in a read-only cache"

# With the kept source lines (buildid.srclines): the first run keeps no
# copy, the next one that reads the DWARF again (a recording of the program
# running other code, whose lines were not kept) does.
split_copy=$(copy_of split)
rm -f "${split_copy}" "$(dirname "${split_copy}")/srclines"
printf '[buildid]\n\tsrclines = true\n' > "${test_dir}/srclines-config"
PERF_CONFIG="${test_dir}/srclines-config" check split "kept source lines" \
	--buildid-dir "${test_dir}/split.cache"
[ -e "${split_copy}" ] && fail "split: a copy made by the first run with buildid.srclines"
if perf --buildid-dir "${test_dir}/split.cache" record -e task-clock:u \
		-o "${test_dir}/other.data" -- "${test_dir}/split" other > /dev/null 2>&1; then
	PERF_CONFIG="${test_dir}/srclines-config" perf --buildid-dir "${test_dir}/split.cache" \
		script -i "${test_dir}/other.data" -F ip,sym,srcline --inline > /dev/null 2>&1
	[ -s "${split_copy}" ] || fail "split: no copy made by the run that read the DWARF again"
fi

# Removing the cache entry removes the copy; perf archive leaves it out.
lines inline --buildid-dir "${test_dir}/inline.cache" > /dev/null
# The tree's perf-archive.sh: perf archive runs the installed one.
archive=$(cd "$(dirname "$0")/../.." && pwd)/perf-archive.sh
if [ -e "${copy}" ] && command -v tar > /dev/null; then
	if [ -f "${archive}" ] && command -v bzip2 > /dev/null; then
		(cd "${test_dir}" && PERF_BUILDID_DIR="${test_dir}/inline.cache" \
			bash "${archive}" \
			inline.data > /dev/null 2>&1)
		[ -s "${test_dir}/inline.data.tar.bz2" ] ||
			fail "perf-archive.sh made no archive"
	fi
	if [ -s "${test_dir}/inline.data.tar.bz2" ]; then
		tar tjf "${test_dir}/inline.data.tar.bz2" | grep -q "/elf$" ||
			fail "perf archive left the program out"
		tar tjf "${test_dir}/inline.data.tar.bz2" | grep -q debug.uncompressed &&
			fail "perf archive packed the uncompressed copy"
	fi
	perf --buildid-dir "${test_dir}/inline.cache" buildid-cache \
		--purge "${test_dir}/inline" 2> /dev/null
	[ -e "${copy}" ] && fail "perf buildid-cache --purge left the copy"
fi

exit ${err}
