import gdb, os
TARGET = os.environ["SWAP_TARGET"]
NEW = os.environ["SWAP_NEW"]
AT = os.environ["SWAP_AT"]
class Fin(gdb.FinishBreakpoint):
    def stop(self):
        if os.path.exists(NEW):
            os.replace(NEW, TARGET)
            gdb.write("swapped: %s\n" % AT)
        return False
def callers():
    names, f = [], gdb.selected_frame().older()
    while f is not None and len(names) < 4:
        names.append((f.name() or "?").replace(".", "__").replace("__constprop", ""))
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
