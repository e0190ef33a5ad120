#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf trace prints the struct arguments of each event with BTF (exclusive)

# perf trace prints struct arguments with one BTF dumper for the whole
# session: each event's struct must still come out whole, with its own
# type's name and its own values, when events of two struct types
# alternate.

# shellcheck source=lib/probe.sh
. "$(dirname "$0")"/lib/probe.sh

if ! skip_if_no_perf_trace; then
	echo "Skip: perf trace is not built in"
	exit 2
fi
if [ "$(id -u)" != 0 ]; then
	echo "Skip: not root"
	exit 2
fi
# The struct's bytes come from the BPF augmenter.
if ! perf check feature -q bpf_skeletons; then
	echo "Skip: no BPF skeletons"
	exit 2
fi
if [ ! -f /sys/kernel/btf/vmlinux ]; then
	echo "Skip: no vmlinux BTF"
	exit 2
fi
CC=${CC:-cc}
if ! command -v "$CC" > /dev/null; then
	echo "Skip: no C compiler"
	exit 2
fi

err=0
tmpdir=$(mktemp -d /tmp/perf-test-trace-btf.XXXXXX)

cleanup() {
	rm -rf "${tmpdir}"
	trap - EXIT TERM INT
}

trap_cleanup() {
	echo "Unexpected signal in ${FUNCNAME[1]}"
	cleanup
	exit 1
}
trap trap_cleanup EXIT TERM INT

# Five sleeps of 1001..1005 ns, each after a set_robust_list() with a
# futex_offset of 1..5 (an empty list: nothing for the kernel to walk).
cat > "${tmpdir}/structs.c" << EOF
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static struct robust_list_head head;

int main(void)
{
	head.list.next = &head.list;
	for (long i = 1; i <= 5; i++) {
		struct timespec ts = { .tv_sec = 0, .tv_nsec = 1000 + i };

		head.futex_offset = i;
		syscall(SYS_set_robust_list, &head, sizeof(head));
		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
	}
	return 0;
}
EOF
if ! "$CC" -O1 -o "${tmpdir}/structs" "${tmpdir}/structs.c"; then
	echo "Skip: could not build the workload"
	cleanup
	exit 2
fi

# The default output, not the user's perf config.
export PERF_CONFIG=/dev/null
if ! perf trace --force-btf -e set_robust_list,clock_nanosleep \
		-o "${tmpdir}/out" -- "${tmpdir}/structs"; then
	echo "perf trace failed"
	cleanup
	exit 1
fi

# The workload's own calls: glibc's set_robust_list at start-up comes first.
nsec=$(grep -o 'clock_nanosleep(.*rqtp: (struct [a-z_]*){\.tv_nsec = ([a-z ]*)[0-9]*,}' \
	"${tmpdir}/out" | sed 's/.*)\([0-9]*\),}$/\1/' | tr '\n' ' ')
list='{\.list = (struct robust_list){\.next = (struct robust_list \*)0x[0-9a-f]*,}'
head="set_robust_list(head: (struct robust_list_head)${list}"
offset=$(grep -o "${head},\.futex_offset = ([a-z ]*)[0-9]*,}" \
	"${tmpdir}/out" | sed 's/.*)\([0-9]*\),}$/\1/' | tail -n 5 | tr '\n' ' ')
if [ "${nsec}" != "1001 1002 1003 1004 1005 " ] || [ "${offset}" != "1 2 3 4 5 " ]; then
	echo "struct arguments: clock_nanosleep '${nsec}', set_robust_list '${offset}', output:"
	cat "${tmpdir}/out"
	err=1
fi

cleanup
exit $err
