#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A table for a cover letter from what bench-measure.sh measured: one line
# per recording and command, one column per build (in the order given):
# wall s, user+sys s, max RSS MiB, max RssAnon MiB (the median run of
# wall time). Only the lines every build was measured on.
#   BENCH_RESULTS=<results.tsv> scripts/bench-table.sh <build>[=<title>]...
set -uo pipefail
. "$(dirname "$0")/bench-lib.sh"
[ $# -gt 0 ] || { echo "usage: $0 <build>[=<title>]..." >&2; exit 2; }
builds=$(printf '%s\n' "$@")
awk -F'\t' -v builds="$builds" '
function mode(m) { return m == "fp" ? "-g" : "dwarf" }
function what(c) { return c == "cxx" ? "g++ C++" : c == "clang" ? "clang++" : c == "bigdwarf" ? "crushtool" : c == "make" ? "make -j2" : c == "jvm" ? "javac+java" : c }
BEGIN { nb = split(builds, B, "\n")
	for (i = 1; i <= nb; i++) { T[i] = B[i]; if (e = index(B[i], "=")) { T[i] = substr(B[i], e + 1); B[i] = substr(B[i], 1, e - 1) } } }
$1 == "env" && !env { env = 1; printf "(%s, %s cores, elfutils %s, median of %s runs; wall s / user+sys s / max RSS MiB / max RssAnon MiB)\n", $2, $3, $5, $7 }
$1 == "cmd" { k = what($2) " " mode($3) " " $4; if (!(k in seen)) { seen[k]; K[++n] = k }
	R[k, $5] = sprintf("%.2f / %.2f / %d / %s", $6, $7, $8 / 1024, $9 != "" ? sprintf("%d", $9 / 1024) : "-") }
END {
	line = sprintf("%-24s", "")
	for (i = 1; i <= nb; i++) line = line sprintf(" | %-26s", T[i])
	sub(/ +$/, "", line); print line
	for (j = 1; j <= n; j++) {
		k = K[j]; line = sprintf("%-24s", k); all = 1
		for (i = 1; i <= nb; i++) { v = (k, B[i]) in R ? R[k, B[i]] : "-"; if (v == "-") all = 0; line = line sprintf(" | %-26s", v) }
		if (all) { sub(/ +$/, "", line); print line }
	}
}' "$RESULTS"
