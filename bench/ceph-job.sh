#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The "ceph" candle: a one-mon ceph cluster made and started in a
# scratch folder, <rounds> rounds of mon commands from a librados client
# (ceph-job.py), then the mon stopped.  Broad code: the mon and the
# client spend their time over much of libceph-common.
#   ceph-job.sh <scratch folder> <rounds>
set -eu
D=$1 rounds=$2 port=$((40000 + RANDOM % 2000))
rm -rf "$D"; mkdir -p "$D/mon.a" "$D/run" "$D/log"
fsid=$(cat /proc/sys/kernel/random/uuid)
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
mon cluster log file = $D/log/cluster.log
mon allow pool delete = true
paxos propose interval = 0.01
paxos min wait = 0.001
keyring = /dev/null
CONF
monmaptool --create --addv a "[v2:127.0.0.1:$port]" --fsid "$fsid" "$D/monmap" >/dev/null
ceph-mon -c "$D/ceph.conf" --mkfs -i a --monmap "$D/monmap"
ceph-mon -c "$D/ceph.conf" -i a -f >"$D/log/mon.out" 2>&1 &
mon=$!
trap 'kill $mon 2>/dev/null; wait $mon 2>/dev/null' EXIT
/usr/bin/python3 "$(dirname "$0")/ceph-job.py" "$D/ceph.conf" "$rounds"
