#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The numbers each cover letter quotes: every topic series measured against
# the tip of the one before it (at-NN builds, scripts/build.sh), on what it
# changes, on one set of recordings, BENCH_RUNS (5) runs of each command;
# written to Documentation/series/bench-NN.txt (scripts/export.sh puts them
# in the cover letters).  Results in work/bench/series.tsv.
#   scripts/bench-series.sh [report]   (report: only rewrite the files)
set -uo pipefail
export BENCH_RUNS=${BENCH_RUNS:-5}
. "$(dirname "$0")/bench-lib.sh"
export BENCH_RESULTS=$OUT/series.tsv
DOC=$TOP/Documentation/series
# BENCH_PARTS picks the measurements (default all): 01 02 04 05 06 09 10
# 11 13 all; the instruction counts of 09 and 10 (callgrind) do not depend
# on the load and may run beside the others (BENCH_PARTS="09 10").
PARTS=${BENCH_PARTS:-01 02 04 05 06 09 10 11 13 all}
has() { case " $PARTS " in *" $1 "*) ;; *) return 1 ;; esac; }
if [ "${1:-}" != report ]; then
for t in 01 02 03 04 05 06 07 08 09 10; do "$TOP/scripts/build.sh" "at-$t" libdw >/dev/null || exit 1; done
"$TOP/scripts/build.sh" at-12 libdw >/dev/null || exit 1
"$TOP/scripts/build.sh" at-02 libunwind >/dev/null || exit 1
"$TOP/scripts/build.sh" at-10 elfutils-series >/dev/null || exit 1
"$TOP/scripts/build.sh" series elfutils-series >/dev/null || exit 1
"$TOP/scripts/build.sh" series elfutils-bookworm-backports >/dev/null || exit 1
"$TOP/scripts/bench-record.sh" cxx clang bigdwarf make jvm
[ -n "${BENCH_PARTS:-}" ] || : >"$BENCH_RESULTS"
M=$TOP/scripts/bench-measure.sh
# 01: the report's commands on -g recordings of a clang++ compilation and of
# a C++ start-up with a big library with debug info (javac+java: HotSpot).
has 01 && BENCH_BUILDS="upstream-libdw upstream-libunwind at-01-libdw" BENCH_CMDS="report noinline script" \
	BENCH_MODES=fp "$M" clang jvm
# 02: libunwind's chains (the fixes are not about speed).
has 02 && BENCH_BUILDS="upstream-libunwind at-02-libunwind" BENCH_CMDS="script" BENCH_MODES=dwarf "$M" clang make
# 04: the unwinder, on --call-graph dwarf recordings, and each of its
# patches that is about speed against its parent.
has 04 && BENCH_BUILDS="at-03-libdw at-04.1-libdw at-04.2-libdw at-04-libdw" BENCH_CMDS="noinline script" \
	BENCH_MODES=dwarf "$M" cxx clang bigdwarf make
# 05: source lines and inline frames, per patch too.
has 05 && BENCH_BUILDS="at-04-libdw at-05.1-libdw at-05.2-libdw at-05-libdw" BENCH_CMDS="report srcline" \
	"$M" cxx clang bigdwarf make jvm
# 06-08: start-up, many processes, perf trace.
has 06 && BENCH_STARTUP_BUILDS="at-05-libdw at-06-libdw at-07-libdw at-08-libdw" "$M" startup procs trace
# 09: instructions, the only measure fine enough for it.
has 09 && BENCH_BUILDS="at-08-libdw at-09-libdw" BENCH_CMDS="noinline" BENCH_MODES=dwarf BENCH_CALLGRIND=1 "$M" make bigdwarf
# 10: symbol loading, instructions on the -g recordings.
has 10 && BENCH_BUILDS="at-09-libdw at-10-libdw" BENCH_CMDS="noinline report script" BENCH_MODES=fp BENCH_CALLGRIND=1 "$M" make bigdwarf clang
# 11: elfutils 0.192 -> with the elfutils series (the perf series but
# the RFC: no perf change); the RFC in instructions (many processes).
has 11 && BENCH_BUILDS="series-elfutils-bookworm-backports at-10-elfutils-series" \
	BENCH_CMDS="report noinline script" "$M" cxx clang bigdwarf make jvm
has 11 && BENCH_BUILDS="at-10-elfutils-series series-elfutils-series" BENCH_CMDS="noinline script" \
	BENCH_MODES=dwarf BENCH_CALLGRIND=1 "$M" make bigdwarf cxx
# 13: the second run on a recording, with build-id cache entries
# (scripts/bench-warm.sh).
has 13 && BENCH_WARM="jvm cxx" BENCH_WARM_BUILDS="upstream-libdw at-12-libdw series-libdw" "$M" warm
# The whole stack against v7.3-rc7, on released elfutils (Debian 12's
# 0.188, bookworm-backports' 0.192).
has all && BENCH_BUILDS="upstream-libdw upstream-libunwind at-10-libdw series-elfutils-bookworm-backports" \
	BENCH_CMDS="report noinline script" "$M" cxx clang bigdwarf make jvm
fi

cmp() { "$TOP/scripts/bench-compare.sh" "$1" "$2"; }
"$TOP/scripts/bench-table.sh" upstream-libdw=v7.3-rc7 "upstream-libunwind=v7.3-rc7 LIBUNWIND=1" \
	"at-01-libdw=with these" | grep -v '^$' >"$DOC/bench-01.txt"
{ echo "perf script, v7.3-rc7's LIBUNWIND=1 build -> with these (unwind.style=libunwind)"
  cmp upstream-libunwind at-02-libunwind | grep -v ' script  '; } >"$DOC/bench-02.txt"
{ echo "Before -> after this series (on 01-03):"; cmp at-03-libdw at-04-libdw; } >"$DOC/bench-04.txt"
{ echo "Before -> after this series (on 01-04):"; cmp at-04-libdw at-05-libdw; } >"$DOC/bench-05.txt"
# Each speed patch against its parent, for its message.
cmp at-03-libdw at-04.1-libdw >"$DOC/bench-04.1.txt"
cmp at-04.1-libdw at-04.2-libdw >"$DOC/bench-04.2.txt"
cmp at-04-libdw at-05.1-libdw >"$DOC/bench-05.1.txt"
cmp at-05.1-libdw at-05.2-libdw >"$DOC/bench-05.2.txt"
{ echo "elfutils 0.192 -> 0.192 with the elfutils series, perf unchanged (01-10):"
  cmp series-elfutils-bookworm-backports at-10-elfutils-series | grep -v 'perf script chains' |
	sed 's/, elfutils [^,]*, median/, median/'
  echo
  echo "perf on elfutils 0.192 with the elfutils series, before -> after this patch,"
  echo "instructions (callgrind) of --call-graph dwarf recordings:"
  awk -F'\t' '$1 == "instr" && $2 ~ /-dwarf$/ && $4 ~ /elfutils-series$/ {
	c = $2; sub(/-dwarf$/, "", c); c = c == "make" ? "make -j2 (190 processes)" : c == "bigdwarf" ? "crushtool" : c == "cxx" ? "g++ C++" : c
	k = c SUBSEP ($3 == "noinline" ? "report" : $3); if (!(k in seen)) { seen[k]; K[++n] = k }
	I[k, $4] = $5 }
	END { for (j = 1; j <= n; j++) { split(K[j], p, SUBSEP); a = I[K[j], "at-10-elfutils-series"]; b = I[K[j], "series-elfutils-series"]
		if (a && b) printf "  %-26s %-9s %7.3f G -> %7.3f G  %+.1f%%\n", p[1], p[2], a / 1e9, b / 1e9, (b - a) * 100 / a } }' "$BENCH_RESULTS"
  echo "  (report = perf report --no-inline; perf script prints the same chains)"; } >"$DOC/bench-14.txt"
{ echo "v7.3-rc7 (upstream), before (at-12) and after this series (series), first and"
  echo "second run on one recording, with a build-id cache entry for each DSO with samples:"
  "$TOP/scripts/bench-warm.sh" "$BENCH_RESULTS" | grep -v ' -NI ' |
	sed 's/upstream-libdw/upstream      /; s/at-12-libdw/at-12      /; s/series-libdw/series      /'; } >"$DOC/bench-13.txt"
{ echo "Before -> after this series (on 01-05):"; cmp at-05-libdw at-06-libdw | grep -v 'more processes\|trace -a' | grep -v "^.perf report"; } >"$DOC/bench-06.txt"
{ echo "Before -> after this series (on 01-06):"; cmp at-06-libdw at-07-libdw | grep 'env\|(\|more processes' | grep -v "^.perf report"; } >"$DOC/bench-07.txt"
{ echo "Before -> after this series (on 01-07):"; cmp at-07-libdw at-08-libdw | grep '^(\|trace' | grep -v "^.perf report"; } >"$DOC/bench-08.txt"
# instr_table <before> <after> <mode>: the instructions rows of the two builds
instr_table() {
	awk -F'\t' -v a="$1" -v b="$2" -v m="-$3" '$1 == "instr" && index($2, m) {
		c = $2 " " $3; sub(/^bigdwarf-[a-z]*/, "crushtool, " substr(m, 2) ",", c)
		sub(/^make-[a-z]*/, "make -j2, " substr(m, 2) ",", c)
		sub(/^clang-[a-z]*/, "clang++, " substr(m, 2) ",", c); I[c, $4] = $5; k[c] }
	END { for (c in k) if (I[c, a] && I[c, b])
		printf "  %-24s %8.3f G -> %8.3f G\n", c, I[c, a] / 1e9, I[c, b] / 1e9 }' "$BENCH_RESULTS"
}
{ echo "perf report --no-inline, instructions (callgrind), before -> after this series (on 01-08):"
  instr_table at-08-libdw at-09-libdw dwarf; } >"$DOC/bench-09.txt"
{ echo "Instructions (callgrind), before -> after this series (on 01-09):"
  instr_table at-09-libdw at-10-libdw fp; } >"$DOC/bench-10.txt"
{ echo "v7.3-rc7 -> all the perf series (elfutils 0.188):"; cmp upstream-libdw at-10-libdw | grep -v '  perf trace\|syscalls'; } >"$DOC/bench-all.txt"
"$TOP/scripts/bench-table.sh" upstream-libdw=v7.3-rc7 "upstream-libunwind=v7.3-rc7 LIBUNWIND=1" \
	"at-10-libdw=series, elfutils 0.188" "series-elfutils-bookworm-backports=series, elfutils 0.192" \
	>>"$DOC/bench-all.txt"
head -50 "$DOC"/bench-[0-9]*.txt "$DOC/bench-all.txt"
