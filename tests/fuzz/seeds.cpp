// SPDX-License-Identifier: GPL-2.0
// Seed source for tests/fuzz/fuzz-srcline.c (tests/fuzz/seeds.sh): inline
// frames in namespaces, classes, templates and a lambda, as perf's libdw
// srcline code names them.
namespace outer {
namespace inner {
struct Acc {
	unsigned long v;
	__attribute__((always_inline)) inline void add(unsigned long x)
	{
		v += x * 3 + (v >> 7);
	}
};

template <typename T>
__attribute__((always_inline)) inline T twice(T x)
{
	return x * 2 + 1;
}
} // namespace inner

static inline unsigned long mix(unsigned long x)
{
	inner::Acc a = { x };

	for (int i = 0; i < 4; i++)
		a.add(inner::twice(x + i));
	return a.v;
}
} // namespace outer

extern "C" unsigned long seed_spin(unsigned long n)
{
	auto step = [](unsigned long x) { return outer::mix(x) ^ (x << 3); };
	unsigned long r = 0;

	for (unsigned long i = 0; i < n; i++)
		r += step(i);
	return r;
}

extern "C" unsigned long seed_plain(unsigned long n)
{
	return n ? seed_plain(n - 1) * 3 + outer::mix(n) : 1;
}
