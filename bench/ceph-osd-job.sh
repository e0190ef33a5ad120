#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The "cephosd" candle: a one-mon, one-osd ceph cluster (memstore) made and
# started in a scratch folder, rados bench writes and reads, object
# attributes, omap and snapshots from the rados tool, then the daemons
# stopped.  Broad code: ceph-osd's I/O path, peering and object store, the
# messenger and encodings of libceph-common.
#   ceph-osd-job.sh <scratch folder> <seconds of writes>
set -eu
D=$1 secs=$2
. "$(dirname "$0")/ceph-mon.sh"
rm -rf "$D"; mkdir -p "$D/osd.0"
uuid=$(cat /proc/sys/kernel/random/uuid)
ceph_mon "osd data = $D/osd.\$id
osd objectstore = memstore
memstore device bytes = 1073741824
mon allow pool size one = true
osd pool default size = 1
osd pool default min size = 1
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0"
C=(-c "$D/ceph.conf")
osd=
trap 'kill $osd $mon 2>/dev/null; wait 2>/dev/null' EXIT
ceph "${C[@]}" --connect-timeout 20 osd new "$uuid" >/dev/null
ceph-osd "${C[@]}" -i 0 --mkfs --osd-uuid "$uuid" 2>/dev/null
ceph-osd "${C[@]}" -i 0 -f >"$D/log/osd.out" 2>&1 &
osd=$!
ceph "${C[@]}" osd pool create p 16 16 >/dev/null 2>&1
ceph "${C[@]}" osd pool set p size 1 --yes-i-really-mean-it >/dev/null 2>&1
R=(rados "${C[@]}" -p p)
"${R[@]}" bench "$secs" write -t 4 -b 65536 --no-cleanup >/dev/null
"${R[@]}" bench "$secs" rand -t 4 >/dev/null
"${R[@]}" mksnap s1 >/dev/null
for i in $(seq 1 10); do
	echo "object $i" | "${R[@]}" put "o$i" -
	"${R[@]}" setxattr "o$i" a "value $i"
	"${R[@]}" setomapval "o$i" k "$i"
done
"${R[@]}" ls >/dev/null
"${R[@]}" listomapkeys o1 >/dev/null
"${R[@]}" df >/dev/null
