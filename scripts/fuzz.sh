#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fuzz perf's libdw source line and inline frame code with libFuzzer
# (tests/fuzz/fuzz-srcline.c, Documentation/robustness.md "Fuzzing"):
#   scripts/fuzz.sh [seconds]		(make fuzz: FUZZ_SECONDS, default 300)
# 1. builds perf's archives with clang, ASan, UBSan and libFuzzer's coverage
#    in $WORK/build/series-fuzz, from $WORK/fuzz-src: a worktree of the series
#    branch at its current commit (the series' checkout $BASE is left alone);
# 2. links $WORK/build/series-fuzz/fuzz-srcline against them;
# 3. generates the seeds into $WORK/fuzz/seeds (tests/fuzz/seeds.sh);
# 4. runs one fuzzing process (no -jobs: libFuzzer's -jobs=1 forks a worker)
#    at nice 19 on $WORK/fuzz/corpus (kept between
#    runs) and the seeds, for the given seconds, and prints a summary.
# Crashes, leaks, timeouts and out-of-memory inputs go to $WORK/fuzz/crashes,
# the run's log to $WORK/fuzz/fuzz.log. Every make holds /tmp/build.lock.
# FUZZ_BUILD_ONLY=1: steps 1 and 2 only.  FUZZ_ARGS: more libFuzzer options.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
secs=${1:-${FUZZ_SECONDS:-300}}

SRC=$WORK/fuzz-src
OUT=$BUILD/series-fuzz
FZ=$WORK/fuzz
LOCK=/tmp/build.lock

if [ ! -d "$SRC/tools/perf" ]; then
	git -C "$BASE" worktree add -q -f --detach "$SRC" "$SERIES_BRANCH"
else
	git -C "$SRC" checkout -q --detach "$SERIES_BRANCH"
fi

SAN="-fsanitize=address,undefined"
FLAGS=(CC=clang CXX=clang++ HOSTCC=gcc
	EXTRA_CFLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -g -O1"
	LDFLAGS="$SAN" WERROR=0 NO_LIBBPF=1 NO_LIBTRACEEVENT=1 NO_LIBPYTHON=1 NO_JEVENTS=1
	NO_LIBLLVM=1 NO_LIBUNWIND=1 NO_RUST=1 NO_CAPSTONE=1 NO_JVMTI=1)
# What the harness needs of perf, not perf itself (perf.c, builtin-*.c, tests).
LIBS=("$OUT/libperf-util.a" "$OUT/libperf-ui.a" "$OUT/libpmu-events.a"
      "$OUT/libperf/libperf.a" "$OUT/libapi/libapi.a" "$OUT/libsubcmd/libsubcmd.a"
      "$OUT/libsymbol/libsymbol.a")
# Makefile.perf itself: one make for all the targets (tools/perf/Makefile
# runs one per target, which race building fixdep).
pmake() {
	flock "$LOCK" nice -n 10 make -C "$SRC/tools/perf" -f Makefile.perf --no-print-directory \
		O="$OUT" -j"$JOBS" "${FLAGS[@]}" "$@"
}

mkdir -p "$OUT" "$FZ/corpus" "$FZ/crashes"
echo "fuzz: building the archives in $OUT"
pmake "${LIBS[@]}" >"$OUT/build.log" 2>&1 || {
	tail -40 "$OUT/build.log" >&2; echo "fuzz: build FAILED (log: $OUT/build.log)" >&2; exit 1; }

# perf's own CFLAGS (its HAVE_* and include paths: struct dso's layout
# depends on them) and the libraries it links (FIXDEP_BUILT=1: one pass of
# Makefile.perf, the one that reads Makefile.config; fixdep is built).
pmake FIXDEP_BUILT=1 --eval 'fuzz-flags: ; @echo "$(CFLAGS)" >$(OUTPUT)fuzz.cflags; echo "$(EXTLIBS)" >$(OUTPUT)fuzz.extlibs' \
	fuzz-flags >"$OUT/fuzz-flags.log" 2>&1 || {
	cat "$OUT/fuzz-flags.log" >&2; exit 1; }
read -r -a CFL <"$OUT/fuzz.cflags"
read -r -a EXT <"$OUT/fuzz.extlibs"
echo "fuzz: linking $OUT/fuzz-srcline"
# The link is small, but holds the lock too (it is a build).
flock "$LOCK" nice -n 10 clang "${CFL[@]}" -fsanitize=fuzzer,address,undefined \
	-Wno-missing-prototypes -o "$OUT/fuzz-srcline" "$TOP/tests/fuzz/fuzz-srcline.c" \
	-Wl,--start-group "${LIBS[@]}" "${EXT[@]}" -Wl,--end-group >"$OUT/link.log" 2>&1 || {
	cat "$OUT/link.log" >&2; echo "fuzz: link FAILED" >&2; exit 1; }
[ "${FUZZ_BUILD_ONLY:-}" = 1 ] && exit 0

# Afresh: what a run adds goes to the corpus, not here.
rm -rf "$FZ/seeds"
nice -n 10 "$TOP/tests/fuzz/seeds.sh" "$FZ/seeds"

# Leaks in libdw and libelf are not perf's: tests/fuzz/lsan.supp.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$TOP/tests/fuzz/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
echo "fuzz: running $secs s (log: $FZ/fuzz.log)"
rc=0
(cd "$FZ" && nice -n 19 "$OUT/fuzz-srcline" -max_total_time="$secs" -rss_limit_mb=2048 \
	-timeout=10 -print_final_stats=1 -artifact_prefix="$FZ/crashes/" \
	${FUZZ_ARGS:-} "$FZ/corpus" "$FZ/seeds") >"$FZ/fuzz.log" 2>&1 || rc=$?

log=$FZ/fuzz.log
last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
echo "fuzz: exit $rc; last status: ${last:-none}"
grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' \
	"$log" || true
echo "fuzz: corpus $(ls "$FZ/corpus" | wc -l) inputs, seeds $(ls "$FZ/seeds" | wc -l)"
n=$(ls "$FZ/crashes" | wc -l)
echo "fuzz: $n crash/leak/timeout/oom inputs in $FZ/crashes"
ls -l "$FZ/crashes" | tail -n +2
grep -m3 -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" || true
