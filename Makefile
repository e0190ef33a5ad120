# SPDX-License-Identifier: GPL-2.0
# make        install deps, fetch the base, apply the series, build the four
#             perfs, and print the comparison on a C++ program with inline
#             frames and on clang++ (scripts/bench.sh default)
# make check  the project's tests (KTAP), last line "N passed, N failed, N skipped",
#             with an ASan+UBSan build of the series for the robustness corpus
# make check-full  make check, and what does not fit in CI's time: elfutils'
#             own make check with the elfutils series (tests/t-elfutils.sh),
#             every patch of every series built at its position (tests/t-bisect.sh;
#             make check: those of the first series) and valgrind (tests/t-robust.sh)
# make bench  the full benchmark (all candles), a markdown table
# make fuzz   libFuzzer on perf's libdw srcline and inline frame code, its
#             libdw DWARF unwinder and the source lines kept in the build-id
#             cache (scripts/fuzz.sh, FUZZ_SECONDS=300 split between them,
#             FUZZ_WHICH=all|srcline|unwind|kept): an ASan+UBSan clang
#             build, findings in work/fuzz/<name>/crashes; not part of make check
# make export re-export patches/ and tools-perf-overlay/ from the work branch
SHELL := /bin/bash
.PHONY: all deps base apply build build-asan check check-full bench bench-default fuzz export checkpatch clean

all: build bench-default

deps:
	scripts/install-deps.sh

base: deps
	scripts/get-base.sh

apply: base
	scripts/apply.sh

build: apply
	scripts/build.sh upstream libdw
	scripts/build.sh upstream libunwind
	scripts/build.sh series libdw
	scripts/build.sh series libunwind

# ASan+UBSan build of the series for tests/t-robust.sh (skipped without it).
build-asan: apply
	scripts/build.sh series asan

check: build build-asan
	tests/run.sh

check-full: build build-asan
	CHECK_FULL=1 ELFUTILS_MAKE_CHECK=1 tests/run.sh

bench-default: build
	scripts/bench.sh default

bench: build
	scripts/bench.sh all

FUZZ_SECONDS ?= 300
FUZZ_WHICH ?= all
fuzz: apply
	scripts/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_WHICH)

export:
	scripts/export.sh

checkpatch:
	scripts/checkpatch.sh

clean:
	-scripts/sid-chroot.sh umount
	rm -rf work
