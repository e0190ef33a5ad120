#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# End to end: record a small real C++ workload once (--call-graph dwarf and
# -g), then compare what users see from the series' builds with upstream's:
# every sample's chain from the series must hold upstream's frames with the
# same names (same or more frames), and perf report must show the same
# symbols with the same or higher children overhead.
. "$(dirname "$0")/lib.sh"
CMP="python3 $TOP/tests/chaincmp.py"

ktap_print_header
ktap_set_plan 11

g++ -O2 -g -o "$TMPD/cxxwork" "$TOP/tests/workloads/cxxwork.cpp" ||
	ktap_exit_fail_msg "cannot build the workload"
REC=$(perf_bin upstream libdw)
[ -x "$REC" ] || ktap_exit_fail_msg "no upstream perf at $REC"
"$REC" record -q -e cpu-clock -F 499 --call-graph dwarf -o "$TMPD/dwarf.data" -- "$TMPD/cxxwork" 0.6 >/dev/null 2>&1 ||
	ktap_exit_fail_msg "perf record --call-graph dwarf failed"
"$REC" record -q -e cpu-clock -F 499 -g -o "$TMPD/fp.data" -- "$TMPD/cxxwork" 0.6 >/dev/null 2>&1 ||
	ktap_exit_fail_msg "perf record -g failed"

# One perf config file per unwind style (PERF_CONFIG).
conf() { perf_config "$TMPD/perfconfig-${1:-default}" "${1:-}"; }
# script <tree> <config> <data> <out> [unwind style]
script() {
	PERF_CONFIG=$(conf "${5:-}") timeout 600 "$(perf_bin "$1" "$2")" script -i "$3" >"$4" 2>"$4.err"
}
report() {
	PERF_CONFIG=$(conf "${5:-}") timeout 600 "$(perf_bin "$1" "$2")" report -i "$3" -q --stdio -g none \
		--children --percent-limit 5 >"$4" 2>"$4.err"
}
cmp_chains() {	# name upstream-out series-out
	local out
	if out=$($CMP compare "$2" "$3"); then
		ktap_print_msg "$(echo "$out" | tail -1)"; ktap_test_pass "$1"
	else
		ktap_print_msg "$out"; ktap_test_fail "$1"
	fi
}
# Children overhead per symbol of the series >= upstream's (same symbols).
# Keyed by shared object and symbol: the program's _start and ld.so's
# _start are two lines.
cmp_report() {	# name upstream-out series-out
	if python3 - "$2" "$3" <<'PY'
import sys
def rd(p):
    d = {}
    for l in open(p):
        f = l.split()
        # Children Self Command Shared-Object [.] Symbol
        if len(f) >= 6 and f[0].endswith('%') and f[1].endswith('%'):
            d[(f[3], ' '.join(f[4:]))] = float(f[0][:-1])
    return d
a, b = rd(sys.argv[1]), rd(sys.argv[2])
def find(k):
    """k, or k qualified with the C++ scopes upstream's name lacked."""
    if k in b:
        return b[k]
    dso, sym = k
    q = [v for (d, n), v in b.items()
         if d == dso and n.endswith('::' + sym.split('] ', 1)[-1])]
    return q[0] if len(q) == 1 else None
bad = [k for k in a if find(k) is None or find(k) + 0.05 < a[k]]
for k in bad:
    print('# missing or lower in series:', ' '.join(k), a[k], find(k))
print('# %d report lines upstream, %d series' % (len(a), len(b)))
sys.exit(1 if bad or not a else 0)
PY
	then ktap_test_pass "$1"; else ktap_test_fail "$1"; fi
}

for mode in dwarf fp; do
	script upstream libdw "$TMPD/$mode.data" "$TMPD/$mode.up"
	script series libdw "$TMPD/$mode.data" "$TMPD/$mode.se"
	cmp_chains "$mode: perf script chains, series libdw vs upstream libdw" "$TMPD/$mode.up" "$TMPD/$mode.se"
	report upstream libdw "$TMPD/$mode.data" "$TMPD/$mode.rup"
	report series libdw "$TMPD/$mode.data" "$TMPD/$mode.rse"
	cmp_report "$mode: perf report --children, series libdw vs upstream libdw" "$TMPD/$mode.rup" "$TMPD/$mode.rse"
done

# Symbol names as loaded (demangled when first shown, kernel symbols from
# kallsyms): byte-identical to upstream's where inline frames and unwinding
# play no part, on the -g recording and on a kernel-heavy one. --no-inline
# everywhere: the series qualifies inlined C++ names (test 7), so a sample
# that lands in an inlined lambda would differ by design.
"$REC" record -q -e cpu-clock -F 999 -g -o "$TMPD/kern.data" -- \
	dd if=/dev/zero of=/dev/null bs=512 count=400000 >/dev/null 2>&1 ||
	ktap_exit_fail_msg "perf record of dd failed"
names() {	# tree data out
	local p; p=$(perf_bin "$1" libdw)
	PERF_CONFIG=$(conf) "$p" script -i "$2" -F ip,sym,dso --no-inline >"$3" 2>/dev/null
	PERF_CONFIG=$(conf) "$p" report -i "$2" --stdio --no-children -g caller --no-inline >>"$3" 2>/dev/null
	PERF_CONFIG=$(conf) "$p" report -i "$2" --stdio --sort sym --no-demangle --no-inline >>"$3" 2>/dev/null
}
for d in fp kern; do
	names upstream "$TMPD/$d.data" "$TMPD/$d.names.up"
	names series "$TMPD/$d.data" "$TMPD/$d.names.se"
	n=$(grep -c . "$TMPD/$d.names.se")
	if [ "$n" -gt 100 ] && cmp -s "$TMPD/$d.names.up" "$TMPD/$d.names.se"; then
		ktap_test_pass "$d: symbol names identical to upstream's ($n lines of script and report)"
	else
		ktap_print_msg "$(diff "$TMPD/$d.names.up" "$TMPD/$d.names.se" | head -10)"
		ktap_test_fail "$d: symbol names identical to upstream's ($n lines of script and report)"
	fi
done

# C++ names: the inlined operator() of a lambda carries its scopes.
bare=$(grep -cE '^\s+[0-9a-f]+ operator\(\)\+0x[0-9a-f]+ \(inlined\)' "$TMPD/dwarf.se")
up_bare=$(grep -cE '^\s+[0-9a-f]+ operator\(\)\+0x[0-9a-f]+ \(inlined\)' "$TMPD/dwarf.up")
ktap_print_msg "inlined frames named bare operator(): upstream $up_bare, series $bare"
if [ "$bare" -eq 0 ] && grep -q '::operator()+0x[0-9a-f]* (inlined)' "$TMPD/dwarf.se"; then
	ktap_test_pass "dwarf: lambdas' inlined operator() are qualified"
else
	ktap_test_fail "dwarf: lambdas' inlined operator() are qualified"
fi

# libunwind: the LIBUNWIND=1 builds with unwind.style=libunwind, on a clang++
# compilation (real chains that end in frames libunwind cannot step through).
"$REC" record -q -e cpu-clock -F 499 --call-graph dwarf -o "$TMPD/clang.data" -- \
	clang++ -O1 -c "$TOP/tests/workloads/cxxwork.cpp" -o "$TMPD/cxxwork.o" >/dev/null 2>&1 ||
	ktap_exit_fail_msg "perf record of clang++ failed"
script upstream libunwind "$TMPD/clang.data" "$TMPD/lu.up" libunwind
script series libunwind "$TMPD/clang.data" "$TMPD/lu.se" libunwind
script series libdw "$TMPD/clang.data" "$TMPD/clang.se"
cmp_chains "clang++ dwarf: chains, series vs upstream, LIBUNWIND=1 unwind.style=libunwind" "$TMPD/lu.up" "$TMPD/lu.se"
st_up=$($CMP stats "$TMPD/lu.up"); st_se=$($CMP stats "$TMPD/lu.se"); st_dw=$($CMP stats "$TMPD/clang.se")
ktap_print_msg "upstream libunwind: $st_up"
ktap_print_msg "series   libunwind: $st_se"
ktap_print_msg "series   libdw:     $st_dw"
# Chains from libunwind must be as deep as libdw's (same stack dumps):
# an empty or one-frame chain is a lost call chain.
sh_se=$(echo "$st_se" | python3 -c 'import json,sys; print(json.load(sys.stdin)["shallow_share"])')
sh_dw=$(echo "$st_dw" | python3 -c 'import json,sys; print(json.load(sys.stdin)["shallow_share"])')
if python3 -c "import sys; sys.exit(0 if $sh_se <= $sh_dw + 0.02 else 1)"; then
	ktap_test_pass "clang++ dwarf: libunwind keeps its chains (shallow share $sh_se, libdw $sh_dw)"
else
	ktap_test_fail "clang++ dwarf: libunwind keeps its chains (shallow share $sh_se, libdw $sh_dw)"
fi
# The LIBUNWIND=1 build with the default style (libdw first) equals the libdw build.
script series libunwind "$TMPD/dwarf.data" "$TMPD/ludef.se"
cmp_chains "dwarf: LIBUNWIND=1 build, default style, vs libdw build" "$TMPD/dwarf.se" "$TMPD/ludef.se"
# No addr2line child processes and no addr2line errors.
if grep -l "addr2line" "$TMPD"/*.err >/dev/null 2>&1; then
	ktap_print_msg "$(grep -h addr2line "$TMPD"/*.err | sort | uniq -c | head -5)"
	ktap_test_fail "no addr2line messages"
else
	ktap_test_pass "no addr2line messages"
fi
ktap_finished
