#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""C program with N hot functions, each with two levels of inlined helpers,
for the "cost per unique address" candle: the same run time spread over N
functions, so that 10x the functions gives about 10x the distinct sampled
addresses (and inline chains) in one DSO for the same number of samples.
    addrs-gen.py N > addrs.c; gcc -O2 -g -o addrs addrs.c; ./addrs SECONDS
"""
import sys

n = int(sys.argv[1])
out = ["#include <stdlib.h>", "#include <time.h>", ""]
for i in range(n):
    out.append(f"static inline __attribute__((always_inline)) unsigned h1_{i}(unsigned x) "
               f"{{ return x * {2 * i + 3}u + (x >> {1 + i % 7}); }}")
    out.append(f"static inline __attribute__((always_inline)) unsigned h2_{i}(unsigned x) "
               f"{{ return h1_{i}(x ^ {i}u) + {i % 13}u; }}")
    out.append(f"__attribute__((noinline)) unsigned f_{i}(unsigned x) "
               f"{{ for (int k = 0; k < 64; k++) x = h2_{i}(x) ^ h1_{i}(x + k); return x; }}")
out.append("")
out.append("static unsigned (*const fns[])(unsigned) = {")
out.extend(f"\tf_{i}," for i in range(n))
out.append("};")
out.append("""
int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 2;
	struct timespec t0, t;
	unsigned acc = 1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (unsigned r = 0; r < 200000 / (sizeof(fns) / sizeof(fns[0])) + 1; r++)
			for (unsigned i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
				acc = fns[i](acc);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	return acc == 42;
}""")
print("\n".join(out))
