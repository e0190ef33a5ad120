#!/bin/bash
# test addr2line inline unwinding
# SPDX-License-Identifier: GPL-2.0

set -e

err=0
test_dir=$(mktemp -d /tmp/perf-test-inline-addr2line.XXXXXXXXXX)
perf_data="${test_dir}/perf.data"
perf_script_txt="${test_dir}/perf_script.txt"

cleanup() {
    rm -rf "${test_dir}"
    trap - EXIT TERM INT
}

trap_cleanup() {
    echo "Unexpected signal in ${FUNCNAME[1]}"
    cleanup
    exit 1
}
trap trap_cleanup EXIT TERM INT

# An addr2line program that leaves ${forked} behind when perf runs it.
fake_addr2line="${test_dir}/addr2line"
forked="${test_dir}/forked"
make_fake_addr2line() {
    printf '#!/bin/sh\ntouch "%s"\nexec addr2line "$@"\n' "${forked}" > "${fake_addr2line}"
    chmod +x "${fake_addr2line}"
    rm -f "${forked}"
}

# The tests that make their own binaries with objcopy and need libdw.
have_libdw_and_objcopy() {
    if ! perf check feature -q dwarf
    then
        echo "Skip: libdw is not built in"
        return 1
    fi
    if ! command -v objcopy > /dev/null
    then
        echo "Skip: no objcopy"
        return 1
    fi
}

test_fp() {
    echo "Inline unwinding fp verification test"
    # Record data. Currently only dwarf callchains support inlined functions.
    perf record --call-graph fp -e task-clock:u -o "${perf_data}" -- perf test -w inlineloop 1

    # Check output with inline (default) and srcline
    perf script -i "${perf_data}" --fields +srcline > "${perf_script_txt}"

    # Expect the leaf and middle functions to occur on lines in the 20s, with
    # the non-inlined parent function on a line in the 30s.
    if grep -q "inlineloop.c:2. (inlined)" "${perf_script_txt}" &&
       grep -q "inlineloop.c:3.$" "${perf_script_txt}"
    then
        echo "Inline unwinding fp verification test [Success]"
    else
        echo "Inline unwinding fp verification test [Failed missing inlined functions]"
        err=1
    fi
}

test_dwarf() {
    echo "Inline unwinding dwarf verification test"
    # Record data. Currently only dwarf callchains support inlined functions.
    perf record --call-graph dwarf -e task-clock:u -o "${perf_data}" -- perf test -w inlineloop 1

    # Check output with inline (default) and srcline
    perf script -i "${perf_data}" --fields +srcline > "${perf_script_txt}"

    # Expect the leaf and middle functions to occur on lines in the 20s, with
    # the non-inlined parent function on a line in the 30s.
    if grep -q "inlineloop.c:2. (inlined)" "${perf_script_txt}" &&
       grep -q "inlineloop.c:3.$" "${perf_script_txt}"
    then
        echo "Inline unwinding dwarf verification test [Success]"
    else
        echo "Inline unwinding dwarf verification test [Failed missing inlined functions]"
        err=1
    fi
}

test_lbr() {
    echo "Inline unwinding LBR verification test"
    if [ ! -f /sys/bus/event_source/devices/cpu/caps/branches ] &&
       [ ! -f /sys/bus/event_source/devices/cpu_core/caps/branches ]
    then
        echo "Skip: only x86 CPUs support LBR"
        return
    fi

    # Record data. Currently only dwarf callchains support inlined functions.
    perf record --call-graph lbr -e cycles:u -o "${perf_data}" -- perf test -w inlineloop 1

    # Check output with inline (default) and srcline
    perf script -i "${perf_data}" --fields +srcline > "${perf_script_txt}"

    # Expect the leaf and middle functions to occur on lines in the 20s, with
    # the non-inlined parent function on a line in the 30s.
    if grep -q "inlineloop.c:2. (inlined)" "${perf_script_txt}" &&
       grep -q "inlineloop.c:3.$" "${perf_script_txt}"
    then
        echo "Inline unwinding lbr verification test [Success]"
    else
        echo "Inline unwinding lbr verification test [Failed missing inlined functions]"
        err=1
    fi
}

test_small_binary() {
    echo "Inline unwinding of a small binary with libdw"
    # All the code of a small binary is in its first 64 KiB: libdw must
    # find its inlined functions there as in perf.
    if ! perf check feature -q dwarf
    then
        echo "Skip: libdw is not built in"
        return
    fi
    if ! command -v "${CC:-cc}" > /dev/null
    then
        echo "Skip: no C compiler"
        return
    fi
    cat > "${test_dir}/small.c" << _EOF
#include <time.h>

static volatile int a;

static inline __attribute__((always_inline)) void leaf(int b)
{
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
    if ! "${CC:-cc}" -O2 -g -o "${test_dir}/small" "${test_dir}/small.c"
    then
        echo "Skip: failed to build the workload"
        return
    fi
    perf record --call-graph fp -e task-clock:u -o "${perf_data}" -- "${test_dir}/small"
    perf report -i "${perf_data}" --addr2line-style=libdw --sort sym,srcline \
        --stdio -q -g none > "${perf_script_txt}"
    if grep -q "leaf.*small.c:[0-9]" "${perf_script_txt}"
    then
        echo "Inline unwinding of a small binary with libdw [Success]"
    else
        echo "Inline unwinding of a small binary with libdw [Failed missing inlined function]"
        cat "${perf_script_txt}"
        err=1
    fi
}

test_no_fork() {
    echo "Source lines without forking addr2line"
    # With libdw, perf resolves source lines itself: the addr2line program
    # is only forked when addr2line.style asks for it.
    if ! perf check feature -q dwarf
    then
        echo "Skip: libdw is not built in"
        return
    fi
    if ! command -v addr2line > /dev/null
    then
        echo "Skip: no addr2line program"
        return
    fi
    make_fake_addr2line

    # sqrtloop calls libm through the PLT: addresses with and without lines.
    perf record -g -e task-clock:u -o "${perf_data}" -- perf test -w sqrtloop 1

    perf report -i "${perf_data}" --addr2line="${fake_addr2line}" --sort srcline \
        -q --stdio > /dev/null
    if [ -e "${forked}" ]
    then
        echo "Source lines without forking addr2line [Failed: forked by default]"
        err=1
    fi

    rm -f "${forked}"
    perf report -i "${perf_data}" --addr2line="${fake_addr2line}" \
        --addr2line-style=addr2line --sort srcline -q --stdio > /dev/null
    if [ -e "${forked}" ]
    then
        echo "Source lines without forking addr2line [Success]"
    else
        echo "Source lines without forking addr2line [Failed: not forked when asked]"
        err=1
    fi
}

test_no_debuginfo() {
    echo "Source lines of a binary without debug info"
    # When libdw finds no DWARF for a DSO, in it or in any debug file, or
    # no unit of it covers an address, the other styles of perf's default
    # are not asked; a list of styles the user gives is tried to its end.
    have_libdw_and_objcopy || return 0
    make_fake_addr2line

    # A copy of perf whose DWARF is a line table and no units (perf forks
    # addr2line only for a file with a line table), without debuglink or
    # build ID (which could lead to a debug file), and a build-id cache of
    # the test's own.
    stripped="${test_dir}/perf-no-debuginfo"
    objcopy --remove-section=.debug_info --remove-section=.debug_aranges \
        --remove-section=.debug_ranges --remove-section=.debug_rnglists \
        --remove-section=.gnu_debuglink --remove-section=.note.gnu.build-id \
        "$(command -v perf)" "${stripped}"
    perf --buildid-dir "${test_dir}/debug" record -g -e task-clock:u \
        -o "${perf_data}" -- "${stripped}" test -w noploop 1
    perf --buildid-dir "${test_dir}/debug" report -i "${perf_data}" \
        --addr2line="${fake_addr2line}" --addr2line-style=libdw,addr2line \
        --sort dso,srcline -q --stdio > "${perf_script_txt}"
    if ! grep -q "perf-no-debuginfo" "${perf_script_txt}"
    then
        echo "Source lines of a binary without debug info [Failed: no samples in it]"
        err=1
    elif [ ! -e "${forked}" ]
    then
        echo "Source lines of a binary without debug info [Failed: addr2line not tried]"
        err=1
    else
        echo "Source lines of a binary without debug info [Success]"
    fi
}

test_fp
test_dwarf
test_lbr
test_small_binary
test_no_fork
test_no_debuginfo

cleanup
exit $err
