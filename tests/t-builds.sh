#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build coverage at the tip of the series: perf builds without libdw
# (NO_LIBDW=1) and as perf's own minimal build (tools/perf/tests/make's
# make_minimal: without libelf and more); and in each of those and in
# the libdw and LIBUNWIND=1 builds, perf -vv and perf check feature say of
# each library what the binary links (its DT_NEEDED entries).  The libdw
# build as an i386 program (m32): perf tests pass in it and it refuses
# crafted DWARF as the x86_64 build does; and the libdw build unwinds a
# 32-bit program's DWARF call chains and gives its source lines and inline
# frames.  An i386 perf can't record user registers on an x86_64 kernel
# (its sample_regs_user has DS to GS, which the kernel refuses there): its
# tests are those that record with -g or none.
. "$(dirname "$0")/lib.sh"

# NO_LIBELF=1 alone (nolibelf) is what minimal builds with more off: not
# built by default, to keep CI inside its time (BUILDS="nolibdw nolibelf
# minimal" builds it).
NEW=(${BUILDS:-nolibdw minimal m32})
ALL=(libdw libunwind "${NEW[@]}")
# perf -vv feature name and the library it links when on
LIBS=(dwarf:libdw.so libelf:libelf.so libunwind:libunwind debuginfod:libdebuginfod.so
      lzma:liblzma.so zstd:libzstd.so libtraceevent:libtraceevent.so libnuma:libnuma.so
      libslang:libslang.so libpfm4:libpfm.so)
M32_TESTS=("Symbols" "Test dwarf unwind" "io_dir directory reading"
	   "Branch counts of call chain entries" "Callchains of one dso through two maps"
	   "perf script source lines of a binary rebuilt after the recording"
	   "perf source lines from separate debug files"
	   "perf script source lines kept in the build-id cache"
	   "perf report inline frames without their source lines"
	   "perf report and script show the C++ names demangled")
m32=0; [[ " ${NEW[*]} " == *" m32 "* ]] && m32=1
ktap_print_header
ktap_set_plan $(( ${#NEW[@]} + ${#ALL[@]} + m32 * (${#M32_TESTS[@]} + 2) ))

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

[ $m32 = 1 ] || { ktap_finished; exit; }
perf=$(perf_bin series m32)
for t in "${M32_TESTS[@]}"; do
	if [ ! -x "$perf" ]; then
		ktap_test_skip "m32: $t (no binary)"
		continue
	fi
	out=$(cd "$BASE/tools/perf" && timeout 600 "$TOP/tests/perf-test.sh" "$perf" "$t" 2>&1)
	case $(perf_test_result "$out") in
	pass) ktap_test_pass "m32: $t" ;;
	skip) ktap_test_skip "m32: $t ($(perf_test_skip_reason "$out"))" ;;
	*) ktap_print_msg "$(perf_test_failure "$out")"; ktap_test_fail "m32: $t" ;;
	esac
done

# Crafted DWARF whose bound, 65536 walks of imported units, is reached
# exactly one level down (tests/corpus/hostile.py's imports-wide): the i386
# build refuses the unit, as the x86_64 build does, rather than walking
# 2^32 units.
name="m32: a unit importing 2^32 units is refused"
if [ ! -x "$perf" ]; then
	ktap_test_skip "$name (no binary)"
elif ! python3 "$TOP/tests/corpus/hostile.py" --rec "$(perf_bin series libdw)" \
		--out "$TMPD/hostile" --only '^imports-wide$' >"$TMPD/err" 2>&1; then
	ktap_print_msg "$(tail -3 "$TMPD/err")"; ktap_test_fail "$name"
else
	out=$(PERF_CONFIG=/dev/null timeout 60 "$perf" script -v -F ip,sym,srcline \
		-i "$TMPD/hostile/imports-wide.fp.data" 2>&1); rc=$?
	if [ $rc = 0 ] && echo "$out" | grep -q 'imports units more than 65536 times'; then
		ktap_test_pass "$name"
	else
		ktap_print_msg "exit $rc: $(echo "$out" | grep -c hostile_spin) samples"
		ktap_test_fail "$name"
	fi
fi

# A 32-bit program under the libdw build: DWARF call chains through an
# inlined function down to main, with their source lines.
name="libdw build: a 32-bit program's DWARF call chains and source lines"
perf=$(perf_bin series libdw)
cat > "$TMPD/a.c" <<'EOF'
static inline __attribute__((always_inline)) int inner(int x) { int s = 0; for (int i = 0; i < x; i++) s += i * x ^ (s >> 3); return s; }
static __attribute__((noinline)) int mid(int x) { return inner(x) + inner(x + 1); }
int main(void) { volatile int r = 0; for (int j = 0; j < 300000; j++) r += mid(500 + (j & 7)); return r == 42; }
EOF
if ! gcc -m32 -O2 -g -o "$TMPD/a32" "$TMPD/a.c" 2>"$TMPD/err"; then
	ktap_print_msg "$(tail -3 "$TMPD/err")"; ktap_test_fail "$name"
elif ! "$perf" record -q -e cpu-clock --call-graph dwarf -o "$TMPD/d.data" "$TMPD/a32" \
		>/dev/null 2>"$TMPD/err"; then
	ktap_print_msg "$(tail -3 "$TMPD/err")"; ktap_test_fail "$name"
else
	# each sample's chain on a line: |sym|srcline|sym|srcline...
	"$perf" script -i "$TMPD/d.data" -F ip,sym,srcline 2>/dev/null |
	awk 'NF == 0 { if (c) print c; c = ""; next }
	     { sub(/^[ \t]+/, ""); if (NF > 1 && $1 ~ /^[0-9a-f]+$/) sub(/^[0-9a-f]+ /, "")
	       c = c "|" $0 }' > "$TMPD/chains"
	all=$(grep -c '|mid|' "$TMPD/chains")
	good=$(grep -c '^|inner|a\.c:1 (inlined)|mid|a\.c:2|main|a\.c:3|' "$TMPD/chains")
	ktap_print_msg "$good of $all samples in mid: inner (inlined), mid and main with their lines"
	if [ "$good" -gt 0 ] && [ "$good" -ge $((all * 9 / 10)) ]; then
		ktap_test_pass "$name"
	else
		ktap_print_msg "$(sort "$TMPD/chains" | uniq -c | sort -rn | head -3)"
		ktap_test_fail "$name"
	fi
fi
ktap_finished
