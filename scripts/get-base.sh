#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Obtain the base tree: v7.3-rc7 as Debian ships it (linux-source-7.3,
# 7.3~rc7-1~exp1, suite experimental), downloaded with apt-get through a
# private sources list and state directory (the system's apt configuration
# is not touched), sha256-verified, extracted into an ignored folder and
# made a git repository with one commit tagged v7.3-rc7.
#
# PERF_TREE=/path/to/perf-tools-next: use that git tree instead (nothing is
# downloaded); the series is applied on its HEAD.
set -euo pipefail
. "$(dirname "$0")/lib.sh"	# apt_private

BASE=$WORK/base
PKG=linux-source-7.3
VER=${BASE_VERSION:-7.3~rc7-1~exp1}
SHA256=${BASE_SHA256:-8bf8ca5ea8b1b307ca698db982ba48d6d223263b4d3dfb1973d055e316c44e75}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

if [ -n "${PERF_TREE:-}" ]; then
	git -C "$PERF_TREE" rev-parse --verify HEAD >/dev/null ||
		{ echo "PERF_TREE=$PERF_TREE is not a git tree" >&2; exit 1; }
	echo "base: using PERF_TREE=$PERF_TREE at $(git -C "$PERF_TREE" rev-parse --short HEAD)"
	exit 0
fi

if git -C "$BASE" rev-parse -q --verify v7.3-rc7 >/dev/null 2>&1; then
	echo "base: $BASE already at v7.3-rc7"
	exit 0
fi

APT=$WORK/apt
apt_private "$APT" "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $MIRROR experimental main"
DEB=$(ls "$APT"/dl/${PKG}_*.deb 2>/dev/null | head -1 || true)
if [ -z "$DEB" ] || ! echo "$SHA256  $DEB" | sha256sum -c --quiet - 2>/dev/null; then
	mkdir -p "$APT/cache"
	apt-get -q "${APTOPTS[@]}" update >/dev/null
	(cd "$APT/dl" && apt-get -q "${APTOPTS[@]}" download "$PKG=$VER") || {
		echo "base: $PKG=$VER is not served any more; set BASE_VERSION=<version> BASE_SHA256=<sum>, or PERF_TREE=<your tree>" >&2
		exit 1; }
	DEB=$(ls "$APT"/dl/${PKG}_*.deb | head -1)
fi
echo "$SHA256  $DEB" | sha256sum -c --quiet - ||
	{ echo "base: sha256 mismatch for $DEB (expected $SHA256)" >&2; exit 1; }

rm -rf "$BASE" "$WORK/x"
mkdir -p "$WORK/x" "$BASE"
dpkg-deb --fsys-tarfile "$DEB" | tar -x -C "$WORK/x" --wildcards './usr/src/*.tar.*'
TARBALL=$(ls "$WORK"/x/usr/src/linux-source-7.3.tar.* | head -1)
# What perf's build, checkpatch.pl, get_maintainer.pl and kselftest helpers need.
tar -x -C "$BASE" --strip-components=1 -f "$TARBALL" \
	--wildcards 'linux-source-7.3/tools' 'linux-source-7.3/include' \
	'linux-source-7.3/scripts' 'linux-source-7.3/arch' \
	'linux-source-7.3/Documentation/process' 'linux-source-7.3/MAINTAINERS' \
	'linux-source-7.3/Makefile' 'linux-source-7.3/COPYING' 'linux-source-7.3/LICENSES' \
	'linux-source-7.3/.gitignore' 'linux-source-7.3/kernel/bpf/disasm.*' \
	'linux-source-7.3/lib/*' 'linux-source-7.3/.mailmap' 2>/dev/null || true
rm -rf "$WORK/x"
cd "$BASE"
git init -q -b base
git config user.name "Perf Series Dev"
git config user.email "dev@invalid"
git add -A -f .
# A fixed identity and date make the base commit the same on every machine
# (it is the base-commit: of the cover letter).
GIT_AUTHOR_NAME="linux-source-7.3" GIT_AUTHOR_EMAIL="debian-kernel@lists.debian.org" \
GIT_COMMITTER_NAME="linux-source-7.3" GIT_COMMITTER_EMAIL="debian-kernel@lists.debian.org" \
GIT_AUTHOR_DATE="2026-10-16T02:51:00Z" GIT_COMMITTER_DATE="2026-10-16T02:51:00Z" \
	git commit -q -m "v7.3-rc7 (Debian linux-source-7.3 $VER)"
git tag v7.3-rc7
echo "base: $BASE at $(git rev-parse --short HEAD) (v7.3-rc7)"
