#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf annotate source lines after a long function without any

# The LLVM disassembler asks for the source line of each instruction. A
# function without line info (built without -g) of more instructions
# than the misses srcline allows must not take the source lines of the
# rest of the binary away: the -g function annotated after it keeps them.

err=0
test_dir=$(mktemp -d /tmp/perf-test-annotate-insn-lines.XXXXXXXXXX)
perf_data="${test_dir}/perf.data"

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

if ! perf version --build-options | grep -q 'libLLVM: \[ on'; then
	echo "Skip: perf is built without LLVM"
	exit 2
fi
if ! command -v "${CC:-cc}" > /dev/null; then
	echo "Skip: no C compiler"
	exit 2
fi

# big(): 300 statements, no line info; withlines(): with -g.
{
	echo "__attribute__((noinline)) unsigned long big(unsigned long x)"
	echo "{"
	for i in $(seq 300); do echo "	x = x * $((i + 2)) + (x >> $((i % 13 + 1)));"; done
	echo "	return x;"
	echo "}"
} > "${test_dir}/nolines.c"
cat > "${test_dir}/main.c" << _EOF
#include <time.h>

unsigned long big(unsigned long x);
static volatile unsigned long a;

__attribute__((noinline)) void withlines(int n)
{
	for (int i = 0; i < n; i++)
		a += i * 3;
}

int main(void)
{
	time_t end = time(NULL) + 2;

	while (time(NULL) < end) {
		a += big(a);
		withlines(30);
	}
	return 0;
}
_EOF
if ! "${CC:-cc}" -O1 -c -o "${test_dir}/nolines.o" "${test_dir}/nolines.c" ||
   ! "${CC:-cc}" -O1 -g -c -o "${test_dir}/main.o" "${test_dir}/main.c" ||
   ! "${CC:-cc}" -o "${test_dir}/prog" "${test_dir}/main.o" "${test_dir}/nolines.o"; then
	echo "Skip: failed to build the workload"
	exit 2
fi
if ! perf record -e task-clock:u -o "${perf_data}" -- "${test_dir}/prog" 2> /dev/null; then
	echo "Skip: perf record failed"
	exit 2
fi

printf '[annotate]\n\tdisassemblers = llvm\n' > "${test_dir}/perfconfig"
PERF_CONFIG="${test_dir}/perfconfig" perf annotate -i "${perf_data}" --stdio -l \
	> "${test_dir}/annotate" 2> /dev/null
if ! grep -q 'withlines' "${test_dir}/annotate"; then
	echo "Skip: no samples in withlines()"
	exit 2
fi
if ! grep -q 'main\.c:' "${test_dir}/annotate"; then
	echo "Error: no source line of main.c in perf annotate -l, after big():"
	grep -m 20 'withlines' "${test_dir}/annotate"
	err=1
fi
exit $err
