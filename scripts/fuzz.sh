#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fuzz perf's libdw code with libFuzzer (Documentation/robustness.md
# "Fuzzing"), three harnesses:
#   srcline  tests/fuzz/fuzz-srcline.c: source lines and inline frames
#   unwind   tests/fuzz/fuzz-unwind.c: the DWARF unwinder of a sample
#   kept     tests/fuzz/fuzz-kept.c: the source lines kept in the build-id
#            cache (its srclines file), for one ELF file, $WORK/fuzz/kept/kept.so
#   scripts/fuzz.sh [seconds] [srcline|unwind|kept|all]
#		(make fuzz: FUZZ_SECONDS, default 300; FUZZ_WHICH, default all:
#		the seconds are split between the three)
# 1. builds perf's archives with clang, ASan, UBSan and libFuzzer's coverage
#    in $WORK/build/series-fuzz, from $WORK/fuzz-src: a worktree of the series
#    branch at its current commit (the series' checkout $BASE is left alone);
# 2. links $WORK/build/series-fuzz/fuzz-<name> against them;
# 3. generates the seeds into $WORK/fuzz/<name>/seeds (tests/fuzz/seeds.sh);
# 4. runs one fuzzing process (no -jobs: libFuzzer's -jobs=1 forks a worker)
#    at nice 19 on $WORK/fuzz/<name>/corpus (kept between runs) and the
#    seeds, for its seconds, and prints a summary; one harness after the
#    other.
# Crashes, leaks, timeouts and out-of-memory inputs go to
# $WORK/fuzz/<name>/crashes, the run's log to $WORK/fuzz/<name>/fuzz.log.
# Every make holds /tmp/build.lock.
# FUZZ_BUILD_ONLY=1: steps 1 and 2 only.  FUZZ_ARGS: more libFuzzer options.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
secs=${1:-${FUZZ_SECONDS:-300}}
which=${2:-${FUZZ_WHICH:-all}}
case $which in
srcline|unwind|kept) harnesses=("$which") ;;
all) harnesses=(srcline unwind kept) ;;
*) echo "usage: $0 [seconds] [srcline|unwind|kept|all]" >&2; exit 2 ;;
esac

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

mkdir -p "$OUT" "$FZ"
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
# The link is small, but holds the lock too (it is a build).
for h in "${harnesses[@]}"; do
	echo "fuzz: linking $OUT/fuzz-$h"
	flock "$LOCK" nice -n 10 clang "${CFL[@]}" -fsanitize=fuzzer,address,undefined \
		-Wno-missing-prototypes -o "$OUT/fuzz-$h" "$TOP/tests/fuzz/fuzz-$h.c" "$TOP/tests/fuzz/fuzz-common.c" \
		-Wl,--start-group "${LIBS[@]}" "${EXT[@]}" -Wl,--end-group >"$OUT/link-$h.log" 2>&1 || {
		cat "$OUT/link-$h.log" >&2; echo "fuzz: link of fuzz-$h FAILED" >&2; exit 1; }
done
[ "${FUZZ_BUILD_ONLY:-}" = 1 ] && exit 0

# Leaks in libdw and libelf are not perf's: tests/fuzz/lsan.supp.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$TOP/tests/fuzz/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# The srcline harness' folders of before the unwind harness.
if [ -d "$FZ/corpus" ] && [ ! -e "$FZ/srcline" ]; then
	mkdir -p "$FZ/srcline"
	mv "$FZ/corpus" "$FZ/srcline/"
	[ -d "$FZ/crashes" ] && mv "$FZ/crashes" "$FZ/srcline/"
	[ -f "$FZ/fuzz.log" ] && mv "$FZ/fuzz.log" "$FZ/srcline/"
	rm -rf "$FZ/seeds"
fi

each=$((secs / ${#harnesses[@]}))
[ "$each" -ge 1 ] || each=1
final=0
for h in "${harnesses[@]}"; do
	D=$FZ/$h
	mkdir -p "$D/corpus" "$D/crashes"
	# Afresh: what a run adds goes to the corpus, not here.
	rm -rf "$D/seeds"
	# kept: the ELF file whose srclines file the inputs are, and the
	# harness that writes the seed.
	export FUZZ_KEPT_ELF=$FZ/kept/kept.so FUZZ_KEPT_HARNESS=$OUT/fuzz-kept
	nice -n 10 "$TOP/tests/fuzz/seeds.sh" "$D/seeds" "$h"

	log=$D/fuzz.log
	echo "fuzz: fuzz-$h running $each s (log: $log)"
	rc=0
	(cd "$D" && nice -n 19 "$OUT/fuzz-$h" -max_total_time="$each" -rss_limit_mb=2048 \
		-timeout=10 -print_final_stats=1 -artifact_prefix="$D/crashes/" \
		${FUZZ_ARGS:-} "$D/corpus" "$D/seeds") >"$log" 2>&1 || rc=$?
	[ "$rc" = 0 ] || final=$rc

	last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
	echo "fuzz: fuzz-$h exit $rc; last status: ${last:-none}"
	grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' \
		"$log" || true
	echo "fuzz: fuzz-$h corpus $(ls "$D/corpus" | wc -l) inputs, seeds $(ls "$D/seeds" | wc -l)"
	n=$(ls "$D/crashes" | wc -l)
	echo "fuzz: fuzz-$h $n crash/leak/timeout/oom inputs in $D/crashes"
	ls -l "$D/crashes" | tail -n +2
	grep -m3 -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" || true
done
exit "$final"
