#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf report --children of inline frames that two processes hit

# Two processes run the inlineloop workload: its leaf() and middle() are
# inlined into parent(), and each process maps the perf binary through a
# map of its own. Their entries in perf report --children must stay the
# inline frames they are, each listed once, and parent() once, with no
# entry above 100%.

set -e

tmpdir=$(mktemp -d /tmp/perf-test-report-children-inline.XXXXXX)

cleanup()
{
	trap - EXIT TERM INT
	rm -rf "$tmpdir"
}

trap_cleanup()
{
	echo "Unexpected signal in ${FUNCNAME[1]}"
	cleanup
	exit 1
}

trap cleanup EXIT
trap trap_cleanup TERM INT

data="$tmpdir/perf.data"
if ! perf record -q -g -e task-clock:u -o "$data" -- \
	sh -c 'perf test -w inlineloop 1 & perf test -w inlineloop 1; wait' 2> /dev/null
then
	echo "Skip: failed to record task-clock:u"
	exit 2
fi

# Whether perf finds both inline frames at all (libdw, or an addr2line).
perf script -i "$data" -F ip,sym 2> /dev/null > "$tmpdir/script.txt" || true
if ! grep -q 'leaf (inlined)' "$tmpdir/script.txt" ||
   ! grep -q 'middle (inlined)' "$tmpdir/script.txt"; then
	echo "Skip: the inline frames of the perf binary are not found"
	exit 2
fi

err=0
perf report -i "$data" --stdio -q -g none --children --sort sym 2> /dev/null > "$tmpdir/sym.txt"
for sym in parent 'middle (inlined)' 'leaf (inlined)'; do
	n=$(grep -c -E "\] ${sym//[()]/.}\$" "$tmpdir/sym.txt" || true)
	if [ "$n" != 1 ]; then
		echo "Error: $sym listed $n times by perf report --children --sort sym" >&2
		err=1
	fi
done

# The default sort keys (comm, dso, sym): children of one entry above 100%.
perf report -i "$data" --stdio -q -g none --children 2> /dev/null > "$tmpdir/default.txt"
if awk '$1 + 0 > 100 { found = 1 } END { exit !found }' "$tmpdir/default.txt"; then
	echo "Error: perf report --children gives an entry more than 100%:" >&2
	grep -E '\] parent$' "$tmpdir/default.txt" >&2 || true
	err=1
fi

if [ $err != 0 ]; then
	cat "$tmpdir/sym.txt" >&2
fi
exit $err
