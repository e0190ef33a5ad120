#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Test DWARF unwinding across a library unloaded and another loaded (exclusive)

# A process loads liba.so, runs in it, unloads it and loads libb.so, which
# the dynamic loader maps at the same address. Samples in libb.so must be
# unwound with libb.so's CFI, not with what the unwinder kept of liba.so:
# their frames differ in size, a stale unwind would not get back to main().
# With each DWARF unwinder built in; every sample must unwind.

set -e

styles=""
if perf check feature -q libdw-dwarf-unwind; then
	styles="libdw"
fi
if perf check feature -q libunwind; then
	styles="$styles libunwind"
fi
if [ -z "$styles" ]; then
	echo "Skip: no DWARF unwinder built in"
	exit 2
fi

CC=${CC:-cc}
if ! command -v "$CC" > /dev/null; then
	echo "Skip: no C compiler"
	exit 2
fi

tmpdir=$(mktemp -d /tmp/perf-test-dwarf-unwind-dlopen.XXXXXX)
perf_data="$tmpdir/perf.data"
perf_script="$tmpdir/perf-script.txt"

cleanup()
{
	trap - EXIT TERM INT
	rm -rf "$tmpdir"
}

trap cleanup EXIT TERM INT

# Built twice: liba.so with a small frame, libb.so with a large one.
cat > "$tmpdir/lib.c" << _EOF
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) void INNER(volatile int *x)
{
	volatile char buf[FRAME];

	for (int i = 0; i < 100000; i++)
		buf[i % FRAME] = (*x)++;
}

void WORK(double secs)
{
	volatile int x = 0;
	double end = now() + secs;

	while (now() < end)
		INNER(&x);
}
_EOF

cat > "$tmpdir/main.c" << _EOF
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

__attribute__((noinline)) static int run(const char *lib, const char *fn)
{
	void *handle = dlopen(lib, RTLD_NOW);
	void (*work)(double);
	Dl_info info;

	if (!handle)
		return 1;
	work = (void (*)(double))dlsym(handle, fn);
	if (!work || !dladdr((void *)work, &info))
		return 1;
	work(0.4);
	printf("%p\n", info.dli_fbase);
	return dlclose(handle);
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 1;
	return run(argv[1], "work_a") || run(argv[2], "work_b");
}
_EOF

if ! "$CC" -O2 -g -fomit-frame-pointer -fPIC -shared -DINNER=inner_a -DWORK=work_a \
	-DFRAME=16 -o "$tmpdir/liba.so" "$tmpdir/lib.c" ||
   ! "$CC" -O2 -g -fomit-frame-pointer -fPIC -shared -DINNER=inner_b -DWORK=work_b \
	-DFRAME=3000 -o "$tmpdir/libb.so" "$tmpdir/lib.c" ||
   ! "$CC" -O2 -g -o "$tmpdir/main" "$tmpdir/main.c" -ldl
then
	echo "Skip: failed to build the workload"
	exit 2
fi

if ! perf record -q -e task-clock:u -F 499 --call-graph dwarf,8192 \
	-o "$perf_data" -- "$tmpdir/main" "$tmpdir/liba.so" "$tmpdir/libb.so" \
	> "$tmpdir/bases"
then
	echo "Skip: failed to record task-clock:u"
	exit 2
fi
base_a=$(sed -n 1p "$tmpdir/bases")
base_b=$(sed -n 2p "$tmpdir/bases")
echo "liba.so at $base_a, libb.so at $base_b"
if [ -z "$base_a" ] || [ "$base_a" != "$base_b" ]; then
	echo "Skip: the dynamic loader did not map libb.so where liba.so was"
	exit 2
fi

for style in $styles; do
	if ! perf script --unwind-style="$style" -F ip,sym -i "$perf_data" > "$perf_script"
	then
		echo "Error: failed to process the recording with $style" >&2
		exit 1
	fi

	for lib in a b; do
		nr_samples=$(awk -v inner="inner_$lib" '
			BEGIN { RS = "" }
			$2 == inner { n++ }
			END { print n + 0 }' "$perf_script")
		nr_unwound=$(awk -v inner="inner_$lib" -v work="work_$lib" '
			BEGIN { RS = "" }
			$2 == inner && $4 == work && $6 == "run" && $8 == "main" { n++ }
			END { print n + 0 }' "$perf_script")
		echo "$style, lib$lib.so: $nr_unwound of $nr_samples samples in" \
			"inner_$lib unwound to main"
		if [ "$nr_samples" -eq 0 ] || [ "$nr_unwound" -ne "$nr_samples" ]; then
			echo "Error: $style did not unwind every sample in lib$lib.so" >&2
			exit 1
		fi
	done
done

exit 0
