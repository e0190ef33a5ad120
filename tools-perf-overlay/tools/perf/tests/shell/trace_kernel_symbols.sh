#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf trace resolves kernel addresses to symbols (exclusive)

# perf trace makes its kernel maps from /proc/kallsyms only when it first
# resolves a kernel address. Check the three kinds: a kernel callchain of
# a syscall, the function pointer of a tracepoint printed by
# libtraceevent, and the location of a page fault taken in the kernel.

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
# With kernel.kptr_restrict even root may see no kernel address.
if ! awk '$1 !~ /^0+$/ { found = 1; exit } END { exit !found }' /proc/kallsyms; then
	echo "Skip: /proc/kallsyms shows no kernel address (kernel.kptr_restrict)"
	exit 2
fi

err=0
output=$(mktemp /tmp/perf-trace-ksyms.XXXXXX)

cleanup() {
	rm -f "${output}"
	trap - EXIT TERM INT
}

trap_cleanup() {
	echo "Unexpected signal in ${FUNCNAME[1]}"
	cleanup
	exit 1
}
trap trap_cleanup EXIT TERM INT

# The default output, not the user's perf config.
export PERF_CONFIG=/dev/null

# trace "description" "regex" perf trace arguments...
check() {
	local what=$1 regex=$2

	shift 2
	if ! perf trace -o "${output}" "$@" > /dev/null 2>&1; then
		echo "${what}: perf trace $* failed"
		err=1
	elif ! grep -q -E "${regex}" "${output}"; then
		echo "${what}: no '${regex}' in the output of perf trace $*:"
		head -40 "${output}"
		err=1
	fi
}

check "kernel callchain" '^ +[A-Za-z_][A-Za-z0-9_.]* \(\[kernel\.kallsyms\]\)$' \
	--kernel-syscall-graph --call-graph fp -e execve -- true
# The timers sleep starts, e.g. hrtimer_wakeup: a name, not 0x...
check "tracepoint function pointer" 'timer:hrtimer_start\(.*function=[A-Za-z_][A-Za-z0-9_.]* ' \
	--no-syscalls --libtraceevent_print -e timer:hrtimer_start -- sleep 0.01
# A fault taken in the kernel (level k) at a kernel function, e.g. while
# exec loads the binary or copies to user memory.
check "page fault in the kernel" 'fault \[[A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+\] => .*\(.k\)$' \
	--no-syscalls -F all -- true

cleanup
exit $err
