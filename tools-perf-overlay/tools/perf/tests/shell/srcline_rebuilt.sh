#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf script source lines of a binary rebuilt after the recording

# The recorded binary's source lines and inline frames, from its build-id
# cache copy, when the file at its path was rebuilt from another source
# after perf record: as perf script printed them before the rebuild. With no
# copy in the build-id cache, none: the file at the path is another build.

err=0
test_dir=$(mktemp -d /tmp/perf-test-srcline-rebuilt.XXXXXXXXXX)
perf_data="${test_dir}/perf.data"
buildid_dir="${test_dir}/buildid"

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

# leaf() inlined into parent(), past the first 64 KiB of the binary.
write_source() {	# blank lines at the top
	for _ in $(seq "$1"); do echo; done
	cat << _EOF
#include <time.h>

asm(".text; .skip 0x11000");

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
}

build() {
	write_source "$1" > "${test_dir}/a.c" &&
	"${CC:-cc}" -O2 -g -o "${test_dir}/prog" "${test_dir}/a.c"
}

lines() {	# build-id cache
	perf --buildid-dir "${1:-${buildid_dir}}" script -i "${perf_data}" -F ip,sym,srcline \
			2> /dev/null |
		grep -o 'a\.c:[0-9]*.*' | sort | uniq -c
}

if ! build 0; then
	echo "Skip: failed to build the workload"
	exit 2
fi
if ! perf --buildid-dir "${buildid_dir}" record -e task-clock:u -o "${perf_data}" \
		-- "${test_dir}/prog" 2> /dev/null; then
	echo "Skip: perf record failed"
	exit 2
fi
lines > "${test_dir}/before"
if ! grep -q . "${test_dir}/before"; then
	echo "Error: no source line of the program in:"
	perf --buildid-dir "${buildid_dir}" script -i "${perf_data}" -F ip,sym,srcline | head -20
	exit 1
fi

# The same program four lines further down.
if ! build 4; then
	echo "Error: failed to rebuild the workload"
	exit 1
fi
lines > "${test_dir}/after"
if ! cmp -s "${test_dir}/before" "${test_dir}/after"; then
	echo "Error: source lines after the rebuild differ from the recorded binary's:"
	diff "${test_dir}/before" "${test_dir}/after"
	err=1
fi
mkdir "${test_dir}/empty"
lines "${test_dir}/empty" > "${test_dir}/after"
if grep -q . "${test_dir}/after"; then
	echo "Error: source lines of the rebuilt binary, not the recorded one:"
	cat "${test_dir}/after"
	err=1
fi
exit $err
