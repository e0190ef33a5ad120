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

# apt-get through a private sources list and state in folder $1, with the one
# sources line $2: the system's apt configuration and state are left alone.
# Sets APTOPTS, for apt-get and apt-cache.
apt_private() {
	local dir=$1
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/archives/partial" \
		"$dir/etc/preferences.d" "$dir/dl"
	echo "$2" >"$dir/etc/sources.list"
	APTOPTS=(-o Dir::Etc::SourceList="$dir/etc/sources.list"
		 -o Dir::Etc::SourceParts=/dev/null
		 -o Dir::Etc::PreferencesParts="$dir/etc/preferences.d"
		 -o Dir::State::Lists="$dir/lists"
		 -o Dir::Cache="$dir/cache"
		 -o Dir::State::status=/dev/null
		 -o Acquire::Check-Valid-Until=false
		 -o APT::Architecture=amd64
		 -o Debug::NoLocking=1)
}

# perf_config <file> [unwind style]: write a perf config file for PERF_CONFIG
# (perf then reads only it): the unwind style if given, and a build-id cache
# of the run's own next to it, so that nothing of ~/.debug or ~/.perfconfig
# enters a run.  Prints <file>.
perf_config() {
	printf '[buildid]\n\tdir = %s\n' "$1.debug" >"$1"
	[ -n "${2:-}" ] && printf '[unwind]\n\tstyle = %s\n' "$2" >>"$1"
	echo "$1"
}
