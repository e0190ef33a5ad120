#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The numbers each cover letter quotes: every topic series measured against
# the tip of the one before it (at-NN builds, scripts/build.sh), on what it
# changes; written to Documentation/series/bench-NN.txt (scripts/export.sh
# puts them in the cover letters).  Results in work/bench/series.tsv.
#   scripts/bench-series.sh [report]   (report: only rewrite the files)
set -uo pipefail
. "$(dirname "$0")/bench-lib.sh"
export BENCH_RESULTS=$OUT/series.tsv
DOC=$TOP/Documentation/series
if [ "${1:-}" != report ]; then
for t in 01 02 03 04 05 06 07; do "$TOP/scripts/build.sh" "at-$t" libdw >/dev/null || exit 1; done
"$TOP/scripts/build.sh" at-01 libunwind >/dev/null || exit 1
"$TOP/scripts/bench-record.sh" cxx clang bigdwarf make
: >"$BENCH_RESULTS"
M=$TOP/scripts/bench-measure.sh
# 01: libunwind's chains (the fixes are not about speed).
BENCH_BUILDS="upstream-libunwind at-01-libunwind" BENCH_CMDS="script" BENCH_MODES=dwarf "$M" clang make
# 02: the unwinder, on --call-graph dwarf recordings.
BENCH_BUILDS="at-01-libdw at-02-libdw" BENCH_CMDS="noinline script" BENCH_MODES=dwarf "$M" cxx clang bigdwarf make
# 03: source lines and inline frames.
BENCH_BUILDS="at-02-libdw at-03-libdw" BENCH_CMDS="report srcline" "$M" cxx clang bigdwarf make
# 04-06: start-up, many processes, perf trace.
BENCH_STARTUP_BUILDS="at-03-libdw at-04-libdw at-05-libdw at-06-libdw" "$M" startup procs trace
# The whole stack against v7.3-rc7 (README).
BENCH_BUILDS="upstream-libdw series-libdw" BENCH_CMDS="report noinline script" "$M" cxx bigdwarf make
# 07: instructions, the only measure fine enough for it.
BENCH_BUILDS="at-06-libdw at-07-libdw" BENCH_CMDS="noinline" BENCH_MODES=dwarf BENCH_CALLGRIND=1 "$M" make bigdwarf
# 08: symbol loading, instructions on the -g recordings.
BENCH_BUILDS="at-07-libdw series-libdw" BENCH_CMDS="noinline report script" BENCH_MODES=fp BENCH_CALLGRIND=1 "$M" make bigdwarf clang
fi

cmp() { "$TOP/scripts/bench-compare.sh" "$1" "$2"; }
{ echo "perf script, v7.3-rc7's LIBUNWIND=1 build -> with these (unwind.style=libunwind)"
  cmp upstream-libunwind at-01-libunwind | grep -v ' script  '; } >"$DOC/bench-01.txt"
{ echo "Before -> after this series (on 01-fixes):"; cmp at-01-libdw at-02-libdw; } >"$DOC/bench-02.txt"
{ echo "Before -> after this series (on 01-02):"; cmp at-02-libdw at-03-libdw; } >"$DOC/bench-03.txt"
{ echo "Before -> after this series (on 01-03):"; cmp at-03-libdw at-04-libdw | grep -v 'more processes\|trace -a' | grep -v "^.perf report"; } >"$DOC/bench-04.txt"
{ echo "Before -> after this series (on 01-04):"; cmp at-04-libdw at-05-libdw | grep 'env\|(\|more processes' | grep -v "^.perf report"; } >"$DOC/bench-05.txt"
{ echo "Before -> after this series (on 01-05):"; cmp at-05-libdw at-06-libdw | grep '^(\|trace' | grep -v "^.perf report"; } >"$DOC/bench-06.txt"
# instr_table <before> <after> <mode>: the instructions rows of the two builds
instr_table() {
	awk -F'\t' -v a="$1" -v b="$2" -v m="-$3" '$1 == "instr" && index($2, m) {
		c = $2 " " $3; sub(/^bigdwarf-[a-z]*/, "crushtool, " substr(m, 2) ",", c)
		sub(/^make-[a-z]*/, "make -j2, " substr(m, 2) ",", c)
		sub(/^clang-[a-z]*/, "clang++, " substr(m, 2) ",", c); I[c, $4] = $5; k[c] }
	END { for (c in k) if (I[c, a] && I[c, b])
		printf "  %-24s %8.3f G -> %8.3f G\n", c, I[c, a] / 1e9, I[c, b] / 1e9 }' "$BENCH_RESULTS"
}
{ echo "perf report --no-inline, instructions (callgrind), before -> after this series (on 01-06):"
  instr_table at-06-libdw at-07-libdw dwarf; } >"$DOC/bench-07.txt"
{ echo "Instructions (callgrind), before -> after this series (on 01-07):"
  instr_table at-07-libdw series-libdw fp; } >"$DOC/bench-08.txt"
{ echo "v7.3-rc7 -> all the series:"; cmp upstream-libdw series-libdw | grep -v '  perf trace\|syscalls'; } >"$DOC/bench-all.txt"
head -50 "$DOC"/bench-0*.txt "$DOC/bench-all.txt"
