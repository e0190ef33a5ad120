#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Another elfutils for perf to build and run with, without touching the
# system's: Debian's libdw/libelf packages of a suite, downloaded with
# apt-get through a private sources list and unpacked into
# $WORK/elfutils-<suite>/ (usr/include, usr/lib/<triplet>), with include/
# and lib/ links for perf's LIBDW_DIR.
#   scripts/elfutils.sh <suite>      e.g. bookworm-backports (0.192), sid
# Prints the directory. Packages whose libraries need a newer glibc than
# this system's are refused (sid's, once sid moves past Debian 12's glibc):
# build those in a chroot of that suite instead.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
trap 'echo "elfutils.sh: line $LINENO: exit $? of: $BASH_COMMAND" >&2' ERR
suite=${1:?suite}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
DIR=$WORK/elfutils-$suite
if [ -f "$DIR/.done" ]; then echo "$DIR"; exit 0; fi

APT=$WORK/apt-$suite
apt_private "$APT" "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $MIRROR $suite main"
apt-get -q "${APTOPTS[@]}" update >/dev/null
rm -f "$APT"/dl/*.deb
# Debian's 64-bit time_t transition renamed the libraries (libdw1t64).
pkgs=(libdw-dev libelf-dev)
for p in libdw1 libelf1; do
	if apt-cache "${APTOPTS[@]}" show "${p}t64" >/dev/null 2>&1; then pkgs+=("${p}t64"); else pkgs+=("$p"); fi
done
(cd "$APT/dl" && apt-get -q "${APTOPTS[@]}" download "${pkgs[@]}" >"$APT/download.log" 2>&1) ||
	{ cat "$APT/download.log" >&2; exit 1; }
rm -rf "$DIR"; mkdir -p "$DIR"
for d in "$APT"/dl/*.deb; do dpkg-deb -x "$d" "$DIR"; done
tri=$(gcc -print-multiarch)
ln -s usr/include "$DIR/include"
ln -s "usr/lib/$tri" "$DIR/lib"
# libdw.so/libelf.so -dev links are absolute in some versions.
for l in libdw libelf; do
	so=$(ls "$DIR/lib/$l.so."* 2>/dev/null | sed -n '/\.so\.[0-9]*$/p')
	so=${so%%$'\n'*}
	ln -sf "$(basename "$so")" "$DIR/lib/$l.so"
done
need=$(objdump -T "$DIR"/lib/libdw.so.1 "$DIR"/lib/libelf.so.1 2>/dev/null |
	grep -o 'GLIBC_2\.[0-9]*' | sort -t. -k2 -n | tail -1)
# (Not "ldd --version | head -1": ldd dies of SIGPIPE when head exits
# first, which pipefail turns into a silent failure of this script.)
have=GLIBC_$(getconf GNU_LIBC_VERSION | sed 's/.* //')
if [ "$(printf '%s\n%s\n' "${need#GLIBC_}" "${have#GLIBC_}" | sort -V | tail -1)" != "${have#GLIBC_}" ]; then
	echo "elfutils: $suite's libdw needs $need, this system has $have" >&2
	exit 1
fi
ls "$APT"/dl/*.deb | sed 's|.*/||' >"$DIR/.done"
echo "$DIR"
