#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The "ceph" candle: a one-mon ceph cluster made and started in a
# scratch folder, <rounds> rounds of mon commands from a librados client
# (ceph-job.py), then the mon stopped.  Broad code: the mon and the
# client spend their time over much of libceph-common.
#   ceph-job.sh <scratch folder> <rounds>
set -eu
D=$1 rounds=$2
. "$(dirname "$0")/ceph-mon.sh"
rm -rf "$D"
ceph_mon "mon allow pool delete = true"
trap 'kill $mon 2>/dev/null; wait $mon 2>/dev/null' EXIT
/usr/bin/python3 "$(dirname "$0")/ceph-job.py" "$D/ceph.conf" "$rounds"
