#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build and test perf against the newest elfutils (Debian unstable's,
# 0.196 when written), whose libraries need a newer glibc than Debian 12's:
# in a debootstrap chroot of sid at $WORK/sid-chroot.
#   scripts/sid-chroot.sh setup          create the chroot (once)
#   scripts/sid-chroot.sh build [tree]   build perf of series|upstream in it,
#                                        O=$WORK/build/<tree>-sid
#   scripts/sid-chroot.sh run <cmd...>   run a command in it, in the source tree
#   scripts/sid-chroot.sh umount         unmount what a killed run left
set -euo pipefail
. "$(dirname "$0")/lib.sh"
ROOT=$WORK/sid-chroot
MIRROR=${MIRROR:-http://deb.debian.org/debian}
PKGS=build-essential,flex,bison,pkg-config,python3,python3-dev,libelf-dev,libdw-dev,zlib1g-dev,libzstd-dev,liblzma-dev,libtraceevent-dev,libcap-dev,gawk,procps

# /proc, /sys, /dev and the project are mounted for a build or a run and
# unmounted after it: a mount left under $WORK would make `rm -rf work`
# reach into the host's /dev and /sys. The recursive binds are made
# slaves: unmounting them must not unmount the host's mounts under /sys
# and /dev (tracefs, debugfs) where the host's mounts are shared.
mounted() { mountpoint -q "$ROOT$1"; }
umounts() {
	for m in "$TOP" /dev /sys /proc; do
		mounted "$m" && umount -R "$ROOT$m" 2>/dev/null || umount -lR "$ROOT$m" 2>/dev/null || true
	done
}
mounts() {
	trap umounts EXIT
	mkdir -p "$ROOT/proc" "$ROOT/sys" "$ROOT/dev" "$ROOT$TOP"
	mounted /proc || mount -t proc proc "$ROOT/proc"
	mounted /sys || { mount --rbind /sys "$ROOT/sys" && mount --make-rslave "$ROOT/sys"; }
	mounted /dev || { mount --rbind /dev "$ROOT/dev" && mount --make-rslave "$ROOT/dev"; }
	mounted "$TOP" || mount --bind "$TOP" "$ROOT$TOP"
}

# A build or a run mounts in a mount namespace of its own: nothing it
# mounts is seen outside or outlives it, even when it is killed (a
# tracefs left at $ROOT/sys/kernel/tracing is one perf would pick).
case ${1:-} in
build|run)
	if [ -z "${SID_CHROOT_NS:-}" ]; then
		SID_CHROOT_NS=1 exec unshare -m --propagation private "$0" "$@"
	fi ;;
esac

case ${1:?setup|build|run|umount} in
umount) umounts ;;
setup)
	if [ ! -x "$ROOT/usr/bin/gcc" ]; then
		command -v debootstrap >/dev/null ||
			{ echo "sid-chroot: no debootstrap (scripts/install-deps.sh)" >&2; exit 1; }
		rm -rf "$ROOT"
		debootstrap --variant=minbase --include="$PKGS" sid "$ROOT" "$MIRROR" >"$WORK/sid-chroot.log" 2>&1 ||
			{ tail -20 "$WORK/sid-chroot.log" >&2; exit 1; }
	fi
	chroot "$ROOT" dpkg-query -W libdw-dev ;;
build)
	tree=${2:-series}
	case $tree in series) SRC=$BASE ;; upstream) SRC=$UPSTREAM ;; esac
	mounts
	OUT=$BUILD/$tree-sid
	mkdir -p "$OUT"
	echo "build: $tree-sid in $OUT"
	chroot "$ROOT" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root make -s -C "$SRC/tools/perf" O="$OUT" -j"$JOBS" NO_RUST=1 NO_LIBPYTHON=1 \
		>"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log" >&2; echo "build: $tree-sid FAILED" >&2; exit 1; }
	echo "build: $tree-sid ok" ;;
run)
	shift
	mounts
	chroot "$ROOT" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin /bin/sh -c "cd '$BASE/tools/perf' && PATH=$BUILD/series-sid:\$PATH HOME=/root PERF_CONFIG=/dev/null $*" ;;
esac
