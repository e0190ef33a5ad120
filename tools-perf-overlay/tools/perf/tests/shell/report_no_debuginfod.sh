#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf report loads the debuginfod client only with DEBUGINFOD_URLS

# A library without debug info anywhere on disk makes libdwfl's standard
# debuginfo search fall through to debuginfod: it dlopens libdebuginfod
# (libcurl, gnutls...) even when no server is configured. perf report with
# inline frames on such a recording must not load it without
# DEBUGINFOD_URLS, and must still ask debuginfod when it is set (here a
# server that refuses the connection). glibc's LD_DEBUG=files tells which
# libraries were loaded.

perf check feature -q dwarf || { echo "Skip: no libdw"; exit 2; }
# Linked with perf, libdebuginfod is there from the start: nothing to see.
if perf check feature -q debuginfod; then
	echo "Skip: perf is linked with libdebuginfod"
	exit 2
fi
CC=${CC:-cc}
if ! command -v "$CC" > /dev/null; then
	echo "Skip: no C compiler"
	exit 2
fi

err=0
tmpdir=$(mktemp -d /tmp/perf-test-debuginfod.XXXXXX)

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

cat > "${tmpdir}/lib.c" << EOF
volatile unsigned long sink;

void spin(void)
{
	for (unsigned long i = 0; i < 100000000UL; i++)
		sink += i;
}
EOF
cat > "${tmpdir}/main.c" << EOF
void spin(void);

int main(void)
{
	spin();
	return 0;
}
EOF
# A build-id (the key debuginfod is asked with), no debug info, stripped.
if ! "$CC" -O1 -g0 -fPIC -shared -Wl,--build-id -s -o "${tmpdir}/libspin.so" \
		"${tmpdir}/lib.c" ||
   ! "$CC" -O1 -g0 -fno-omit-frame-pointer -o "${tmpdir}/spin" "${tmpdir}/main.c" \
		-L"${tmpdir}" -lspin -Wl,-rpath,"${tmpdir}"; then
	echo "Skip: cannot build the workload"
	cleanup
	exit 2
fi

if ! perf record -e cpu-clock -g -o "${tmpdir}/perf.data" -- "${tmpdir}/spin" \
		> /dev/null 2>&1; then
	echo "Skip: perf record failed"
	cleanup
	exit 2
fi

# debuginfod_loads [DEBUGINFOD_URLS]: how often libdebuginfod.so.1 was loaded
debuginfod_loads() {
	rm -f "${tmpdir}"/ld.*
	DEBUGINFOD_URLS=$1 DEBUGINFOD_TIMEOUT=1 DEBUGINFOD_CACHE_PATH="${tmpdir}/cache" \
		LD_DEBUG=files LD_DEBUG_OUTPUT="${tmpdir}/ld" \
		perf report -i "${tmpdir}/perf.data" --stdio > /dev/null 2>&1
	cat "${tmpdir}"/ld.* 2> /dev/null |
		grep -c 'file=libdebuginfod\.so.*dynamically loaded by'
}

with=$(debuginfod_loads "http://127.0.0.1:9/")
without=$(debuginfod_loads "")
echo "libdebuginfod loads: with DEBUGINFOD_URLS ${with}, without ${without}"
if [ "${with}" = 0 ]; then
	# No LD_DEBUG (not glibc), no libdebuginfod.so.1 installed, or a
	# libdw without debuginfod support: nothing to tell apart.
	echo "Skip: libdebuginfod is not dlopened here even with DEBUGINFOD_URLS"
	cleanup
	exit 2
fi
if [ "${without}" != 0 ]; then
	echo "Error: perf report loaded libdebuginfod without DEBUGINFOD_URLS" >&2
	err=1
fi

cleanup
exit $err
