# SPDX-License-Identifier: GPL-2.0
# Sourced by the ceph candles (ceph-job.sh, ceph-osd-job.sh): one mon,
# "a", made and started in the scratch folder $D, without authentication.
#   ceph_mon <extra ceph.conf lines>   writes $D/ceph.conf, starts the mon
#                                      in the background: its pid in $mon
ceph_mon() {
	local port=$((40000 + RANDOM % 2000)) fsid
	fsid=$(cat /proc/sys/kernel/random/uuid)
	mkdir -p "$D/mon.a" "$D/run" "$D/log"
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
paxos propose interval = 0.01
paxos min wait = 0.001
keyring = /dev/null
$1
CONF
	monmaptool --create --addv a "[v2:127.0.0.1:$port]" --fsid "$fsid" "$D/monmap" >/dev/null
	ceph-mon -c "$D/ceph.conf" --mkfs -i a --monmap "$D/monmap"
	ceph-mon -c "$D/ceph.conf" -i a -f >"$D/log/mon.out" 2>&1 &
	mon=$!
}
