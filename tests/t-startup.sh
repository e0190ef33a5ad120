#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Start-up of perf record, counted with strace (no timings): the series
# reads /proc/kallsyms once and does not look at the fds of every process
# (/proc/<pid>/fd, DRM PMUs) or at hwmon for a cpu-clock recording.
. "$(dirname "$0")/lib.sh"

ktap_print_header
if ! command -v strace >/dev/null; then
	ktap_set_plan 1; ktap_test_skip "no strace"; ktap_finished; exit 0
fi
ktap_set_plan 3

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
ktap_finished
