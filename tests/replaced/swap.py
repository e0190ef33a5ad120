# SPDX-License-Identifier: GPL-2.0
# gdb script of tests/t-replaced.sh: replaces SWAP_TARGET by SWAP_NEW right
# after srcline's or the unwinder's libdw read its build-id by path
# (SWAP_AT=libdw) or right after symbol loading opened it (symbols), and
# logs it to SWAP_LOG. x86_64: the file name is read from the argument
# registers.
import gdb, os, re
TARGET = os.environ["SWAP_TARGET"]
NEW = os.environ["SWAP_NEW"]
AT = os.environ["SWAP_AT"]
LOG = os.environ["SWAP_LOG"]
class Fin(gdb.FinishBreakpoint):
    def stop(self):
        if os.path.exists(NEW):
            os.replace(NEW, TARGET)
            with open(LOG, "a") as f:
                f.write("swapped: %s\n" % AT)
        return False
def callers():
    names, f = [], gdb.selected_frame().older()
    while f is not None and len(names) < 4:
        # gdb prints dso__libdw_path.constprop.0 as dso.libdw_path.constprop.0
        n = (f.name() or "?").replace(".", "__")
        names.append(re.sub(r"(__(constprop|isra|part|cold|lto_priv)(__[0-9]+)?)+$", "", n))
        f = f.older()
    return names
class At(gdb.Breakpoint):
    def __init__(self, func, reg):
        super().__init__(func, internal=True)
        self.reg = reg
    def stop(self):
        try:
            name = gdb.parse_and_eval("(char *)$%s" % self.reg).string()
        except gdb.error:
            return False
        if name != TARGET or not os.path.exists(NEW):
            return False
        names = callers()
        if AT == "libdw" and not any(n in ("dso__libdw_path", "dso__libdw_get", "dso_libdw_elf__new") for n in names):
            return False
        Fin(gdb.newest_frame(), internal=True)
        return False
if AT == "libdw":
    At("filename__read_build_id", "rdi")
else:
    At("symsrc__init", "rdx")
