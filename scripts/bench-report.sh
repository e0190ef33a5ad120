#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Markdown tables of what bench-measure.sh measured, with the ratios, and a
# one-line summary at the end.
#   scripts/bench-report.sh [results.tsv]
# The ratios divide by BENCH_REF (upstream-libdw) and BENCH_REF2
# (upstream-libunwind); the summary is of BENCH_NEW (series-libdw).
set -uo pipefail
. "$(dirname "$0")/bench-lib.sh"
awk -F'\t' -v build="$BUILD" -v ref1="${BENCH_REF:-upstream-libdw}" \
	-v ref2="${BENCH_REF2:-upstream-libunwind}" -v new="${BENCH_NEW:-series-libdw}" '
function r(a, b) { return b <= 0 || a == "" ? "-" : a / b < 0.1 ? sprintf("%.2gx", a / b) : sprintf("%.2fx", a / b) }
function mode(m) { return m == "fp" ? "-g" : "--call-graph dwarf" }
function push(list, k) { if (!((list, k) in seen)) { seen[list, k]; n[list]++; L[list, n[list]] = k } }
# Why a candle'\''s chains have [unknown] frames, or end early, where they do.
function why_unknown(c) {
	if (c == "clang")
		return "Debian'\''s clang++ and libLLVM are stripped to their dynamic symbols (no debug package): their static functions are [unknown] frames in every build."
	if (c == "make")
		return "make'\''s children are short-lived: samples taken while a process execs, before its maps are known, have [unknown] frames in every build."
	if (c == "bigdwarf" || c == "quarter")
		return "[unknown] frames are in libraries without symbols on this machine (no debug package), the same in every build."
	return "[unknown] frames are code perf has no symbols for (the vDSO, the dynamic loader), the same in every build."
}
function why_shallow(m) {
	if (m == "fp")
		return "-O2 code keeps no frame pointer: a -g chain often ends after the sampled function; --call-graph dwarf unwinds the same code."
	return "A chain of one frame is a sample where the unwinder found no caller (code without CFI, the first instructions of a process)."
}
$1 == "env" && !env { env = 1
	printf "## Benchmark %s, %s cores, %s, elfutils %s, libunwind %s, median of %s\n\n", $2, $3, $4, $5, $6, $7
	print "Builds: `upstream` = v7.3-rc7, `series` = v7.3-rc7 with patches/, each with libdw and with LIBUNWIND=1 (`-libunwind`, run with unwind.style=libunwind); `at-NN` = up to series NN. At " build "/<build>/perf.\n" }
$1 == "info" { push("cm", $2 SUBSEP $3); info[$2, $3] = sprintf("%s MB, %s samples, %s distinct sampled addresses", $4, $5, $6) }
$1 == "cmd" { k = $2 SUBSEP $3; push("cmds" k, $4); push("builds" k, $5)
	W[k, $4, $5] = $6; U[k, $4, $5] = $7; M[k, $4, $5] = $8 }
$1 == "complete" { S[$2, $3, $4] = $5; K[$2, $3, $4] = $6 }
$1 == "instr" { I[$2, $3] = $5 }
$1 == "floor" { push("floors", $2); F[$2] = F[$2] (F[$2] == "" ? "" : ", ") $3 " s" }
$1 == "warm" { k = $2 SUBSEP $4 SUBSEP $5; if (!((k, "x") in WW)) { push("warm", k); WW[k, "x"] = 1 }
	WW[k, $6] = $7; WU[k, $6] = $8; WM[k, $6] = $9 }
$1 == "atfloor" { push("atfloor", $2); AF[$2, $3] = $5; AM[$2, $3] = $6; AB[$2] = $4 }
$1 == "startup" { push("startup", $2 SUBSEP $3); ST[$2, $3] = sprintf("| %s | %s | %s | %s | %s | %s |", $2, $3, $4, $5, $6, $7) }
$1 == "trace" { push("trace", $2); TR[$2] = sprintf("| %s | %.2f | %.2f | %.0f | %d | %d |", $2, $3, $4, $5 / 1024, $6, $7) }
$1 == "procs" { push("procs", $2 SUBSEP $3); nproc = $7
	PR[$2, $3] = sprintf("| %s | %s | %s | %s | %+.0f%% | %s |", $2, $3, $4, $5, $4 > 0 ? 100 * ($5 / $4 - 1) : 0, $6) }
END {
	for (i = 1; i <= n["cm"]; i++) {
		split(L["cm", i], a, SUBSEP); c = a[1]; m = a[2]; k = c SUBSEP m
		if (c ~ /^addrs/ || c == "quarter") continue
		printf "### %s, %s: %s\n\n", c, mode(m), info[c, m]
		print "| command | build | wall s | user+sys s | max RSS MiB | wall vs " ref1 " | wall vs " ref2 " | RSS vs " ref2 " |"
		print "|---|---|---|---|---|---|---|---|"
		for (j = 1; j <= n["cmds" k]; j++) {
			cmd = L["cmds" k, j]
			for (b = 1; b <= n["builds" k]; b++) {
				bd = L["builds" k, b]
				printf "| %s | %s | %.2f | %.2f | %d | %s | %s | %s |\n", cmd, bd, W[k, cmd, bd], U[k, cmd, bd],
					M[k, cmd, bd] / 1024, r(W[k, cmd, bd], W[k, cmd, ref1]),
					r(W[k, cmd, bd], W[k, cmd, ref2]), r(M[k, cmd, bd], M[k, cmd, ref2])
			}
			if (cmd == "report" && (k, cmd, new) in W) {
				sum = sum (sum == "" ? "" : ", ") sprintf("%s %s %s", c, mode(m), r(W[k, cmd, ref1], W[k, cmd, new]))
				sumu = sumu (sumu == "" ? "" : ", ") sprintf("%s %s %s", c, mode(m), r(W[k, cmd, ref2], W[k, cmd, new]))
			}
		}
		if ((c, m, new) in S) {
			print "\nperf script, share of chains of at most one frame / with an [unknown] frame: "
			for (b = 1; b <= n["builds" k]; b++) {
				bd = L["builds" k, b]
				printf "- %s: %.1f%% / %.1f%%\n", bd, 100 * S[c, m, bd], 100 * K[c, m, bd]
			}
			if (K[c, m, new] >= 0.01)
				print "\n" why_unknown(c)
			if (S[c, m, new] >= 0.05)
				print "\n" why_shallow(m)
			if ((c, m, ref2) in S && S[c, m, ref2] > S[c, m, new] + 0.2)
				print "\n" ref2 " keeps only the chains libunwind unwinds to their end: it drops every frame when the last unw_step() fails (fixed in 01-fixes)."
		}
		print ""
	}
	if (("addrs100" SUBSEP "fp") in info && ("addrs3000" SUBSEP "fp") in info) {
		a1 = "addrs100" SUBSEP "fp"; a2 = "addrs3000" SUBSEP "fp"
		print "### cost per unique address: one DSO of 100 and of 3000 functions with inlined helpers, -g\n"
		print "100 functions: " info["addrs100", "fp"] "; 3000 functions: " info["addrs3000", "fp"] ". Above the floor = report (inline frames) - the same report with --no-inline.\n"
		print "| build | report s, 100 | --no-inline s, 100 | report s, 3000 | --no-inline s, 3000 | above the floor, 3000 / 100 | max RSS MiB, 100 / 3000 |"
		print "|---|---|---|---|---|---|---|"
		for (b = 1; b <= n["builds" a1]; b++) {
			bd = L["builds" a1, b]
			d1 = W[a1, "report", bd] - W[a1, "noinline", bd]; d2 = W[a2, "report", bd] - W[a2, "noinline", bd]
			printf "| %s | %.2f | %.2f | %.2f | %.2f | %.1fx | %d / %d |\n", bd, W[a1, "report", bd], W[a1, "noinline", bd],
				W[a2, "report", bd], W[a2, "noinline", bd], (d2 > 0.01 ? d2 : 0.01) / (d1 > 0.01 ? d1 : 0.01),
				M[a1, "report", bd] / 1024, M[a2, "report", bd] / 1024
		}
		if (("addrs3000", "report") in I)
			printf "\nseries-libdw, instructions (callgrind): 100 functions %.2fG, --no-inline %.2fG; 3000 functions %.2fG, --no-inline %.2fG; above the floor %.1fx.\n",
				I["addrs100", "report"] / 1e9, I["addrs100", "noinline"] / 1e9, I["addrs3000", "report"] / 1e9,
				I["addrs3000", "noinline"] / 1e9, (I["addrs3000", "report"] - I["addrs3000", "noinline"]) / \
				(I["addrs100", "report"] - I["addrs100", "noinline"] > 0 ? I["addrs100", "report"] - I["addrs100", "noinline"] : 1)
		print ""
	}
	q = "quarter" SUBSEP "dwarf"; f = "bigdwarf" SUBSEP "dwarf"
	if (q in info && f in info) {
		split(info[q], iq, " "); split(info[f], iff, " ")
		printf "### time per sample: crushtool --call-graph dwarf, %s and %s samples\n\n", iq[3], iff[3]
		print "| command | build | wall s, quarter | wall s, full | full / quarter | samples full / quarter |"
		print "|---|---|---|---|---|---|"
		for (j = 1; j <= n["cmds" q]; j++) {
			cmd = L["cmds" q, j]
			for (b = 1; b <= n["builds" q]; b++) {
				bd = L["builds" q, b]
				printf "| %s | %s | %.2f | %.2f | %s | %s |\n", cmd, bd, W[q, cmd, bd], W[f, cmd, bd],
					r(W[f, cmd, bd], W[q, cmd, bd]), r(iff[3], iq[3])
			}
		}
		print ""
	}
	if (n["floors"]) {
		print "### the floors of the crushtool and jvm reports with inline frames: one decompression of the hot library'\''s debug file\n"
		for (i = 1; i <= n["floors"]; i++) print "- " L["floors", i] ": " F[L["floors", i]]
		print ""
	}
	if (n["atfloor"]) {
		print "### at the floor, interleaved rounds (medians): the report and script with inline frames against --no-inline + one inflation of the hot library'\''s debug file\n"
		print "| candle | build | report s | script s | --no-inline s | inflate s | report / floor | script / floor | report max RSS MiB | --no-inline max RSS MiB |"
		print "|---|---|---|---|---|---|---|---|---|---|"
		for (i = 1; i <= n["atfloor"]; i++) {
			c = L["atfloor", i]; fl = AF[c, "noinline"] + AF[c, "inflate"]
			printf "| %s | %s | %.2f | %.2f | %.2f | %.2f | %s | %s | %.0f | %.0f |\n", c, AB[c],
				AF[c, "report"], AF[c, "script"], AF[c, "noinline"], AF[c, "inflate"],
				r(AF[c, "report"], fl), r(AF[c, "script"], fl), AM[c, "report"] / 1024, AM[c, "noinline"] / 1024
		}
		print ""
	}
	if (n["warm"]) {
		print "### first and second run on the same recording, each with a build-id cache entry per dso with samples (interleaved rounds, medians)\n"
		print "| candle | command | build | first wall s | second wall s | --no-inline wall s | second / --no-inline | first max RSS MiB | second max RSS MiB | --no-inline max RSS MiB | second / --no-inline RSS |"
		print "|---|---|---|---|---|---|---|---|---|---|---|"
		for (i = 1; i <= n["warm"]; i++) {
			split(L["warm", i], a, SUBSEP); k = L["warm", i]; kn = a[1] SUBSEP "report" SUBSEP a[3]
			printf "| %s | %s | %s | %.2f | %.2f | %.2f | %s | %.0f | %.0f | %.0f | %s |\n", a[1], a[2], a[3],
				WW[k, "first"], WW[k, "second"], WW[kn, "noinline"], r(WW[k, "second"], WW[kn, "noinline"]),
				WM[k, "first"] / 1024, WM[k, "second"] / 1024, WM[kn, "noinline"] / 1024,
				r(WM[k, "second"], WM[kn, "noinline"])
		}
		print ""
	}
	if (n["startup"]) {
		print "### start-up\n\n| command | build | wall ms | syscalls | stat-family calls | getdents64 |\n|---|---|---|---|---|---|"
		for (i = 1; i <= n["startup"]; i++) { split(L["startup", i], a, SUBSEP); print ST[a[1], a[2]] }
		print ""
	}
	if (n["trace"]) {
		print "### perf trace -a of a program that starts and joins threads\n\n| build | wall s | user+sys s | max RSS MiB | events lost | lines of the program |\n|---|---|---|---|---|---|"
		for (i = 1; i <= n["trace"]; i++) print TR[L["trace", i]]
		print ""
	}
	if (n["procs"]) {
		printf "### start-up with %s more idle processes (3 fds each)\n\n| command | build | wall ms, alone | wall ms, with them | growth | syscalls, with them |\n|---|---|---|---|---|---|\n", nproc
		for (i = 1; i <= n["procs"]; i++) { split(L["procs", i], a, SUBSEP); print PR[a[1], a[2]] }
		print ""
	}
	if (sum != "")
		print "Summary, perf report wall time of " ref1 " / " new ": " sum "; of " ref2 " / " new ": " sumu ". The perfs: " build "/<build>/perf (upstream = v7.3-rc7, series = v7.3-rc7 + patches/)."
}' "${1:-$RESULTS}"
