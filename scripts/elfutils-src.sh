#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# elfutils 0.192 from its release tarball with the elfutils series of
# patches/elfutils/ applied, built and installed into $WORK/elfutils-series/
# (include/, lib/: perf's LIBDW_DIR, with an rpath).
#   scripts/elfutils-src.sh [get|apply|build|check]   (default: build)
# get:   the pristine elfutils_0.192.orig.tar.bz2 that Debian's source archive
#        has (apt-get source --download-only of bookworm-backports'
#        elfutils; its .dsc is gone, the tarball stays), sha256-checked, as a
#        git tree in $WORK/elfutils-src with one commit tagged elfutils-0.192
#        (generated files included, as in the tarball);
# apply: branch "series": git am of patches/elfutils/*/ in folder order;
# build: autoreconf (the series changes Makefile.am files), configure
#        without the debuginfod server, make, make install.  The installed
#        version.h says ELFUTILS_SERIES_VERSION (0.197, the release the
#        series is for), so that perf's _ELFUTILS_PREREQ() gates see it;
# check: elfutils' own make check in the build tree.
# Prints the install directory.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
trap 'echo "elfutils-src.sh: line $LINENO: exit $? of: $BASH_COMMAND" >&2' ERR
verb=${1:-build}
VER=0.192
SHA256=616099beae24aba11f9b63d86ca6cc8d566d968b802391334c91df54eab416b4
SERIES_VERSION=${ELFUTILS_SERIES_VERSION:-0.197}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
SRC=$WORK/elfutils-src
OBJ=$WORK/elfutils-obj
INST=$WORK/elfutils-series

get() {
	git -C "$SRC" rev-parse -q --verify "elfutils-$VER" >/dev/null 2>&1 && return
	local APT=$WORK/apt-elfutils-src tb
	apt_private "$APT" "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $MIRROR bookworm-backports main"
	tb=$APT/dl/elfutils_$VER.orig.tar.bz2
	if ! echo "$SHA256  $tb" | sha256sum -c --quiet - >/dev/null 2>&1; then
		apt-get -q "${APTOPTS[@]}" update >/dev/null
		# The .dsc and Debian's diff of that version are no longer
		# served: apt-get fails on them after fetching the tarball.
		(cd "$APT/dl" && apt-get -q "${APTOPTS[@]}" source --download-only elfutils \
			>"$APT/source.log" 2>&1) || true
	fi
	echo "$SHA256  $tb" | sha256sum -c --quiet - ||
		{ cat "$APT/source.log" >&2; echo "elfutils: no $tb with sha256 $SHA256" >&2; exit 1; }
	rm -rf "$SRC" "$WORK/elfutils-$VER"
	# as root, tar keeps the archive's owner: git would call the tree "dubious"
	tar --no-same-owner -xjf "$tb" -C "$WORK"
	mv "$WORK/elfutils-$VER" "$SRC"
	git -C "$SRC" init -q
	git -C "$SRC" add -A
	# A fixed identity and date: the same commit on every machine, the
	# elfutils series' base-commit.
	GIT_AUTHOR_DATE="2024-10-18T00:00:00Z" GIT_COMMITTER_DATE="2024-10-18T00:00:00Z" \
		git -C "$SRC" -c user.name=elfutils -c user.email=elfutils@sourceware.org \
		commit -q -m "elfutils $VER (release tarball)"
	git -C "$SRC" tag "elfutils-$VER"
}

apply() {
	get
	local p=() sum
	mapfile -t p < <(ls "$TOP"/patches/elfutils/*/[0-9]*.patch 2>/dev/null | grep -v '/0000-' || true)
	# Applied already (the same patches on branch "series", checked out):
	# keep the tree and what autoreconf generated in it.
	sum=$(cat /dev/null "${p[@]}" | sha256sum | cut -c1-16)
	if [ "$(git -C "$SRC" config --get perf.series-sum 2>/dev/null)" = "$sum" ] &&
	   [ "$(git -C "$SRC" symbolic-ref -q --short HEAD)" = series ]; then
		echo "elfutils: ${#p[@]} patches on $VER (applied)" >&2; return
	fi
	git -C "$SRC" checkout -q -f -B series "elfutils-$VER"
	git -C "$SRC" clean -q -fdx
	[ ${#p[@]} -eq 0 ] || git -C "$SRC" -c user.name=elfutils -c user.email=elfutils@sourceware.org \
		am -q --committer-date-is-author-date "${p[@]}"
	git -C "$SRC" config perf.series-sum "$sum"
	# The branch scripts/export-elfutils.sh exports, made once from patches/.
	git -C "$SRC" rev-parse -q --verify work >/dev/null || git -C "$SRC" branch work
	echo "elfutils: ${#p[@]} patches on $VER" >&2
}

build() {
	local stamp head
	apply
	head=$(git -C "$SRC" rev-parse HEAD)
	stamp=$INST/.built-$head-$SERIES_VERSION
	# Built from this tree (autoreconf's output still in it: make check
	# needs it).
	[ -f "$stamp" ] && [ -d "$SRC/autom4te.cache" ] && { echo "$INST"; return; }
	(cd "$SRC" && autoreconf -fi >"$WORK/elfutils-autoreconf.log" 2>&1)
	rm -rf "$OBJ" "$INST"
	mkdir -p "$OBJ"
	(cd "$OBJ" && "$SRC/configure" -q --prefix="$INST" --disable-debuginfod \
		--enable-libdebuginfod=dummy --enable-maintainer-mode >"$WORK/elfutils-configure.log" 2>&1)
	make -s -C "$OBJ" -j"$JOBS" >"$WORK/elfutils-make.log" 2>&1
	make -s -C "$OBJ" install >>"$WORK/elfutils-make.log" 2>&1
	# The release the series is for, so that _ELFUTILS_PREREQ() sees it.
	local v=${SERIES_VERSION#0.}
	sed -i -E "s/^#define _ELFUTILS_VERSION[[:space:]]+[0-9]+$/#define _ELFUTILS_VERSION	$v/" "$INST/include/elfutils/version.h"
	ln -sfn lib "$INST/lib64" 2>/dev/null || true
	touch "$stamp"
	echo "$INST"
}

# elfutils' make check; its summary and the logs of failed tests are in
# $OBJ/tests/test-suite.log.
check() {
	build >/dev/null
	make -s -C "$OBJ" -j"$JOBS" check >"$WORK/elfutils-check.log" 2>&1
}

case $verb in
get) get; echo "$SRC" ;;
apply) apply; echo "$SRC" ;;
build) build ;;
check) check ;;
*) echo "usage: $0 [get|apply|build|check]" >&2; exit 2 ;;
esac
