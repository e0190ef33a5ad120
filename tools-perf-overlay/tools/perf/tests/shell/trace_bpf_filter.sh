#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf trace BPF augmenter with and without a syscall filter (exclusive)

# Without -e every syscall goes out, the augmented ones with their strings;
# with -e only the syscalls asked for, with ! all but those.

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

err=0
file=$(mktemp /tmp/perf-trace-filter.XXXXXX)
perf_config_tmp=$(mktemp /tmp/.perfconfig_XXXXX)
output=$(mktemp /tmp/perf-trace-filter-out.XXXXXX)

cleanup() {
	rm -f "${file}" "${perf_config_tmp}" "${output}"
	trap - EXIT TERM INT
}

trap_cleanup() {
	echo "Unexpected signal in ${FUNCNAME[1]}"
	cleanup
	exit 1
}
trap trap_cleanup EXIT TERM INT

export PERF_CONFIG=${perf_config_tmp}
perf config trace.show_arg_names=false trace.show_duration=false \
	trace.show_timestamp=false trace.args_alignment=0

echo "perf trace filter test" > "${file}"

# trace "filter" "description" then expectations: +regex must be there,
# -regex must not
check() {
	local filter=$1 what=$2

	shift 2
	if ! perf trace ${filter:+-e "$filter"} -o "${output}" -- cat "${file}" > /dev/null
	then
		echo "perf trace ${what} failed"
		err=1
		return
	fi
	# The comm is ":tid" where an event comes before cat's COMM event.
	for want in "$@"; do
		case $want in
		+*) grep -q -E "^(cat|:[0-9]+)/[0-9]+ ${want#+}" "${output}" && continue ;;
		-*) grep -q -E "^(cat|:[0-9]+)/[0-9]+ ${want#-}" "${output}" || continue ;;
		esac
		echo "perf trace ${what}: expected ${want} in:"
		cat "${output}"
		err=1
	done
}

check "" "of every syscall" "+openat\(.*\"${file}\"" "+read\(" "+close\("
check "openat" "-e openat" "+openat\(.*\"${file}\"" "-read\(" "-close\("
check "!openat" "-e !openat" "-openat\(" "+read\(" "+close\("

cleanup
exit $err
