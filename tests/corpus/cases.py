#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The cases of a group of a tests/corpus/gen.py manifest, for a shell loop:
  cases.py MANIFEST GROUP
prints per case: name TAB data TAB skip TAB note TAB compare TAB run|run|...
where compare is 0, 1 when perf script's chains must be upstream's, or the
comma-separated functions a complete chain ends in, when a chain complete
only in the series' output is not a difference (chaincmp.py), and a run
is the perf arguments joined by spaces (none of them contains one)."""
import json
import sys

for line in open(sys.argv[1]):
    c = json.loads(line)
    if c['group'] != sys.argv[2]:
        continue
    runs = '|'.join(' '.join(r) for r in c['runs'])
    print('\t'.join([c['name'], c['data'] or '-', c['skip'] or '-', c['note'] or '-',
                     c['compare'] if isinstance(c.get('compare'), str)
                     else '1' if c.get('compare') else '0', runs]))
