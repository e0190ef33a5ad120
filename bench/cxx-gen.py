#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""C++ program with N hot functions, self-contained, for the benchmark's
default comparison: each hot function is a member of a class template in a
namespace, calls a lambda and two levels of inlined helpers, so that its
samples carry inline frames with qualified C++ names (ns3::Worker<7>::run,
...::operator()), as big C++ programs do.
    cxx-gen.py N > cxx.cpp; g++ -O2 -g -o cxx cxx.cpp; ./cxx SECONDS
"""
import sys

n = int(sys.argv[1])
out = ["#include <cstdlib>", "#include <ctime>", "", "namespace bench {"]
for i in range(n):
    ns = f"ns{i % 50}"
    out.append(f"""namespace {ns} {{
template <unsigned K> struct Worker{i} {{
	static inline __attribute__((always_inline)) unsigned mix(unsigned x)
	{{ return x * (2 * K + 3) + (x >> (1 + K % 7)); }}
	static inline __attribute__((always_inline)) unsigned step(unsigned x)
	{{ return mix(x ^ K) + K % 13; }}
	__attribute__((noinline)) unsigned run(unsigned x) const
	{{
		auto f = [](unsigned v, int k) __attribute__((always_inline)) {{ return step(v) ^ mix(v + k); }};
		for (int k = 0; k < 64; k++)
			x = f(x, k);
		return x;
	}}
}};
unsigned call{i}(unsigned x) {{ return Worker{i}<{i}u>().run(x); }}
}} // namespace {ns}""")
out.append("} // namespace bench")
out.append("")
out.append("static unsigned (*const fns[])(unsigned) = {")
out.extend(f"\tbench::ns{i % 50}::call{i}," for i in range(n))
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
