// SPDX-License-Identifier: GPL-2.0
// A small C++ workload for the end-to-end tests: namespaces, templates,
// lambdas, inlining and a shared library, so that call chains cross DSOs
// and carry qualified names and inline frames.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace cxxwork {
namespace detail {

template <typename T>
struct Accumulator {
	T sum{};
	__attribute__((noinline)) void add(const T &v) { sum += v * v % 7; }
};

static inline unsigned mix(unsigned x)
{
	x ^= x >> 13;
	x *= 0x5bd1e995u;
	return x ^ (x >> 15);
}

} // namespace detail

template <typename F>
__attribute__((noinline)) unsigned long run_lambda(F f, unsigned n)
{
	unsigned long r = 0;
	for (unsigned i = 0; i < n; i++)
		r += f(i);
	return r;
}

__attribute__((noinline)) unsigned long sort_work(unsigned n)
{
	std::vector<unsigned> v(n);
	for (unsigned i = 0; i < n; i++)
		v[i] = detail::mix(i);
	std::sort(v.begin(), v.end());
	return v[n / 2];
}

__attribute__((noinline)) unsigned long map_work(unsigned n)
{
	std::map<std::string, unsigned> m;
	for (unsigned i = 0; i < n; i++)
		m[std::to_string(detail::mix(i) % 1000)] += i;
	return m.size();
}

} // namespace cxxwork

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0;
	unsigned rounds = (unsigned)(secs * 150);
	unsigned long r = 0;
	cxxwork::detail::Accumulator<unsigned long> acc;

	for (unsigned k = 0; k < rounds; k++) {
		r += cxxwork::run_lambda([&acc](unsigned i) {
			acc.add(i);
			return cxxwork::detail::mix(i) & 1;
		}, 200000);
		r += cxxwork::sort_work(40000);
		r += cxxwork::map_work(8000);
	}
	printf("%lu %lu\n", r, acc.sum);
	return 0;
}
