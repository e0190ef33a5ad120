#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The warm rows of a results file (scripts/bench-measure.sh warm) as plain
# text for a cover letter or a commit message: per candle, command and
# build, the first and the second run on one recording with build-id cache
# entries, and --no-inline; the second run against --no-inline.
#   scripts/bench-warm.sh [results.tsv]
set -uo pipefail
. "$(dirname "$0")/bench-lib.sh"
awk -F'\t' '
$1 == "env" && !env++ { printf "(%s, %s cores, elfutils %s, median of %s interleaved rounds; wall s, user+sys s, max RSS MiB)\n", $2, $3, $5, $7 }
$1 == "warm" { k = $2 ($3 == "dwarf" ? "-dw" : "") SUBSEP $4 SUBSEP $5; if (!(k in seen)) { seen[k]; K[++n] = k }
	W[k, $6] = $7; U[k, $6] = $8; M[k, $6] = $9 / 1024 }
END {
	printf "  %-6s %-8s %-15s %-20s %-20s %s\n", "", "", "", "first run", "second run", "second / --no-inline"
	for (i = 1; i <= n; i++) {
		split(K[i], a, SUBSEP); kn = a[1] SUBSEP a[2] SUBSEP a[3]
		printf "  %-6s %-8s %-15s %5.2f %5.2f %6.0f   %5.2f %5.2f %6.0f", a[1], a[2], a[3],
			W[K[i], "first"], U[K[i], "first"], M[K[i], "first"],
			W[K[i], "second"], U[K[i], "second"], M[K[i], "second"]
		if (W[kn, "noinline"] && M[kn, "noinline"])
			printf "   %.2fx time, %.2fx RSS", W[K[i], "second"] / W[kn, "noinline"],
				M[K[i], "second"] / M[kn, "noinline"]
		printf "\n"
		if (W[kn, "noinline"])
			L[++m] = sprintf("  %-6s %-8s %-15s %5.2f %5.2f %6.0f", a[1], a[2] == "report" ? "rep -NI" : "scr -NI", a[3], W[kn, "noinline"], U[kn, "noinline"], M[kn, "noinline"])
	}
	for (i = 1; i <= m; i++) print L[i]
	print "  (report = perf report -q --stdio -g none --children --percent-limit 5; srcline = perf report -q --stdio --sort srcline --percent-limit 5; script = perf script; -NI: with --no-inline)"
}' "${1:-$RESULTS}"
