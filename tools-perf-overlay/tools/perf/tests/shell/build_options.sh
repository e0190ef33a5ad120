#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf -vv and perf check feature agree with the libraries perf runs with

# What perf version --build-options (perf -vv) and perf check feature say
# of the libraries that unwind and symbolize (libdw, libelf, libunwind) is
# what the binary is linked with: each one reported on is linked, each one
# linked is reported on, and the two commands agree.

perf_bin=$(command -v perf)
if ! command -v ldd > /dev/null; then
	echo "Skip: no ldd"
	exit 2
fi
if ! libs=$(ldd "$perf_bin" 2> /dev/null) || ! echo "$libs" | grep -q '=>'; then
	echo "Skip: $perf_bin is not dynamically linked"
	exit 2
fi
build_options=$(perf version --build-options)

err=0
check() {
	local feature=$1 lib=$2 check vv linked

	perf check feature -q "$feature" && check=on || check=off
	if echo "$build_options" | grep -qE "^ *$feature: \[ on  \]"; then
		vv=on
	else
		vv=off
	fi
	echo "$libs" | grep -qE "$lib" && linked=on || linked=off
	echo "$feature: perf check feature: $check, perf -vv: $vv, linked: $linked"
	if [ "$check" != "$vv" ] || [ "$check" != "$linked" ]; then
		echo "Error: $feature is reported $check by perf check feature," \
			"$vv by perf -vv, and is linked: $linked" >&2
		err=1
	fi
}

check dwarf '/libdw[.-]'
check libdw-dwarf-unwind '/libdw[.-]'
check libelf '/libelf[.-]'
check libunwind '/libunwind(-[a-z0-9_]+)?\.so'

exit $err
