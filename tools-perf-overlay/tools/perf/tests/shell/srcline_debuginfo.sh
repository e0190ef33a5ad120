#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf source lines from separate debug files

# The recorded binary's source lines and inline frames wherever its debug
# info is: the build-id cache alone (the binary gone, as after unpacking
# perf archive's tarball elsewhere), a debug file found through
# .gnu_debuglink, one found by build-id under --symfs, one downloaded from a
# debuginfod server on 127.0.0.1 into the build-id cache, and debug info that
# dwz moved partly to an alternate file. Each is compared with what perf
# script, perf report --sort srcline and perf annotate -l print for the
# unstripped binary. A program upgraded after the recording, with its debug
# file, must give no source lines at all where no copy of the recorded debug
# info is left: the new files describe other code.

err=0
test_dir=$(mktemp -d /tmp/perf-test-srcline-debuginfo.XXXXXXXXXX)
perf_data="${test_dir}/perf.data"
prog="${test_dir}/bin/prog"
debuginfod_pid=

cleanup() {
	[ -n "${debuginfod_pid}" ] && kill "${debuginfod_pid}" 2> /dev/null && wait
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

build() {	# blank lines, output
	write_source "$1" > "${test_dir}/a.c" &&
	"${CC:-cc}" -O2 -g -o "$2" "${test_dir}/a.c"
}

# A stripped copy of $1 as $2 and its debug info as $3; with -l, $2 names
# $3 in its .gnu_debuglink.
split_debug() {
	local link=

	if [ "$1" = "-l" ]; then
		link=1
		shift
	fi
	objcopy --only-keep-debug "$1" "$3" &&
	if [ -n "${link}" ]; then
		(cd "$(dirname "$3")" &&
		 objcopy --strip-all --add-gnu-debuglink="$(basename "$3")" "$1" "$2")
	else
		objcopy --strip-all "$1" "$2"
	fi
}

# The program's source lines as perf script (frames: function and source
# line, counted), perf report --sort srcline and perf annotate -l (its
# summaries of the program's lines) print them.
lines() {	# build-id cache, perf options
	local cache=$1

	shift
	perf --buildid-dir "${cache}" script -i "${perf_data}" -F ip,sym,srcline "$@" 2> /dev/null |
		awk '/^[ \t]+[0-9a-f]+ / { sym = $2; next }
		     /a\.c:/ { print sym, $1, $2 }' | sort | uniq -c
	echo "report:"
	perf --buildid-dir "${cache}" report -i "${perf_data}" --stdio -q -g none \
		--sort sym,srcline "$@" 2> /dev/null | awk '/a\.c:/ { $1 = $1; print }'
	echo "annotate:"
	perf --buildid-dir "${cache}" annotate -i "${perf_data}" --stdio -l "$@" 2> /dev/null |
		grep -E '^ +[0-9.]+ +a\.c:[0-9]+$'
}

check() {	# case, build-id cache, perf options
	local name=$1

	shift
	lines "$@" > "${test_dir}/out"
	if cmp -s "${test_dir}/ref" "${test_dir}/out"; then
		echo "${name}: ok"
		return
	fi
	echo "Error: ${name}: source lines differ from the unstripped binary's:"
	diff "${test_dir}/ref" "${test_dir}/out"
	err=1
}

mkdir -p "${test_dir}/bin" "${test_dir}/cache" "${test_dir}/empty"
if ! build 0 "${test_dir}/prog.orig"; then
	echo "Skip: failed to build the workload"
	exit 2
fi
cp "${test_dir}/prog.orig" "${prog}"
if ! perf --buildid-dir "${test_dir}/cache" record -g -e task-clock:u -o "${perf_data}" \
		-- "${prog}" 2> /dev/null; then
	echo "Skip: perf record failed"
	exit 2
fi
build_id=$(perf buildid-list -i "${perf_data}" 2> /dev/null |
	   awk -v p="${prog}" '$2 == p { print $1 }')
if [ -z "${build_id}" ]; then
	echo "Skip: no build-id recorded for the workload"
	exit 2
fi

lines "${test_dir}/empty" > "${test_dir}/ref"
if ! grep -q ' leaf a\.c:.*inlined' "${test_dir}/ref" ||
   ! grep -A1 '^report:' "${test_dir}/ref" | grep -q 'parent.*a\.c:' ||
   ! grep -A1 '^annotate:' "${test_dir}/ref" | grep -q 'a\.c:'; then
	echo "Error: no inline frame, report or annotate line of the program in:"
	cat "${test_dir}/ref"
	exit 1
fi

# The binary gone: its copy in a build-id cache unpacked elsewhere.
rm "${prog}"
cp -a "${test_dir}/cache" "${test_dir}/unpacked"
check "build-id cache only" "${test_dir}/unpacked"

# A stripped binary and its debug file named by .gnu_debuglink.
split_debug -l "${test_dir}/prog.orig" "${prog}" "${test_dir}/bin/prog.debug"
check ".gnu_debuglink" "${test_dir}/empty"
rm -f "${prog}" "${test_dir}/bin/prog.debug"

# A sysroot: the stripped binary and its debug file under .build-id.
root="${test_dir}/root"
debug_dir="${root}/usr/lib/debug/.build-id/${build_id:0:2}"
mkdir -p "${root}${test_dir}/bin" "${debug_dir}"
split_debug "${test_dir}/prog.orig" "${root}${prog}" "${debug_dir}/${build_id:2}.debug"
check "--symfs, debug file by build-id" "${test_dir}/empty" --symfs "${root}"

# The debug file from a debuginfod server, none on this machine.
if perf check feature -q debuginfod && command -v debuginfod > /dev/null &&
   command -v debuginfod-find > /dev/null; then
	mkdir -p "${test_dir}/served"
	split_debug "${test_dir}/prog.orig" "${prog}" "${test_dir}/served/prog.debug"
	port=$((20000 + RANDOM % 20000))
	debuginfod -d "${test_dir}/debuginfod.sqlite" -p "${port}" -F "${test_dir}/served" \
		> /dev/null 2>&1 &
	debuginfod_pid=$!
	export DEBUGINFOD_URLS="http://127.0.0.1:${port}"
	export DEBUGINFOD_CACHE_PATH="${test_dir}/debuginfod-client"
	# Until the server has scanned the directory; the client caches a miss.
	served=
	for _ in $(seq 60); do
		rm -rf "${DEBUGINFOD_CACHE_PATH}"
		if debuginfod-find debuginfo "${build_id}" > /dev/null 2>&1; then
			served=1
			break
		fi
		sleep 0.5
	done
	rm -rf "${DEBUGINFOD_CACHE_PATH}"
	# The debug file downloaded into the build-id cache, as perf record
	# --debuginfod does, then read with the server gone.
	mkdir -p "${test_dir}/fetched"
	[ -n "${served}" ] &&
		perf --buildid-dir "${test_dir}/fetched" buildid-cache \
			--debuginfod="${DEBUGINFOD_URLS}" -a "${prog}" 2> /dev/null
	kill "${debuginfod_pid}" 2> /dev/null
	wait "${debuginfod_pid}" 2> /dev/null
	debuginfod_pid=
	unset DEBUGINFOD_URLS DEBUGINFOD_CACHE_PATH
	rm -f "${prog}"
	if [ -n "${served}" ]; then
		check "debuginfod" "${test_dir}/fetched"
	else
		echo "debuginfod: skip, the server did not serve the debug file"
	fi
else
	echo "debuginfod: skip, no debuginfod server or support"
fi

# dwz: the DIEs two programs share in an alternate file of its own.
if command -v dwz > /dev/null; then
	cp "${test_dir}/prog.orig" "${prog}"
	build 0 "${test_dir}/bin/prog2"
	if dwz -m "${test_dir}/bin/common.debug" -M "${test_dir}/bin/common.debug" \
			"${prog}" "${test_dir}/bin/prog2" 2> /dev/null &&
	   [ -s "${test_dir}/bin/common.debug" ]; then
		check "dwz alternate file" "${test_dir}/empty"
	else
		echo "dwz: skip, dwz made no alternate file"
	fi
	rm -f "${prog}" "${test_dir}/bin/prog2" "${test_dir}/bin/common.debug"
else
	echo "dwz: skip, no dwz"
fi

# Upgraded after the recording, with its debug file: no build-id cache, no
# source lines.
build 4 "${test_dir}/prog.new"
split_debug -l "${test_dir}/prog.new" "${prog}" "${test_dir}/bin/prog.debug"
printf 'report:\nannotate:\n' > "${test_dir}/ref"
check "upgraded, no build-id cache" "${test_dir}/empty"

# A package upgraded under a recording of its stripped binary: the build-id
# cache has that binary, not its debug file, so no source lines either.
split_debug -l "${test_dir}/prog.orig" "${prog}" "${test_dir}/bin/prog.debug"
perf_data="${test_dir}/stripped.data"
if perf --buildid-dir "${test_dir}/stripped-cache" record -g -e task-clock:u \
		-o "${perf_data}" -- "${prog}" 2> /dev/null; then
	split_debug -l "${test_dir}/prog.new" "${prog}" "${test_dir}/bin/prog.debug"
	check "upgraded with its debug file, build-id cache" "${test_dir}/stripped-cache"
else
	echo "Error: perf record of the stripped program failed"
	err=1
fi
exit $err
