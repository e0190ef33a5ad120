#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# memtime.py <output file> <command>...: run the command and write one line,
# "<wall s> <user s> <sys s> <max RSS KiB> <max RssAnon KiB>", to the output
# file (as /usr/bin/time -f "%e %U %S %M" does, plus RssAnon). Max RSS is the
# kernel's (getrusage); RssAnon, the anonymous part of the resident set
# (heap, inflated sections: what can't be dropped as page cache), is read
# from /proc/<pid>/status every 5 ms, its largest value kept. The command's
# exit status is this script's.
import os
import resource
import signal
import sys
import time

out, argv = sys.argv[1], sys.argv[2:]
t0 = time.monotonic()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(argv[0], argv)
    finally:
        os._exit(127)

def stop(signum, frame):
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    sys.exit(124)


signal.signal(signal.SIGTERM, stop)
anon = 0
while True:
    wpid, status = os.waitpid(pid, os.WNOHANG)
    if wpid:
        break
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("RssAnon:"):
                    anon = max(anon, int(line.split()[1]))
                    break
    except OSError:
        pass
    time.sleep(0.005)
wall = time.monotonic() - t0
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(out, "w") as f:
    f.write(f"{wall:.2f} {ru.ru_utime:.2f} {ru.ru_stime:.2f} {ru.ru_maxrss} {anon}\n")
sys.exit(os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status >> 8)
