#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages perf's build, the tests and the benchmark need
# (the only script that installs packages).  Nothing to do, no apt: each
# package is checked with dpkg-query first.  libdebuginfod-dev gives the
# builds "debuginfod: [ on ]" as distributions' perf has; ceph-base and
# librados2-dbg are the big-DWARF candle of the benchmark, libc6-dbg gives
# glibc's separate debug files; autoconf, automake and autopoint build
# elfutils from its release tarball with the elfutils series applied;
# dwz and debuginfod (a server, run on 127.0.0.1 by a test) give the
# separate-debug-file test its dwz and debuginfod cases; the multilib
# compilers and the :i386 libraries build perf as an i386 program
# (tests/t-builds.sh).
set -euo pipefail
PKGS=(build-essential flex bison pkg-config git xz-utils
      libelf-dev libdw-dev elfutils libunwind-dev libtraceevent-dev libtracefs-dev
      libzstd-dev zlib1g-dev liblzma-dev libslang2-dev libcap-dev libnuma-dev
      libcapstone-dev libbabeltrace-dev libperl-dev python3-dev python3-setuptools
      libssl-dev libpfm4-dev libiberty-dev binutils-dev systemtap-sdt-dev libdebuginfod-dev
      libopencsd-dev libnewt-dev asciidoc-base xmlto
      clang llvm lld libllvm14 llvm-dev libclang-dev
      time strace valgrind gdb libc6-dbg g++ binutils ccache debootstrap libasan8 libubsan1
      autoconf automake autopoint gawk libbz2-dev dwz debuginfod
      ceph-base librados2-dbg
      gcc-multilib g++-multilib libelf-dev:i386 libdw-dev:i386 zlib1g-dev:i386
      liblzma-dev:i386 libzstd-dev:i386 libtraceevent-dev:i386)
need=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || need+=("$p")
done
[ ${#need[@]} -eq 0 ] && { echo "deps: all installed"; exit 0; }
export DEBIAN_FRONTEND=noninteractive
dpkg --print-foreign-architectures | grep -qx i386 || dpkg --add-architecture i386
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends "${need[@]}"
