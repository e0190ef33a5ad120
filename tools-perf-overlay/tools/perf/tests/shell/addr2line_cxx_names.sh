#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test addr2line C++ names of inlined frames

# Inlined C++ functions are named from their DWARF: qualified and demangled
# from the linkage name when there is one, else from the scopes of their
# declaration: a lambda's operator() inlined into a function template is
# "main::{lambda}::operator()" or similar, never a bare "operator()"; a
# member function of a class in an anonymous namespace (GCC gives it no
# linkage name) is "(anonymous namespace)::Counter::bump". With g++ and
# with clang++, those that are installed (or $CXX alone).

set -e

if ! perf check feature -q dwarf; then
	echo "Skip: perf built without libdw, which names the frames"
	exit 2
fi

compilers=
for cxx in ${CXX:-g++ clang++}; do
	if command -v "$cxx" > /dev/null; then
		compilers="$compilers $cxx"
	fi
done
if [ -z "$compilers" ]; then
	echo "Skip: no C++ compiler"
	exit 2
fi

tmpdir=$(mktemp -d /tmp/perf-test-addr2line-cxx.XXXXXX)
perf_data="$tmpdir/perf.data"
perf_script="$tmpdir/perf-script.txt"

cleanup()
{
	trap - EXIT TERM INT
	rm -rf "$tmpdir"
}

trap cleanup EXIT TERM INT

cat > "$tmpdir/work.cpp" << _EOF
#include <cstdlib>

namespace outer {
namespace inner {

template <typename T>
struct Acc {
	T sum{};
	inline void add(T v) { sum += v * v % 7; }
};

template <typename F>
__attribute__((noinline)) unsigned long run(F f, unsigned n)
{
	unsigned long r = 0;

	for (unsigned i = 0; i < n; i++)
		r += f(i);
	return r;
}

} // namespace inner
} // namespace outer

namespace {
struct Counter {
	unsigned long n{};
	inline void bump(unsigned v) { n += v * v % 11; }
};
} // namespace

int main(int argc, char **argv)
{
	outer::inner::Acc<unsigned long> acc;
	Counter cnt;
	unsigned long r = 0;
	unsigned rounds = argc > 1 ? atoi(argv[1]) : 300;

	for (unsigned k = 0; k < rounds; k++)
		r += outer::inner::run([&acc, &cnt](unsigned i) {
			acc.add(i);
			cnt.bump(i);
			return (i ^ (i >> 3)) & 1;
		}, 1000000);
	return (r + acc.sum + cnt.n) == 42;
}
_EOF

check_names()
{
	local CXX=$1 name=${1##*/} bare qualified add bump bare_bump

	if ! "$CXX" -O2 -g -o "$tmpdir/work-$name" "$tmpdir/work.cpp"; then
		echo "$CXX: failed to build the workload, skipped"
		return 0
	fi

	if ! perf record -q -e task-clock:u -F 999 --call-graph dwarf -o "$perf_data-$name" \
		-- "$tmpdir/work-$name" 300 2> /dev/null
	then
		echo "Skip: failed to record task-clock:u"
		exit 2
	fi

	perf script -i "$perf_data-$name" -F ip,sym > "$perf_script-$name"

	# The demangled linkage name of a lambda's operator() (clang gives it one)
	# carries its parameters: match the names whatever follows them.
	bare=$(grep -cE '^\s+[0-9a-f]+ operator\(\).* \(inlined\)$' "$perf_script-$name" || true)
	qualified=$(grep -cE '^\s+[0-9a-f]+ \S+::operator\(\).* \(inlined\)$' \
		"$perf_script-$name" || true)
	add=$(grep -cE '^\s+[0-9a-f]+ outer::inner::Acc<unsigned long>::add\(.* \(inlined\)$' \
		"$perf_script-$name" || true)
	bump=$(grep -cE '^\s+[0-9a-f]+ \(anonymous namespace\)::Counter::bump.* \(inlined\)$' \
		"$perf_script-$name" || true)
	bare_bump=$(grep -cE '^\s+[0-9a-f]+ bump.* \(inlined\)$' "$perf_script-$name" || true)
	echo "$CXX: inlined operator(): $qualified qualified, $bare bare;" \
		"inlined Acc<>::add: $add; inlined Counter::bump: $bump qualified, $bare_bump bare"

	if [ "$bare" -ne 0 ] || [ "$qualified" -eq 0 ] || [ "$add" -eq 0 ] ||
	   [ "$bare_bump" -ne 0 ] || [ "$bump" -eq 0 ]; then
		echo "Error: $CXX: inlined C++ frames are not named with their scopes" >&2
		grep -m5 -E 'operator\(\)|add|bump' "$perf_script-$name" >&2 || true
		exit 1
	fi
}

for cxx in $compilers; do
	check_names "$cxx"
done
exit 0
