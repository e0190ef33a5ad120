# SPDX-License-Identifier: GPL-2.0
# The "ceph" candle's client: mon commands through librados against
# the one-mon cluster ceph-job.sh starts.  ceph-job.py <conf> <rounds>
import json, sys, rados
conf, rounds = sys.argv[1], int(sys.argv[2])
c = rados.Rados(conffile=conf)
c.connect(timeout=20)
def cmd(prefix, **kw):
    kw['prefix'] = prefix
    kw.setdefault('format', 'json')
    r, out, err = c.mon_command(json.dumps(kw), b'', timeout=5)
    return r
for i in range(64):
    cmd('osd create')
for i in range(8):
    cmd('osd crush add-bucket', name='host%d' % i, type='host')
    cmd('osd crush move', name='host%d' % i, args=['root=default'])
for i in range(64):
    cmd('osd crush add', id=i, weight=1.0, args=['host=host%d' % (i % 8)])
for r in range(rounds):
    cmd('osd pool create', pool='p%d' % r, pg_num=32)
    cmd('osd pool set', pool='p%d' % r, var='size', val='2')
    cmd('osd erasure-code-profile set', name='ec%d' % r, profile=['k=2', 'm=1'])
    cmd('config set', who='osd.%d' % (r % 64), name='osd_max_backfills', value=str(r % 7 + 1))
    cmd('auth get-or-create', entity='client.u%d' % r, caps=['mon', 'allow r'])
    for p in ('status', 'health', 'osd dump', 'osd tree', 'osd crush dump', 'config dump',
              'auth ls', 'mon dump', 'report', 'fs dump',
              'osd erasure-code-profile ls', 'versions', 'osd metadata', 'config-key ls',
              'osd crush rule dump', 'mgr dump', 'log last'):
        cmd(p)
    cmd('osd pool rm', pool='p%d' % r, pool2='p%d' % r, yes_i_really_really_mean_it=True)
c.shutdown()
