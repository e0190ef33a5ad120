#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build coverage at the tip of the series: perf builds without libdw
# (NO_LIBDW=1) and as perf's own minimal build (tools/perf/tests/make's
# make_minimal: without libelf and more); and in each of those and in
# the libdw and LIBUNWIND=1 builds, perf -vv and perf check feature say of
# each library what the binary links (its DT_NEEDED entries).
. "$(dirname "$0")/lib.sh"

# NO_LIBELF=1 alone (nolibelf) is what minimal builds with more off: not
# built by default, to keep CI inside its time (BUILDS="nolibdw nolibelf
# minimal" builds it).
NEW=(${BUILDS:-nolibdw minimal})
ALL=(libdw libunwind "${NEW[@]}")
# perf -vv feature name and the library it links when on
LIBS=(dwarf:libdw.so libelf:libelf.so libunwind:libunwind debuginfod:libdebuginfod.so
      lzma:liblzma.so zstd:libzstd.so libtraceevent:libtraceevent.so libnuma:libnuma.so
      libslang:libslang.so libpfm4:libpfm.so)
ktap_print_header
ktap_set_plan $(( ${#NEW[@]} + ${#ALL[@]} ))

for cfg in "${NEW[@]}"; do
	if past_deadline; then
		ktap_test_skip "builds: $cfg (past the CI time budget)"
	elif out=$("$TOP/scripts/build.sh" series "$cfg" 2>&1); then
		ktap_test_pass "builds: $cfg"
	else
		ktap_print_msg "$(echo "$out" | tail -15)"; ktap_test_fail "builds: $cfg"
	fi
done

for cfg in "${ALL[@]}"; do
	perf=$(perf_bin series "$cfg")
	if [ ! -x "$perf" ]; then
		if past_deadline; then ktap_test_skip "perf -vv truthful: $cfg (past the CI time budget)"
		else ktap_test_fail "perf -vv truthful: $cfg (no binary)"; fi
		continue
	fi
	needed=$(readelf -d "$perf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
	vv=$("$perf" -vv)
	bad=() summary=()
	for fl in "${LIBS[@]}"; do
		f=${fl%%:*} lib=${fl#*:}
		state=$(echo "$vv" | awk -v f="$f" '$1 == f ":" { print $3; exit }')
		linked=off; echo "$needed" | grep -q "^$lib" && linked=on
		if "$perf" check feature -q "$f" 2>/dev/null; then chk=on; else chk=off; fi
		[ "$state" = on ] && v=on || v=off
		summary+=("$f=$v")
		[ "$v" = "$linked" ] && [ "$chk" = "$v" ] ||
			bad+=("$f: -vv $state, check feature $chk, $lib ${linked/on/linked}")
	done
	ktap_print_msg "$cfg: ${summary[*]}"
	if [ ${#bad[@]} -eq 0 ]; then
		ktap_test_pass "perf -vv truthful: $cfg"
	else
		ktap_print_msg "${bad[*]}"; ktap_test_fail "perf -vv truthful: $cfg"
	fi
done
ktap_finished
