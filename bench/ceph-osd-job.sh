#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The "cephosd" candle: a one-mon, one-osd ceph cluster (memstore) made and
# started in a scratch folder, rados bench writes and reads, object
# attributes, omap and snapshots from the rados tool, then the daemons
# stopped.  Broad code: ceph-osd's I/O path, peering and object store, the
# messenger and encodings of libceph-common.
#   ceph-osd-job.sh <scratch folder> <seconds of writes>
set -eu
D=$1 secs=$2 port=$((40000 + RANDOM % 2000))
rm -rf "$D"; mkdir -p "$D/mon.a" "$D/osd.0" "$D/run" "$D/log"
fsid=$(cat /proc/sys/kernel/random/uuid) uuid=$(cat /proc/sys/kernel/random/uuid)
cat >"$D/ceph.conf" <<CONF
[global]
fsid = $fsid
mon host = v2:127.0.0.1:$port
auth cluster required = none
auth service required = none
auth client required = none
run dir = $D/run
log file = $D/log/\$name.log
admin socket = $D/run/\$name.asok
mon data = $D/mon.\$id
osd data = $D/osd.\$id
osd objectstore = memstore
memstore device bytes = 1073741824
mon cluster log file = $D/log/cluster.log
mon allow pool size one = true
osd pool default size = 1
osd pool default min size = 1
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
paxos propose interval = 0.01
paxos min wait = 0.001
keyring = /dev/null
CONF
C=(-c "$D/ceph.conf")
monmaptool --create --addv a "[v2:127.0.0.1:$port]" --fsid "$fsid" "$D/monmap" >/dev/null
ceph-mon "${C[@]}" --mkfs -i a --monmap "$D/monmap"
ceph-mon "${C[@]}" -i a -f >"$D/log/mon.out" 2>&1 &
mon=$!
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
