#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Test libdw unwinding through hand-written CFI (exclusive)

# perf steps the frames of x86-64 code with the rules of each dso's
# .eh_frame and hands a sample to libdwfl's unwinder where libdwfl would
# look further. Through the hand-written CFI of the cfiloop workload (an
# expression CFA, remember/restore state, a register saved in another
# register, a frame pointer, a signal frame, code without CFI) the chains
# must reach cfiloop(), and be those of libdwfl's unwinder, sample by sample.

set -e

if [ "$(uname -m)" != x86_64 ]; then
	echo "Skip: perf steps the frames of x86-64 code only"
	exit 2
fi

if ! perf check feature -q libdw-dwarf-unwind; then
	echo "Skip: libdw DWARF unwinding is not available"
	exit 2
fi

tmpdir=$(mktemp -d /tmp/perf-test-dwarf-unwind-cfi.XXXXXX)
perf_data="$tmpdir/perf.data"

cleanup()
{
	trap - EXIT TERM INT
	rm -rf "$tmpdir"
}

trap cleanup EXIT TERM INT

if ! perf record -q -e task-clock:u -F 499 --call-graph dwarf,16384 \
	-o "$perf_data" -- perf test -w cfiloop 1
then
	echo "Skip: failed to record task-clock:u"
	exit 2
fi

for style in libdw libdwfl; do
	if ! perf script -v --unwind-style=$style -F ip,sym -i "$perf_data" \
		> "$tmpdir/$style.txt" 2> "$tmpdir/$style.debug"
	then
		echo "Error: failed to process the recording with $style" >&2
		exit 1
	fi
done

if ! cmp -s "$tmpdir/libdw.txt" "$tmpdir/libdwfl.txt"; then
	echo "Error: the chains of perf's step are not libdwfl's:" >&2
	diff -u "$tmpdir/libdwfl.txt" "$tmpdir/libdw.txt" | head -40 >&2
	exit 1
fi

# The chains of a phase, callee first: $1 is an awk regex of the frames.
count_chains()
{
	awk -v re="$1" '
		BEGIN { RS = "" }
		{
			s = ""
			for (i = 2; i <= NF; i += 2)
				s = s " " $i
			if (s ~ re)
				n++
		}
		END { print n + 0 }
	' "$tmpdir/libdw.txt"
}

cfi=" cfi_spin cfi_state cfi_expr cfi_regreg cfi_fp cfiloop_fp"
for phase in \
	"$cfi cfiloop " \
	"$cfi sigusr1_handler .* cfiloop " \
	" cfi_spin cfi_nofde cfiloop_nofde cfiloop "
do
	n=$(count_chains "^$phase")
	echo "$n chains of$phase"
	if [ "$n" -eq 0 ]; then
		echo "Error: no chain of$phase" >&2
		exit 1
	fi
done

# The CFI chains were perf's, the one through code without CFI libdwfl's.
# "unwind: <n> samples unwound with the dsos' CFI, <m> by libdwfl"
counts=$(awk '/^unwind: [0-9]+ samples unwound with the dsos. CFI, [0-9]+ by libdwfl$/ {
		stepped += $2; fallbacks += $9
	}
	END { print stepped + 0, fallbacks + 0 }' "$tmpdir/libdw.debug")
stepped=${counts% *}
fallbacks=${counts#* }
echo "$stepped samples unwound with the dsos' CFI, $fallbacks by libdwfl"
if [ "$stepped" -eq 0 ] || [ "$fallbacks" -eq 0 ]; then
	echo "Error: expected samples unwound by both" >&2
	exit 1
fi

exit 0
