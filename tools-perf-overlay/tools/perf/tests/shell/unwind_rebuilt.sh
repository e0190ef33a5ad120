#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf script DWARF call chains of a binary rebuilt after the recording

# The unwinder reads the recorded binary's CFI, from its build-id cache
# copy, when the file at its path was rebuilt with its code elsewhere after
# perf record: the chains are those perf script printed before the rebuild.

err=0
test_dir=$(mktemp -d /tmp/perf-test-unwind-rebuilt.XXXXXXXXXX)
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
	echo "Skip: no DWARF unwinding built in"
	exit 2
fi
if ! command -v "${CC:-cc}" > /dev/null; then
	echo "Skip: no C compiler"
	exit 2
fi

# leaf() called through two frames without frame pointers; the rebuild
# puts 64 KiB more code in front of them.
write_source() {	# bytes of code in front
	cat << _EOF
#include <time.h>

asm(".text; .skip $1");

static volatile int a;

static __attribute__((noinline)) void leaf(int b)
{
	for (int i = 0; i < 1000; i++)
		a += b;
}

static __attribute__((noinline)) void middle(int b)
{
	leaf(b);
	a++;
}

static __attribute__((noinline)) void parent(int b)
{
	middle(b);
	a++;
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
	"${CC:-cc}" -O2 -g -fomit-frame-pointer -o "${test_dir}/prog" "${test_dir}/a.c"
}

chains() {	# [build-id cache]
	perf --buildid-dir "${1:-${buildid_dir}}" script -i "${perf_data}" -F ip,sym 2> /dev/null |
		awk 'NF == 0 { if (c != "") print c; c = ""; next } { c = c " " $2 }
		     END { if (c != "") print c }' | sort | uniq -c
}

if ! build 0x1000; then
	echo "Skip: failed to build the workload"
	exit 2
fi
if ! perf --buildid-dir "${buildid_dir}" record -e task-clock:u --call-graph dwarf \
		-o "${perf_data}" -- "${test_dir}/prog" 2> /dev/null; then
	echo "Skip: perf record failed"
	exit 2
fi
chains > "${test_dir}/before"
if ! grep -qE 'leaf[^ ]* middle[^ ]* parent[^ ]* main' "${test_dir}/before"; then
	echo "Error: no chain leaf middle parent main in:"
	head -20 "${test_dir}/before"
	exit 1
fi

if ! build 0x11000; then
	echo "Error: failed to rebuild the workload"
	exit 1
fi
chains > "${test_dir}/after"
if ! cmp -s "${test_dir}/before" "${test_dir}/after"; then
	echo "Error: call chains after the rebuild differ from the recorded binary's:"
	diff "${test_dir}/before" "${test_dir}/after" | head -20
	err=1
fi

# Without the build-id cache's copy the rebuilt file is not read either:
# the chains are those of a binary that is gone.
mv "${test_dir}/prog" "${test_dir}/prog.rebuilt"
chains "${test_dir}/empty" > "${test_dir}/gone"
mv "${test_dir}/prog.rebuilt" "${test_dir}/prog"
chains "${test_dir}/empty" > "${test_dir}/nocache"
if ! cmp -s "${test_dir}/gone" "${test_dir}/nocache"; then
	echo "Error: without the build-id cache, call chains unwound with the rebuilt binary's CFI:"
	diff "${test_dir}/gone" "${test_dir}/nocache" | head -20
	err=1
fi
exit $err
