#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Plain-text lines for a cover letter or a commit message from what
# bench-measure.sh measured: build OLD against build NEW, one line per
# recording and command, and per start-up command.
#   scripts/bench-compare.sh OLD NEW [results.tsv]
set -uo pipefail
. "$(dirname "$0")/bench-lib.sh"
old=${1:?old build} new=${2:?new build}
awk -F'\t' -v old="$old" -v new="$new" '
function mode(m) { return m == "fp" ? "-g" : "dwarf" }
# What the recordings are, not what bench-record.sh calls them.
function what(c) { return c == "cxx" ? "g++ C++" : c == "clang" ? "clang++" : c == "bigdwarf" ? "crushtool" : c == "make" ? "make -j2" : c == "jvm" ? "javac+java" : c }
function x(a, b) { return b > 0 && a > 0 ? sprintf("%.2fx", a / b) : "-" }
$1 == "env" && !env { env = 1; printf "(%s, %s cores, elfutils %s, median of %s; wall s, user+sys s, max RSS MiB; last: wall before / after)\n", $2, $3, $5, $7
	printf "(perf report, report --no-inline = noinline, report --sort srcline = srcline, perf script; of -g and --call-graph dwarf recordings)\n" }
$1 == "cmd" { k = what($2) " " mode($3) " " $4; if (!(k in seen)) { seen[k]; K[++n] = k }
	W[k, $5] = $6; U[k, $5] = $7; M[k, $5] = $8 }
$1 == "startup" { k = $2; if (!(k in sseen)) { sseen[k]; S[++ns] = k } SW[k, $3] = $4; SC[k, $3] = $5 }
$1 == "procs" { k = $2; if (!(k in pseen)) { pseen[k]; P[++np] = k } PW[k, $3] = $5; PC[k, $3] = $6; NP = $7 }
$1 == "complete" { k = what($2) " " mode($3); if (!(k in cseen)) { cseen[k]; C[++nc] = k } CS[k, $4] = $5; CK[k, $4] = $6 }
$1 == "trace" { TW[$2] = $3; TU[$2] = $4; TL[$2] = $6; TP[$2] = $7 }
END {
	for (i = 1; i <= n; i++) {
		k = K[i]
		if (!(W[k, old] > 0) || !(W[k, new] > 0)) continue
		printf "  %-26s %6.2f %6.2f %5d  -> %6.2f %6.2f %5d   %s\n", k, W[k, old], U[k, old], M[k, old] / 1024,
			W[k, new], U[k, new], M[k, new] / 1024, x(W[k, old], W[k, new])
	}
	for (i = 1; i <= nc; i++) {
		k = C[i]
		if ((k, old) in CS && (k, new) in CS)
			printf "  %-26s perf script chains of <= 1 frame %.1f%% -> %.1f%%, with an [unknown] frame %.1f%% -> %.1f%%\n",
				k, 100 * CS[k, old], 100 * CS[k, new], 100 * CK[k, old], 100 * CK[k, new]
	}
	for (i = 1; i <= ns; i++) {
		k = S[i]
		if ((k, old) in SW && (k, new) in SW)
			printf "  %-40s %5d ms %6d syscalls -> %5d ms %6d syscalls\n", k, SW[k, old], SC[k, old], SW[k, new], SC[k, new]
	}
	for (i = 1; i <= np; i++) {
		k = P[i]
		if ((k, old) in PW && (k, new) in PW)
			printf "  %-40s %5d ms %6d syscalls -> %5d ms %6d syscalls (%d more processes)\n", k, PW[k, old], PC[k, old], PW[k, new], PC[k, new], NP
	}
	if (old in TW && new in TW)
		printf "  perf trace -a, 1000 threads: %.2f s, %.2f s CPU, %d events lost, %d lines -> %.2f s, %.2f s CPU, %d lost, %d lines\n",
			TW[old], TU[old], TL[old], TP[old], TW[new], TU[new], TL[new], TP[new]
}' "${3:-$RESULTS}"
