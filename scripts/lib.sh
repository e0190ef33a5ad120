# SPDX-License-Identifier: GPL-2.0
# Common paths for the scripts. Source it.
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=${WORK:-$TOP/work}
if [ -n "${PERF_TREE:-}" ]; then
	BASE=$PERF_TREE
	BASE_REF=${BASE_REF:-$(git -C "$PERF_TREE" rev-parse HEAD)}
else
	BASE=$WORK/base
	BASE_REF=${BASE_REF:-v7.3-rc7}
fi
SERIES_BRANCH=${SERIES_BRANCH:-perf-libdw-cache}
UPSTREAM=$WORK/upstream		# worktree of BASE_REF
BUILD=$WORK/build		# O= folders
JOBS=${JOBS:-$(nproc)}


