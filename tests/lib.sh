# SPDX-License-Identifier: GPL-2.0
# Common part of the project's tests: KTAP through the base tree's
# kselftest helpers, and the paths of the builds.
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
KTAP=$BASE/tools/testing/selftests/kselftest/ktap_helpers.sh
[ -f "$KTAP" ] || KTAP=$UPSTREAM/tools/testing/selftests/kselftest/ktap_helpers.sh
. "$KTAP"
perf_bin() { echo "$BUILD/$1-$2/perf"; }	# tree config
src_of() { case $1 in series) echo "$BASE" ;; upstream) echo "$UPSTREAM" ;; esac; }
TMPD=$(mktemp -d /tmp/perftest.XXXXXX)
trap 'rm -rf "$TMPD"' EXIT
