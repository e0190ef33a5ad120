#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Start-up of perf record, counted with strace (no timings): the series
# reads /proc/kallsyms once and does not look at the fds of every process
# (/proc/<pid>/fd, DRM PMUs) or at hwmon for a cpu-clock recording; perf
# trace reads a tracepoint format file in one read() (and one for EOF)
# and, tracing every syscall, fills its BPF prog arrays only for the
# syscalls with an augmenter, and reads no /proc/kallsyms when it
# resolves no kernel address;
# thread maps read /proc/<pid>/task without an fstat() per process; perf
# list lists what upstream lists; perf record --all-cgroups finds the
# cgroups upstream finds; perf list looks at no process's fds on a machine
# without DRM devices.
. "$(dirname "$0")/lib.sh"

ktap_print_header
if ! command -v strace >/dev/null; then
	ktap_set_plan 1; ktap_test_skip "no strace"; ktap_finished; exit 0
fi
ktap_set_plan 10

trace() {	# tree -> strace -f output of perf record of true
	strace -f -o "$TMPD/$1.strace" "$(perf_bin "$1" libdw)" record -o /dev/null \
		-e cpu-clock -- true >/dev/null 2>&1
	cat "$TMPD/$1.strace"
}
up=$(trace upstream); se=$(trace series)
count() { echo "$1" | grep -cE "$2" || true; }

msg() { ktap_print_msg "$1: upstream $2, series $3"; }
u=$(count "$up" 'open.*"/proc/kallsyms"'); s=$(count "$se" 'open.*"/proc/kallsyms"')
msg "/proc/kallsyms opened" "$u" "$s"
[ "$s" -le 1 ] && ktap_test_pass "perf record reads /proc/kallsyms once" ||
	ktap_test_fail "perf record reads /proc/kallsyms once"

# The scan opens "<pid>/fd" relative to /proc and fstatat()s each fd in it.
fdscan='"(/proc/)?[0-9]+/fd"|newfstatat\([0-9]+, "[0-9]+", '
u=$(count "$up" "$fdscan"); s=$(count "$se" "$fdscan")
msg "calls on /proc/<pid>/fd" "$u" "$s"
[ "$s" -eq 0 ] && ktap_test_pass "perf record -e cpu-clock does not scan /proc/<pid>/fd" ||
	ktap_test_fail "perf record -e cpu-clock does not scan /proc/<pid>/fd"

u=$(count "$up" '"/sys/class/hwmon'); s=$(count "$se" '"/sys/class/hwmon')
msg "calls on /sys/class/hwmon" "$u" "$s"
[ "$s" -eq 0 ] && ktap_test_pass "perf record -e cpu-clock does not scan hwmon" ||
	ktap_test_fail "perf record -e cpu-clock does not scan hwmon"

ktap_print_msg "syscalls: upstream $(echo "$up" | wc -l), series $(echo "$se" | wc -l)"

# read() calls per tracepoint format file that perf trace reads.
reads_per_format() {	# tree -> "files reads"
	strace -f -e trace=openat,read,close -o "$TMPD/$1.trace" "$(perf_bin "$1" libdw)" \
		trace -o /dev/null -- true >/dev/null 2>&1
	awk '/openat\(.*\/format", O_RDONLY\) = [0-9]+$/ { fd[$NF] = 1; files++ }
	     / read\([0-9]+,/ { split($2, a, /[(,]/); if (a[2] in fd) reads++ }
	     / close\([0-9]+\)/ { split($2, a, /[()]/); delete fd[a[2]] }
	     END { print files + 0, reads + 0 }' "$TMPD/$1.trace"
}
if [ -d /sys/kernel/tracing/events/syscalls ]; then
	read -r uf ur < <(reads_per_format upstream)
	read -r sf sr < <(reads_per_format series)
	ktap_print_msg "perf trace: tracepoint format files/read() calls: upstream $uf/$ur, series $sf/$sr"
	[ "$sf" -gt 0 ] && [ "$sr" -le $(( 2 * sf )) ] &&
		ktap_test_pass "perf trace reads a tracepoint format file in one read()" ||
		ktap_test_fail "perf trace reads a tracepoint format file in one read()"
else
	ktap_test_skip "perf trace reads a tracepoint format file in one read() (no tracefs)"
fi

# perf trace of syscalls resolves no kernel address: the series makes the
# kernel maps (from /proc/kallsyms) only when it first has to.
if [ -d /sys/kernel/tracing/events/syscalls ]; then
	u=$(grep -c 'open.*"/proc/kallsyms"' "$TMPD/upstream.trace" || true)
	s=$(grep -c 'open.*"/proc/kallsyms"' "$TMPD/series.trace" || true)
	msg "perf trace: /proc/kallsyms opened" "$u" "$s"
	[ "$s" -eq 0 ] && ktap_test_pass "perf trace -- true does not read /proc/kallsyms" ||
		ktap_test_fail "perf trace -- true does not read /proc/kallsyms"
else
	ktap_test_skip "perf trace -- true does not read /proc/kallsyms (no tracefs)"
fi

# bpf(BPF_MAP_UPDATE_ELEM) calls of perf trace without -e: upstream writes
# both prog arrays for every syscall, the series only augmenters' entries.
map_updates() {	# tree -> count
	strace -f -e trace=bpf -o "$TMPD/$1.bpf" "$(perf_bin "$1" libdw)" \
		trace -o /dev/null -- true >/dev/null 2>&1
	grep -c 'BPF_MAP_UPDATE_ELEM' "$TMPD/$1.bpf" || true
}
bu=$(map_updates upstream); bs=$(map_updates series)
msg "perf trace: bpf map updates" "$bu" "$bs"
if [ "$bu" -gt 100 ]; then
	[ "$bs" -lt $(( bu / 2 )) ] &&
		ktap_test_pass "perf trace fills the prog arrays only for augmenters" ||
		ktap_test_fail "perf trace fills the prog arrays only for augmenters"
else
	ktap_test_skip "perf trace fills the prog arrays only for augmenters (no BPF augmenter)"
fi

# The map of all threads (stat -a --per-thread) opens /proc/<pid>/task of
# every process; upstream's scandir() fstat()s each of them.
task_fstats() {	# tree -> "task directories, fstat calls on them"
	strace -f -e trace=openat,newfstatat,fstat,close -o "$TMPD/$1.stat" "$(perf_bin "$1" libdw)" \
		stat -a --per-thread -e task-clock -o /dev/null -- true >/dev/null 2>&1
	awk '/openat\(.*"\/proc\/[0-9]+\/task", .*= [0-9]+$/ { fd[$NF] = 1; dirs++ }
	     /fstat(at)?\([0-9]+,/ { split($2, a, /[(,]/); if (a[2] in fd) st++ }
	     / close\([0-9]+\)/ { split($2, a, /[()]/); delete fd[a[2]] }
	     END { print dirs + 0, st + 0 }' "$TMPD/$1.stat"
}
read -r ud us < <(task_fstats upstream)
read -r sd ss < <(task_fstats series)
ktap_print_msg "perf stat -a --per-thread: /proc/<pid>/task opened/fstat()ed: upstream $ud/$us, series $sd/$ss"
[ "$sd" -gt 0 ] && [ "$ss" -eq 0 ] &&
	ktap_test_pass "thread maps read /proc/<pid>/task without fstat()" ||
	ktap_test_fail "thread maps read /proc/<pid>/task without fstat()"

# The cgroup tree walk of perf record --all-cgroups (io_dir), on a tree of
# our own in the cgroup2 hierarchy.
cgroups_recorded() {	# tree -> sorted PERF_RECORD_CGROUP paths
	"$(perf_bin "$1" libdw)" record --all-cgroups -o "$TMPD/cg-$1.data" -e cpu-clock -- true \
		>/dev/null 2>&1
	"$(perf_bin "$1" libdw)" report -D -i "$TMPD/cg-$1.data" 2>/dev/null |
		sed -n 's/.*PERF_RECORD_CGROUP cgroup: [0-9]* //p' | sort
}
cg2=$(awk '$3 == "cgroup2" {print $2; exit}' /proc/mounts)
cgt=${cg2:+$cg2/perf-t-startup-$$}
if [ -n "$cgt" ] && mkdir -p "$cgt/a/b/c" "$cgt/d" "$cgt/e/f" 2>/dev/null; then
	u=$(cgroups_recorded upstream); s=$(cgroups_recorded series)
	find "$cgt" -depth -type d -exec rmdir {} \; 2>/dev/null
	n=$(grep -c "perf-t-startup-$$" <<<"$s" || true)
	ktap_print_msg "perf record --all-cgroups: $(wc -l <<<"$s") cgroups, $n of the test's 7"
	[ "$n" -eq 7 ] && [ "$u" = "$s" ] &&
		ktap_test_pass "perf record --all-cgroups finds the cgroups upstream finds" ||
		ktap_test_fail "perf record --all-cgroups finds the cgroups upstream finds"
else
	ktap_test_skip "perf record --all-cgroups finds the cgroups upstream finds (no writable cgroup2)"
fi

# DRM PMU discovery (perf list) on a machine without DRM minors.
if ls /sys/class/drm 2>/dev/null | grep -qE '^(card|renderD)'; then
	ktap_test_skip "perf list reads no /proc/<pid>/fd without DRM devices (this machine has some)"
else
	strace -f -o "$TMPD/list-up.strace" "$(perf_bin upstream libdw)" list >/dev/null 2>&1
	strace -f -o "$TMPD/list-se.strace" "$(perf_bin series libdw)" list >/dev/null 2>&1
	u=$(grep -cE "$fdscan" "$TMPD/list-up.strace" || true)
	s=$(grep -cE "$fdscan" "$TMPD/list-se.strace" || true)
	msg "perf list, calls on /proc/<pid>/fd" "$u" "$s"
	[ "$s" -eq 0 ] && ktap_test_pass "perf list reads no /proc/<pid>/fd without DRM devices" ||
		ktap_test_fail "perf list reads no /proc/<pid>/fd without DRM devices"
fi

# No scan was dropped from what perf list shows.
"$(perf_bin upstream libdw)" list >"$TMPD/list.upstream" 2>/dev/null
"$(perf_bin series libdw)" list >"$TMPD/list.series" 2>/dev/null
if [ -s "$TMPD/list.series" ] && cmp -s "$TMPD/list.upstream" "$TMPD/list.series"; then
	ktap_print_msg "perf list: $(wc -l <"$TMPD/list.series") lines, as upstream's"
	ktap_test_pass "perf list lists what upstream lists"
else
	ktap_print_msg "$(diff "$TMPD/list.upstream" "$TMPD/list.series" | head -20)"
	ktap_test_fail "perf list lists what upstream lists"
fi
ktap_finished
