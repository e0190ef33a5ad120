#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf trace augments syscalls before tracefs is mounted (exclusive)

# In a mount namespace of its own without tracefs and debugfs, as after
# boot: the BPF augmenter must attach and perf trace print the filename
# of an openat().

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
if ! perf check feature -q bpf_skeletons; then
	echo "Skip: no BPF skeletons"
	exit 2
fi
if ! command -v unshare > /dev/null || ! command -v mountpoint > /dev/null; then
	echo "Skip: no unshare or mountpoint"
	exit 2
fi

file=$(mktemp /tmp/perf-trace-no-tracefs.XXXXXX)
output=$(mktemp /tmp/perf-trace-no-tracefs-out.XXXXXX)

cleanup() {
	rm -f "${file}" "${output}" "${output}.err"
	trap - EXIT TERM INT
}
trap cleanup EXIT TERM INT

# The same outside: augmenting must work here for the test to mean anything.
if ! perf trace -e openat -o "${output}" -- cat "${file}" > /dev/null 2>&1 ||
   ! grep -qF "\"${file}\"" "${output}"; then
	echo "Skip: perf trace augments no openat() here"
	exit 2
fi

# Every tracefs and debugfs goes, wherever mounted (a chroot's bind of
# /sys has them too): perf would take any of them, libbpf only looks in
# /sys/kernel/tracing and /sys/kernel/debug/tracing. Innermost first.
# shellcheck disable=SC2016
unshare -m --propagation private sh -c '
	awk "\$3 == \"tracefs\" || \$3 == \"debugfs\" { print \$2 }" /proc/self/mounts |
		sort -r | while read -r m; do umount "$m" || umount -l "$m"; done
	grep -qE "^[^ ]+ [^ ]+ (tracefs|debugfs) " /proc/self/mounts && exit 3
	exec perf trace -e openat -o "$2" -- cat "$1"' \
	sh "${file}" "${output}" > /dev/null 2> "${output}.err"
case $? in
0) ;;
3) echo "Skip: tracefs or debugfs stays mounted in a new mount namespace"; exit 2 ;;
*) echo "Error: perf trace failed:"; cat "${output}.err"; exit 1 ;;
esac

if ! grep -qF "\"${file}\"" "${output}"; then
	echo "Error: no augmented openat() of ${file} in:"
	cat "${output}" "${output}.err"
	exit 1
fi
exit 0
