#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf report and script show the C++ names demangled

# perf loads a binary's symbols with their ELF names and demangles a name
# when it first hands the symbol out: the names in report, script and
# annotate, a --symbols filter by demangled name and --no-demangle must be
# what they were when every name was demangled at load; C++, and Rust's two
# manglings when rustc is there.

set -e

CXX=${CXX:-c++}
if ! command -v "$CXX" > /dev/null; then
	echo "Skip: no C++ compiler"
	exit 2
fi

tmpdir=$(mktemp -d /tmp/perf-test-demangle.XXXXXX)
perf_data="$tmpdir/perf.data"
err=0

cleanup()
{
	trap - EXIT TERM INT
	rm -rf "$tmpdir"
}

trap cleanup EXIT TERM INT

cat > "$tmpdir/work.cpp" << _EOF
#include <cstdlib>

namespace demo {

template <typename T>
struct Box {
	T v;
	__attribute__((noinline)) T spin(unsigned long n);
};

template <typename T>
T Box<T>::spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		v = v * 3 + (T)i;
	return v;
}

/* Its complete and base object constructors are aliases: C1 and C2. */
struct Spinner {
	volatile unsigned long x;
	Spinner(unsigned long n);
};

Spinner::Spinner(unsigned long n) : x(0)
{
	for (unsigned long i = 0; i < n; i++)
		x = x + i;
}

} // namespace demo

extern "C" __attribute__((noinline)) unsigned long c_spin(unsigned long n)
{
	volatile unsigned long r = 0;

	for (unsigned long i = 0; i < n; i++)
		r = r + i;
	return r;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 100000000;
	demo::Box<int> b{1};
	demo::Spinner s(n);

	return (b.spin(n) + s.x + c_spin(n)) == 1;
}
_EOF

if ! "$CXX" -O1 -fno-inline -o "$tmpdir/work" "$tmpdir/work.cpp"; then
	echo "Skip: the C++ compiler failed"
	exit 2
fi

if ! perf record -q -e cpu-clock -F 999 -o "$perf_data" -- "$tmpdir/work" > /dev/null 2>&1; then
	echo "Skip: perf record failed"
	exit 2
fi

check()	# what file pattern...
{
	local what=$1 file=$2

	shift 2
	for pat in "$@"; do
		if ! grep -qF -- "$pat" "$file"; then
			echo "$what: no \"$pat\" in:"
			head -20 "$file"
			err=1
		fi
	done
}

names=("demo::Box<int>::spin" "demo::Spinner::Spinner" "c_spin")

perf report -i "$perf_data" -q --stdio --sort sym > "$tmpdir/report" 2>/dev/null
check "perf report" "$tmpdir/report" "${names[@]}"
if grep -q "_ZN4demo" "$tmpdir/report"; then
	echo "perf report: a mangled name"
	err=1
fi

perf script -i "$perf_data" -F ip,sym > "$tmpdir/script" 2>/dev/null
check "perf script" "$tmpdir/script" "${names[@]}"

# The name as report shows it (with its parameters if the demangler gives
# them): a --symbols filter by it finds the symbol, and only it.
box=$(sed -n 's/.*\[\.\] \(demo::Box<int>::spin.*\)$/\1/p' "$tmpdir/report" | head -1)
perf report -i "$perf_data" -q --stdio --sort sym --symbols="$box" 2>/dev/null |
	grep -v '^#' > "$tmpdir/report-filter" || true
check "perf report --symbols" "$tmpdir/report-filter" "demo::Box<int>::spin"
if grep -qF -e "c_spin" -e "Spinner" "$tmpdir/report-filter"; then
	echo "perf report --symbols: other symbols shown"
	err=1
fi

# --no-demangle shows the ELF names.
mangled=$(nm "$tmpdir/work" 2>/dev/null | awk '$3 ~ /^_ZN4demo3BoxIiE4spin/ { print $3 }')
if [ -n "$mangled" ]; then
	perf report --no-demangle -i "$perf_data" -q --stdio --sort sym \
		> "$tmpdir/report-raw" 2>/dev/null
	check "perf report --no-demangle" "$tmpdir/report-raw" "$mangled"
fi

# perf annotate finds the symbol by its demangled name.
if [ -n "$box" ] && command -v objdump > /dev/null; then
	perf annotate -i "$perf_data" --stdio -s "$box" > "$tmpdir/annotate" 2>/dev/null || true
	check "perf annotate" "$tmpdir/annotate" "demo::Box<int>::spin"
fi

# Rust, with its default (legacy) and its v0 mangling, when rustc is there.
if command -v rustc > /dev/null; then
	cat > "$tmpdir/work.rs" << _EOF
mod rustdemo {
    #[inline(never)]
    pub fn spin(n: u64) -> u64 {
        let mut x: u64 = 0;
        for i in 0..n {
            x = std::hint::black_box(x.wrapping_mul(3).wrapping_add(i));
        }
        x
    }
}

fn main() {
    let n = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(100_000_000);
    std::process::exit((rustdemo::spin(n) == 1) as i32);
}
_EOF
	# The default mangling (legacy, as of rustc 1.95), then v0.
	for mangling in default v0; do
		opt=()
		[ $mangling = v0 ] && opt=(-C symbol-mangling-version=v0)
		if ! rustc -O "${opt[@]}" -o "$tmpdir/work" "$tmpdir/work.rs" > /dev/null 2>&1 ||
		   ! perf record -q -e cpu-clock -F 999 -o "$perf_data" -- \
			"$tmpdir/work" > /dev/null 2>&1; then
			echo "Rust ($mangling mangling): no program or no recording, not checked"
			continue
		fi
		perf report -i "$perf_data" -q --stdio --sort sym > "$tmpdir/report" 2>/dev/null
		check "perf report, Rust $mangling" "$tmpdir/report" "work::rustdemo::spin"
		perf script -i "$perf_data" -F ip,sym > "$tmpdir/script" 2>/dev/null
		check "perf script, Rust $mangling" "$tmpdir/script" "work::rustdemo::spin"
	done
fi

exit $err
