#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf top annotate of a binary rebuilt under it (exclusive)

# perf top loads a program's symbols, and reads its build-id, on the first
# sample in it. A rebuild then replaces the file at its path while the process
# runs the old code. Annotating a function afterwards must not disassemble the
# new file, which has other code at the function's addresses: perf says the
# file is another build.

err=0
test_dir=$(mktemp -d /tmp/perf-test-annotate-rebuilt.XXXXXXXXXX)
prog="${test_dir}/prog"
keys="${test_dir}/keys"
out="${test_dir}/out"
prog_pid=
top_pid=

cleanup() {
	[ -n "${top_pid}" ] && kill "${top_pid}" 2> /dev/null
	[ -n "${prog_pid}" ] && kill "${prog_pid}" 2> /dev/null
	exec 3>&- 2> /dev/null
	wait 2> /dev/null
	rm -rf "${test_dir}"
	trap - EXIT TERM INT
}

trap_cleanup() {
	cleanup
	exit 1
}
trap cleanup EXIT
trap trap_cleanup TERM INT

if ! command -v "${CC:-cc}" > /dev/null; then
	echo "Skip: no C compiler"
	exit 2
fi

# phase_one() until the file named by argv[1] exists, then phase_two(); the
# rebuild subtracts in phase_two() what the recorded build adds.
write_source() {	# phase_two's operation
	cat << _EOF
#include <unistd.h>

static volatile int a;

__attribute__((noinline)) void phase_one(void)
{
	for (int i = 0; i < 1000; i++)
		a += 1;
}

__attribute__((noinline)) void phase_two(void)
{
	for (int i = 0; i < 1000; i++)
		a $1 2;
}

int main(int argc, char **argv)
{
	while (argc > 1 && access(argv[1], F_OK))
		for (int i = 0; i < 1000; i++)
			phase_one();
	for (;;)
		phase_two();
}
_EOF
}

if ! write_source "+=" > "${test_dir}/a.c" ||
   ! "${CC:-cc}" -O2 -o "${prog}" "${test_dir}/a.c" ||
   ! write_source "-=" > "${test_dir}/b.c" ||
   ! "${CC:-cc}" -O2 -o "${test_dir}/prog.new" "${test_dir}/b.c"; then
	echo "Skip: failed to build the workload"
	exit 2
fi

# Waits up to 30 s for perf top's output to match $1.
wait_for() {
	for _ in $(seq 300); do
		grep -a -q "$1" "${out}" && return 0
		kill -0 "${top_pid}" 2> /dev/null || return 1
		sleep 0.1
	done
	return 1
}

"${prog}" "${test_dir}/go" &
prog_pid=$!
mkfifo "${keys}"
perf --buildid-dir "${test_dir}/cache" top --stdio -d 1 -e cpu-clock -p "${prog_pid}" \
	< "${keys}" > "${out}" 2>&1 &
top_pid=$!
exec 3> "${keys}"

if ! wait_for "phase_one"; then
	echo "Skip: perf top showed no sample of the workload"
	head -n 20 "${out}"
	exit 2
fi
# The rebuild, then the old code's phase_two().
mv "${test_dir}/prog.new" "${prog}"
touch "${test_dir}/go"
if ! wait_for "phase_two"; then
	echo "Error: perf top showed no sample of phase_two"
	exit 1
fi
# Annotate it: 's', then the symbol's name.
printf 's' >&3
sleep 0.5
printf 'phase_two\n' >&3
if ! wait_for "annotate phase_two\|Disassembly of"; then
	echo "Error: perf top did not annotate phase_two"
	err=1
elif ! grep -a -q "annotate phase_two: .*another build" "${out}"; then
	echo "Error: perf top annotated another build of phase_two:"
	grep -a -A10 "Disassembly of" "${out}" | head -n 12
	err=1
else
	echo "perf top refuses the rebuilt file: ok"
fi
printf 'q' >&3
exit $err
