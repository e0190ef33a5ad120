// SPDX-License-Identifier: GPL-2.0
#include "dso.h"
#include "libdw.h"
#include "srcline.h"
#include "symbol.h"
#include "dwarf-aux.h"
#include "dwarf-lines.h"
#include "callchain.h"
#include "debug.h"
#include "mutex.h"
#include "path.h"
#include "build-id.h"
#include "hashmap.h"
#include "strbuf.h"
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/hash.h>
#include <linux/overflow.h>
#include <linux/zalloc.h>
#include <stdlib.h>
#include <elfutils/libdwfl.h>
#include <elfutils/libdwelf.h>
#ifdef HAVE_ZLIB_SUPPORT
#include <zlib.h>
#endif


/*
 * The ELF file of a dso for the libdw unwinder, opened once per run and
 * shared by the Dwfl of every address space that maps the dso: libdwfl takes
 * it from libdw__find_elf() when it first needs the module's file, as one
 * more libelf reference (elf_begin() with a reference Elf).
 *
 * Key: the dso (dso->libdw_elf). Bound: one per dso unwound through, until
 * the dso goes; a file that can't be used is remembered (elf == NULL). The
 * file is mapped, no descriptor stays open. Lifetime: each module holds a
 * reference to its dso (libdw__report_dso()), so every Dwfl using the Elf
 * ends before dso__free_libdw() drops the dso's own reference.
 *
 * Locking: libelf does not lock an Elf's reference count in elfutils'
 * default build, and a Dwfl may end in another thread than the one that
 * unwinds (perf top's display thread dropping the last reference to a
 * thread): libdw_elf_lock() guards the making of the state, the references
 * taken in libdw__find_elf() and every elf_end() of the Elf, in
 * libdw__end_dwfl() and dso__free_libdw(). Only the unwinding thread reads
 * the Elf's contents, through libdwfl and, under the lock, the CFI.
 *
 * The CFI: libdw's parse of the file's .eh_frame (with its .eh_frame_hdr
 * table), made from the Elf on the first frame perf steps through the dso
 * (libdw__dso_cfi_frame()) and shared by all address spaces. libdw keeps in
 * it the CIEs and FDEs looked up, a few dozen bytes each: bounded by the
 * FDEs of the file. Ended before the Elf, with the dso. libdw does not lock
 * its caches: it is used under libdw_elf_lock().
 */
struct dso_libdw_elf {
	Elf	*elf;		/* NULL: no usable ELF file */
	char	*path;
	/* The module's address range, at link addresses: [vaddr, end). */
	GElf_Addr vaddr, end;
	bool	exec;		/* ET_EXEC: at absolute addresses */
	/* elf_memory() image without section headers, see libdw_elf__view() */
	void	*image;
	size_t	image_size;
	Dwarf_CFI *cfi;		/* .eh_frame, see above; NULL: none */
	u64	cfi_id;		/* unique in the run, see struct cfi_memo_entry */
	bool	cfi_tried;
};

static struct mutex libdw_elf_mutex;

static void libdw_elf_lock_init(void)
{
	mutex_init(&libdw_elf_mutex);
}

static struct mutex *libdw_elf_lock(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, libdw_elf_lock_init);
	return &libdw_elf_mutex;
}

/*
 * The address range of an ET_DYN or ET_EXEC file's module, as
 * __libdwfl_report_elf() computes it for dwfl_report_elf().
 */
static bool elf__module_range(Elf *elf, GElf_Addr *vaddr, GElf_Addr *end, bool *exec)
{
	bool first = true;
	GElf_Ehdr ehdr;
	size_t phnum;

	if (!gelf_getehdr(elf, &ehdr) || (ehdr.e_type != ET_DYN && ehdr.e_type != ET_EXEC) ||
	    elf_getphdrnum(elf, &phnum))
		return false;

	*vaddr = *end = 0;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr phdr;

		if (!gelf_getphdr(elf, i, &phdr))
			return false;
		if (phdr.p_type != PT_LOAD)
			continue;
		if (first)
			*vaddr = phdr.p_vaddr & -phdr.p_align;
		first = false;
		if (phdr.p_vaddr + phdr.p_memsz > 0)
			*end = phdr.p_vaddr + phdr.p_memsz;
	}
	*exec = ehdr.e_type == ET_EXEC;
	return *end > *vaddr;
}

static bool libdw_elf__range(Elf *elf, struct dso_libdw_elf *de)
{
	return elf__module_range(elf, &de->vaddr, &de->end, &de->exec);
}

static bool elf__has_eh_frame_hdr(Elf *elf)
{
	size_t phnum;

	if (elf_getphdrnum(elf, &phnum))
		return false;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr phdr;

		if (gelf_getphdr(elf, i, &phdr) && phdr.p_type == PT_GNU_EH_FRAME)
			return true;
	}
	return false;
}

/*
 * The unwinder's view of a file whose .eh_frame has a binary search table
 * (.eh_frame_hdr, PT_GNU_EH_FRAME): an image of the file without section
 * headers, made by elf_memory() from a private mapping of the file whose
 * ELF header perf changed before libelf saw it (one copy-on-write page).
 *
 * libdw then takes .eh_frame and its table from the program header, as
 * for any file without section headers, and the module has no DWARF:
 * libdwfl falls back to .debug_frame where .eh_frame has no FDE for a pc,
 * loading all the DWARF of the file for it (decompressing what is
 * compressed), for every address space; for .debug_frame that compilers
 * do not emit next to .eh_frame. Its fallback to the frame pointer is left.
 * A file with a .debug_frame section, in it or in its debug file (code
 * built without unwind tables, linked with crt objects that have them),
 * keeps its sections: libdwfl unwinds that code from .debug_frame.
 * libdw of elfutils 0.188 and 0.192 also ignores the table when its section
 * header follows .eh_frame's (gold, BOLT) and scans .eh_frame from its
 * start, keeping every FDE; from the program header it uses the table.
 */
static Elf *libdw_elf__view(int fd, struct dso_libdw_elf *de)
{
	unsigned char *image;
	struct stat st;
	Elf *elf;

	if (fstat(fd, &st) || st.st_size < (off_t)sizeof(Elf64_Ehdr))
		return NULL;
	image = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (image == MAP_FAILED)
		return NULL;
	if (image[EI_CLASS] == ELFCLASS64) {
		Elf64_Ehdr *ehdr = (Elf64_Ehdr *)image;

		ehdr->e_shoff = 0;
		ehdr->e_shnum = 0;
		ehdr->e_shstrndx = SHN_UNDEF;
	} else {
		Elf32_Ehdr *ehdr = (Elf32_Ehdr *)image;

		ehdr->e_shoff = 0;
		ehdr->e_shnum = 0;
		ehdr->e_shstrndx = SHN_UNDEF;
	}
	elf = elf_memory((char *)image, st.st_size);
	if (!elf) {
		munmap(image, st.st_size);
		return NULL;
	}
	de->image = image;
	de->image_size = st.st_size;
	return elf;
}

static bool elf__has_debug_frame(Elf *elf)
{
	GElf_Ehdr ehdr;
	GElf_Shdr shdr;

	return elf && gelf_getehdr(elf, &ehdr) &&
	       elf_section_by_name(elf, &ehdr, &shdr, ".debug_frame", /*idx=*/NULL);
}

/* debug: the file perf read the dso's symbols from, may be NULL or path. */
static Elf *libdw_elf__open(const char *path, const char *debug, struct dso_libdw_elf *de)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf, *view;

	if (fd < 0)
		return NULL;

	elf = elf_begin(fd, ELF_C_READ_MMAP, /*ref=*/NULL);
	if (elf && (elf_kind(elf) != ELF_K_ELF || !libdw_elf__range(elf, de))) {
		elf_end(elf);
		elf = NULL;
	}
	if (elf && elf__has_eh_frame_hdr(elf) && !elf__has_debug_frame(elf) &&
	    !(debug && strcmp(debug, path) && filename__has_section(debug, ".debug_frame"))) {
		view = libdw_elf__view(fd, de);
		if (view) {
			elf_end(elf);
			elf = view;
		}
	}
	if (elf && !de->image && elf_cntl(elf, ELF_C_FDREAD)) {
		elf_end(elf);
		elf = NULL;
	}
	close(fd);
	return elf;
}

/* Drops the dso's reference to its Elf. Under libdw_elf_lock(). */
static void libdw_elf__close(struct dso_libdw_elf *de)
{
	if (de->cfi)
		dwarf_cfi_end(de->cfi);
	de->cfi = NULL;
	/*
	 * The dso's reference is the last (libdw__end_dwfl()), but when that
	 * ran out of memory: then the image stays mapped.
	 */
	if (!elf_end(de->elf) && de->image)
		munmap(de->image, de->image_size);
	de->elf = NULL;
	de->image = NULL;
}

static struct dso_libdw_elf *dso_libdw_elf__new(struct dso *dso)
{
	struct dso_libdw_elf *de = zalloc(sizeof(*de));
	char path[PATH_MAX];

	if (!de)
		return NULL;

	/* As the unwinder always did: the file under --symfs, else the build-id cache's. */
	__symbol__join_symfs(path, sizeof(path), dso__long_name(dso));
	/* Not device files like /dev/dri/renderD128. */
	if (is_regular_file(path))
		de->elf = libdw_elf__open(path, dso__symsrc_filename(dso), de);
	if (!de->elf && dso__build_id_filename(dso, path, sizeof(path), false))
		de->elf = libdw_elf__open(path, dso__symsrc_filename(dso), de);
	if (de->elf) {
		de->path = strdup(path);
		if (!de->path)
			libdw_elf__close(de);
	}
	if (de->elf)
		pr_debug("libdw: opened %s%s\n", de->path,
			 de->image ? ", unwinding from .eh_frame_hdr" : "");
	else
		pr_debug("libdw: no ELF file to report for %s\n", dso__long_name(dso));
	return de;
}

/* The dso's unwinder ELF state, made on first use. Under libdw_elf_lock(). */
static struct dso_libdw_elf *dso__libdw_elf(struct dso *dso)
{
	struct dso_libdw_elf *de = dso__libdw_elf_ptr(dso);

	if (!de) {
		de = dso_libdw_elf__new(dso);
		dso__set_libdw_elf_ptr(dso, de);
	}
	return de;
}

int libdw__find_elf(struct Dwfl_Module *mod __maybe_unused, void **userdata,
		    const char *modname __maybe_unused, Dwarf_Addr base __maybe_unused,
		    char **file_name, Elf **elfp)
{
	struct dso *dso = *userdata;
	struct dso_libdw_elf *de;

	*elfp = NULL;
	if (!dso)
		return -1;

	mutex_lock(libdw_elf_lock());
	de = dso__libdw_elf(dso);
	if (de && de->elf) {
		*elfp = elf_begin(-1, ELF_C_READ_MMAP, de->elf);
		if (*elfp && !*file_name)
			*file_name = strdup(de->path);
	}
	mutex_unlock(libdw_elf_lock());
	return -1;
}

Dwfl_Module *libdw__report_dso(Dwfl *dwfl, struct dso *dso, Dwarf_Addr base)
{
	struct dso_libdw_elf *de;
	GElf_Addr start, end;
	Dwfl_Module *mod;
	void **userdatap;

	mutex_lock(libdw_elf_lock());
	de = dso__libdw_elf(dso);
	if (!de || !de->elf) {
		mutex_unlock(libdw_elf_lock());
		return NULL;
	}
	/* The addresses of ET_EXEC files are absolute. */
	start = de->exec ? de->vaddr : base;
	end = de->exec ? de->end : base - de->vaddr + de->end;
	mutex_unlock(libdw_elf_lock());

	mod = dwfl_report_module(dwfl, dso__short_name(dso), start, end);
	if (!mod)
		return NULL;
	/*
	 * libdwfl asks libdw__find_elf() for the module's file with the
	 * module's dso when it first needs it, and __find_debuginfo() for its
	 * debug file: the module holds a reference to its dso, dropped with
	 * the Dwfl (libdw__end_dwfl()).
	 */
	dwfl_module_info(mod, &userdatap, NULL, NULL, NULL, NULL, NULL, NULL);
	if (!*userdatap)
		*userdatap = dso__get(dso);
	return mod;
}

bool libdw__dso_unwinds_from_eh_frame_hdr(struct dso *dso)
{
	struct dso_libdw_elf *de;
	bool ret;

	mutex_lock(libdw_elf_lock());
	de = dso__libdw_elf_ptr(dso);
	ret = de && de->image;
	mutex_unlock(libdw_elf_lock());
	return ret;
}

/*
 * The rules of the frames perf stepped through lately, decoded, for
 * libdw__dso_cfi_frame(): the return addresses of the hot chains are
 * looked up in the CFI and decoded once, not once per sample.
 *
 * Key: the id of the dso's CFI (dso_libdw_elf.cfi_id) and the address, at
 * link addresses: shared by all address spaces. Bound: CFI_MEMO_SIZE
 * entries (1.2 MiB), direct-mapped by a hash of the key, allocated on first
 * use, for the run. Not kept: frames whose CFA is an expression, copied
 * into the caller's struct libdw_cfi_frame. Invalidation: no other CFI gets
 * the id of a dso's CFI, so the entries of a dso that went are never found
 * again, and their pointers to its CFI's expressions never followed.
 * Locking: libdw_elf_lock().
 */
#define CFI_MEMO_SIZE	4096

struct cfi_memo_entry {
	u64			cfi_id;		/* 0: empty */
	u64			addr;
	struct libdw_cfi_rules	rules;
};

static struct cfi_memo_entry *cfi_memo;
static u64 cfi_memo_next_id = 1;

/*
 * A register's rule from dwarf_frame_register(), in the form of struct
 * libdw_cfi_reg: false for an expression in @ops_mem, which goes.
 */
static bool libdw_cfi_reg__decode(struct libdw_cfi_reg *r, const Dwarf_Op *ops, size_t nops,
				  const Dwarf_Op *ops_mem)
{
	bool value = nops > 1 && ops[nops - 1].atom == DW_OP_stack_value;
	size_t n = value ? nops - 1 : nops;

	*r = (struct libdw_cfi_reg){ .rule = LIBDW_CFI_EXPR, .nops = nops, .ops = ops };
	if (n >= 1 && n <= 2 && ops[0].atom == DW_OP_call_frame_cfa &&
	    (n == 1 || ops[1].atom == DW_OP_plus_uconst)) {
		/* offset(N), val_offset(N): the CFA, plus N. */
		r->rule = value ? LIBDW_CFI_VAL_OFFSET : LIBDW_CFI_OFFSET;
		r->offset = n == 2 ? (s64)ops[1].number : 0;
	} else if (nops == 1 && ops[0].atom == DW_OP_regx && ops[0].number < LIBDW_CFI_NREGS) {
		r->rule = LIBDW_CFI_REGISTER;
		r->reg = ops[0].number;
	} else if (ops == ops_mem) {
		/* Not libdw's own: not in memory that stays. */
		return false;
	}
	return true;
}

/* Decodes @frame's rules for libdw__dso_cfi_frame(). */
static int libdw_cfi_frame__decode(struct libdw_cfi_frame *f, Dwarf_Frame *frame)
{
	Dwarf_Op ops_mem[3], *ops;
	size_t nops;
	bool signal;
	int ra;

	ra = dwarf_frame_info(frame, /*start=*/NULL, /*end=*/NULL, &signal);
	if (ra < 0 || ra >= LIBDW_CFI_NREGS)
		return -1;
	f->rules.ra = ra;
	f->rules.signal = signal;

	/*
	 * The CFA's operations live with the frame: register + offset is
	 * decoded, an expression copied. A longer one is left to libdwfl.
	 */
	if (dwarf_frame_cfa(frame, &ops, &nops) || !nops) {
		f->rules.cfa = (struct libdw_cfi_reg){ .rule = LIBDW_CFI_UNDEFINED };
	} else if (nops == 1 && ops[0].atom == DW_OP_bregx && ops[0].number < LIBDW_CFI_NREGS) {
		f->rules.cfa = (struct libdw_cfi_reg){ .rule = LIBDW_CFI_REG_OFFSET,
			.reg = ops[0].number, .offset = ops[0].number2 };
	} else if (nops <= LIBDW_CFI_CFA_OPS) {
		memcpy(f->cfa_expr, ops, nops * sizeof(*ops));
		f->rules.cfa = (struct libdw_cfi_reg){ .rule = LIBDW_CFI_EXPR, .nops = nops };
	} else {
		return -1;
	}

	for (int regno = 0; regno < LIBDW_CFI_NREGS; regno++) {
		struct libdw_cfi_reg *r = &f->rules.regs[regno];

		if (dwarf_frame_register(frame, regno, ops_mem, &ops, &nops))
			*r = (struct libdw_cfi_reg){ .rule = LIBDW_CFI_ERROR };
		else if (!nops)
			/* No ops: undefined with ops_mem, same value with NULL. */
			*r = (struct libdw_cfi_reg){
				.rule = ops == ops_mem ? LIBDW_CFI_UNDEFINED :
					ops ? LIBDW_CFI_ERROR : LIBDW_CFI_SAME };
		else if (!libdw_cfi_reg__decode(r, ops, nops, ops_mem))
			return -1;
	}
	return 0;
}

static struct cfi_memo_entry *cfi_memo__entry(u64 cfi_id, u64 addr)
{
	if (!cfi_memo) {
		cfi_memo = calloc(CFI_MEMO_SIZE, sizeof(*cfi_memo));
		if (!cfi_memo)
			return NULL;
	}
	return &cfi_memo[hash_64(addr ^ (cfi_id << 48), 32) % CFI_MEMO_SIZE];
}

int libdw__dso_cfi_frame(struct dso *dso, u64 base, u64 pc, struct libdw_cfi_frame *f)
{
	struct cfi_memo_entry *me;
	struct dso_libdw_elf *de;
	Dwarf_Frame *frame;
	u64 addr, bias;
	int ret = -1;

	mutex_lock(libdw_elf_lock());
	de = dso__libdw_elf(dso);
	if (!de || !de->elf)
		goto out;
	if (!de->cfi_tried) {
		de->cfi_tried = true;
		de->cfi = dwarf_getcfi_elf(de->elf);
		de->cfi_id = cfi_memo_next_id++;
		if (de->cfi)
			pr_debug("libdw: stepping with the .eh_frame of %s\n", de->path);
		else
			pr_debug("libdw: no .eh_frame in %s: %s\n", de->path, dwarf_errmsg(-1));
	}
	if (!de->cfi)
		goto out;
	/* As libdwfl biases the module of libdw__report_dso(). */
	bias = de->exec ? 0 : base - de->vaddr;
	addr = pc - bias;
	me = cfi_memo__entry(de->cfi_id, addr);
	if (me && me->cfi_id == de->cfi_id && me->addr == addr) {
		f->rules = me->rules;
		f->bias = bias;
		ret = 0;
		goto out;
	}
	if (dwarf_cfi_addrframe(de->cfi, addr, &frame)) {
		/* libdwfl looks no further than .eh_frame for CFI in a view. */
		if (de->image)
			ret = -ENOENT;
		goto out;
	}
	ret = libdw_cfi_frame__decode(f, frame);
	free(frame);
	f->bias = bias;
	if (!ret && me && f->rules.cfa.rule != LIBDW_CFI_EXPR)
		*me = (struct cfi_memo_entry){ .cfi_id = de->cfi_id, .addr = addr,
					       .rules = f->rules };
out:
	mutex_unlock(libdw_elf_lock());
	return ret;
}

/* The dsos of a Dwfl's modules, taken from them to be put after dwfl_end(). */
struct module_dsos {
	struct dso	**dsos;
	size_t		nr, alloc;
};

static int take_module_dso(Dwfl_Module *mod __maybe_unused, void **userdata,
			   const char *name __maybe_unused, Dwarf_Addr start __maybe_unused,
			   void *arg)
{
	struct module_dsos *md = arg;

	if (!*userdata)
		return DWARF_CB_OK;
	if (md->nr == md->alloc) {
		size_t alloc = md->alloc ? md->alloc * 2 : 16;
		struct dso **dsos = realloc(md->dsos, alloc * sizeof(*dsos));

		if (!dsos) {
			/* Out of memory: this one now, before the Elf's end. */
			dso__zput(*(struct dso **)userdata);
			return DWARF_CB_OK;
		}
		md->dsos = dsos;
		md->alloc = alloc;
	}
	md->dsos[md->nr++] = *userdata;
	*userdata = NULL;
	return DWARF_CB_OK;
}

void libdw__end_dwfl(Dwfl *dwfl)
{
	struct module_dsos md = { .nr = 0, };

	/*
	 * The modules' references to their dsos go after dwfl_end(), with the
	 * modules' references to the Elfs: the dso's own reference is then an
	 * Elf's last, which dso__free_libdw() drops.
	 */
	dwfl_getmodules(dwfl, take_module_dso, &md, 0);
	mutex_lock(libdw_elf_lock());
	dwfl_end(dwfl);
	mutex_unlock(libdw_elf_lock());
	for (size_t i = 0; i < md.nr; i++)
		dso__put(md.dsos[i]);
	free(md.dsos);
}

/*
 * The srcline state of a dso (dso->libdw): the Dwfl that has the dso as its
 * only module, and the index of the subprograms of each CU an address was
 * looked up in. Apart from the unwinder's (dso->libdw_elf): each opens the
 * files it reads.
 *
 * Key: the dso. Bound: per dso looked up in, the module's files (the dso's
 * mapped, or a compressed debug file: perf's image of the DWARF srcline
 * reads of it, or the file read by libelf, with its descriptor, and its
 * inflated DWARF), the CU index (48 bytes per subprogram range of the CUs
 * looked up in), the CU range table (32 bytes per range of each CU
 * .debug_aranges leaves out), the C++ names and the line tables of the CUs
 * looked up in (struct dwarf_lines: 8 bytes, at most 16, per row a lookup
 * can find, about a quarter of the CU's rows, and 24 per file).
 * Invalidation: none, the files of a dso do not change during a session;
 * freed with the dso (dso__free_libdw()). Locking: made on first use and
 * used under srcline__lock().
 */
struct dso_libdw {
	Dwfl		*dwfl;
	struct hashmap	*cu_funcs;	/* Dwarf_CU * -> struct cu_funcs * */
	struct hashmap	*cu_lines;	/* Dwarf_CU * -> struct dwarf_lines *, NULL: libdw's */
	struct cu_ranges *cu_ranges;	/* made on first use */
	enum {
		DWARF_FOUND,
		DWARF_UNREADABLE,	/* DWARF libdw failed to read: others may */
		DWARF_NONE,		/* none in the dso or its debug files */
		DWARF_REFUSED,		/* a decompression bomb: don't let them try */
	} dwarf;			/* what dwfl_module_getdwarf() found */
	Dwfl_Module	*mod;		/* the dso, at the addresses it was linked at */
	/* The module's ELF file, until libdwfl takes it (libdw__find_srcline_elf()). */
	Elf		*elf;
	char		*elf_path;
	int		debug_fd;	/* of a compressed debug file libelf reads, or -1 */
	void		*image;		/* what elf reads, freed after it is ended */
	/* For dso__libdw_frame(): the dso's own file and its .eh_frame CFI. */
	bool		eh_tried;
	Elf		*eh_elf;
	Dwarf_CFI	*eh_cfi;
};

/*
 * The address ranges of the CUs that libdw's address ranges (.debug_aranges)
 * leave out, from the CUs' own DW_AT_low_pc/DW_AT_high_pc and DW_AT_ranges:
 * which CU covers an address where libdw finds none, as libdw from before it
 * read the CUs' ranges finds none in a file without .debug_aranges (clang
 * emits none), where this holds every CU. LLVM's DWARFDebugAranges completes
 * .debug_aranges the same way. An address no CU covers has no line in the
 * DWARF.
 *
 * Key: the address (DWARF's). Value: the CU DIE's offset. Sorted by start,
 * with the running maximum of the ends. Bound: 32 bytes per range of each
 * such CU of the dsos looked up in, made on the first address libdw finds
 * no CU for. Lifetime and locking: those of struct dso_libdw.
 */
struct cu_range {
	Dwarf_Addr	start, end;	/* [start, end) */
	Dwarf_Addr	max_end;	/* the largest end of this and the ranges before */
	Dwarf_Off	cu_off;
};

struct cu_ranges {
	size_t		 nr;
	struct cu_range	*ranges;
};

static int cu_range__cmp(const void *a, const void *b)
{
	const struct cu_range *ra = a, *rb = b;

	if (ra->start != rb->start)
		return ra->start < rb->start ? -1 : 1;
	return 0;
}

static int off__cmp(const void *a, const void *b)
{
	Dwarf_Off oa = *(const Dwarf_Off *)a, ob = *(const Dwarf_Off *)b;

	return oa < ob ? -1 : oa > ob;
}

/* The CU DIE offsets libdw's address ranges name, sorted, in *offs. */
static size_t aranges__cu_offsets(Dwarf *dwarf, Dwarf_Off **offs)
{
	Dwarf_Aranges *aranges;
	size_t nr = 0, n = 0;

	*offs = NULL;
	if (dwarf_getaranges(dwarf, &aranges, &nr) || !nr)
		return 0;
	*offs = malloc(nr * sizeof(**offs));
	if (!*offs)
		return 0;
	for (size_t i = 0; i < nr; i++) {
		if (!dwarf_getarangeinfo(dwarf_onearange(aranges, i), NULL, NULL, &(*offs)[n]))
			n++;
	}
	qsort(*offs, n, sizeof(**offs), off__cmp);
	return n;
}

static struct cu_ranges *cu_ranges__new(Dwarf *dwarf)
{
	struct cu_ranges *cr = zalloc(sizeof(*cr));
	Dwarf_Addr base, start, end, max_end = 0;
	Dwarf_Off cu_off = 0, next_off, *listed;
	size_t alloc = 0, hsize, nr_listed;
	Dwarf_Die cu_die;

	if (!cr)
		return NULL;

	nr_listed = aranges__cu_offsets(dwarf, &listed);
	for (; dwarf_nextcu(dwarf, cu_off, &next_off, &hsize, NULL, NULL, NULL) == 0;
	     cu_off = next_off) {
		Dwarf_Off die_off = cu_off + hsize;
		ptrdiff_t off = 0;

		if (nr_listed && bsearch(&die_off, listed, nr_listed, sizeof(*listed), off__cmp))
			continue;
		if (!dwarf_offdie(dwarf, die_off, &cu_die))
			continue;
		while ((off = dwarf_ranges(&cu_die, off, &base, &start, &end)) > 0) {
			if (cr->nr == alloc) {
				struct cu_range *r;

				alloc = alloc ? alloc * 2 : 64;
				r = realloc(cr->ranges, alloc * sizeof(*r));
				if (!r) {
					free(listed);
					free(cr->ranges);
					free(cr);
					return NULL;
				}
				cr->ranges = r;
			}
			cr->ranges[cr->nr++] = (struct cu_range){
				.start = start, .end = end, .cu_off = dwarf_dieoffset(&cu_die),
			};
		}
	}
	free(listed);
	if (cr->nr)
		qsort(cr->ranges, cr->nr, sizeof(*cr->ranges), cu_range__cmp);
	for (size_t i = 0; i < cr->nr; i++) {
		if (cr->ranges[i].end > max_end)
			max_end = cr->ranges[i].end;
		cr->ranges[i].max_end = max_end;
	}
	return cr;
}

static void cu_ranges__delete(struct cu_ranges *cr)
{
	if (cr) {
		free(cr->ranges);
		free(cr);
	}
}

/*
 * The CU covering addr, a DWARF address, in *cu_mem: 1, none: 0, no table
 * (no memory): -1.
 */
static int dso_libdw__cu_at(struct dso_libdw *dl, Dwarf *dwarf, Dwarf_Addr addr,
			    Dwarf_Die *cu_mem)
{
	struct cu_ranges *cr = dl->cu_ranges;
	size_t lo = 0, hi;

	if (!cr) {
		cr = cu_ranges__new(dwarf);
		dl->cu_ranges = cr;
	}
	if (!cr)
		return -1;

	/* The first range that starts after addr; those before it ending after addr hold it. */
	hi = cr->nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cr->ranges[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0 && cr->ranges[i].max_end > addr; ) {
		if (cr->ranges[i].end > addr)
			return dwarf_offdie(dwarf, cr->ranges[i].cu_off, cu_mem) ? 1 : -1;
	}
	return 0;
}

/*
 * Index of the subprograms of a CU that have code, by address: what
 * die_find_realfunc() finds by going through all the subprograms of the CU
 * (dwarf_getfuncs()) for every address, found by a binary search.
 * (cu_funcs__walk() finds them in a fraction of the walk.)
 *
 * Key: the CU (its Dwarf_CU, which lives as long as the Dwfl). Value: one
 * entry per address range of each subprogram of the CU, sorted by start,
 * with the running maximum of the ends, so that nested and overlapping
 * ranges are found too; the first subprogram in dwarf_getfuncs() order
 * wins, as in die_find_realfunc(), but for one defined in the body of
 * another function (a GNU C nested function, a member of a class local to
 * a function), which only answers where no other does. Bound: the
 * subprogram ranges of the CUs looked up, 48 bytes each, built on the
 * first lookup in a CU, those in function bodies on the first lookup that
 * finds no other. Lifetime: the dso's Dwfl (dso__free_libdw()). Locking:
 * srcline__lock(), as the Dwfl.
 */
struct cu_func_range {
	Dwarf_Addr	start, end;	/* [start, end) */
	Dwarf_Addr	max_end;	/* the largest end of this and the ranges before */
	Dwarf		*dwarf;		/* the subprogram's DIE: in this Dwarf (dwz: the */
	Dwarf_Off	die_off;	/*   alternate file's), at this offset */
	u64		seq;		/* the subprogram's order, see cu_funcs__walk() */
};

/*
 * The name of a C++ subprogram without a linkage name, such as the
 * operator() of a lambda (GCC gives it none), qualified with the scopes of
 * its declaration as the demangler would qualify a linkage name:
 * "main::{lambda}::operator()" rather than "operator()". Made by the walk
 * that indexes the CU (cu_funcs__walk()), one per such declaration, or,
 * for the declarations in the classes it skips, on their first lookup
 * (cu_funcs__find_name(), which keeps a NULL name for a DIE that needs
 * none or that it could not find); kept with the CU's index, sorted by
 * DIE.
 */
struct cu_func_name {
	Dwarf		*dwarf;		/* the declaration's DIE: in this Dwarf, */
	Dwarf_Off	die_off;	/*   at this offset */
	char		*name;
};

/* The scopes the walk of a CU is in, from the innermost out. */
struct cu_scope {
	const struct cu_scope	*parent;
	Dwarf_Die		*die;
};

/* Where cu_funcs__walk() goes and what it adds. */
enum cu_walk {
	CU_WALK_SCOPES,	/* the CU, namespaces, classes: not into function bodies */
	CU_WALK_BODIES,	/* the same way, into each function body (CU_WALK_BODY) */
	CU_WALK_BODY,	/* all of a function body: its subprograms */
};

/* The order of the subprograms defined in function bodies: after all others. */
#define CU_FUNC_SEQ_BODY	BIT_ULL(63)

struct cu_funcs {
	size_t			nr, alloc;
	u64			seq;		/* of the next subprogram (cu_func_range) */
	bool			enomem;
	bool			cplusplus;	/* names are kept */
	bool			bodies;		/* function bodies walked ... */
	bool			bodies_enomem;	/* ... but not all of them */
	struct cu_func_range	*ranges;
	size_t			nr_names, alloc_names;
	struct cu_func_name	*names;
};

static size_t cu_funcs__hash(long key, void *ctx __maybe_unused)
{
	return key >> 4;
}

static bool cu_funcs__equal(long key1, long key2, void *ctx __maybe_unused)
{
	return key1 == key2;
}

static int cu_funcs__add(Dwarf_Die *fn_die, struct cu_funcs *cf)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(fn_die, off, &base, &start, &end)) > 0) {
		if (cf->nr == cf->alloc) {
			size_t alloc = cf->alloc ? cf->alloc * 2 : 64;
			struct cu_func_range *r = realloc(cf->ranges, alloc * sizeof(*r));

			if (!r) {
				cf->enomem = true;
				return DWARF_CB_ABORT;
			}
			cf->ranges = r;
			cf->alloc = alloc;
		}
		cf->ranges[cf->nr++] = (struct cu_func_range){
			.start = start, .end = end,
			.dwarf = dwarf_cu_getdwarf(fn_die->cu),
			.die_off = dwarf_dieoffset(fn_die), .seq = cf->seq,
		};
	}
	cf->seq++;
	return DWARF_CB_OK;
}

static int cu_func_range__cmp(const void *a, const void *b)
{
	const struct cu_func_range *ra = a, *rb = b;

	if (ra->start != rb->start)
		return ra->start < rb->start ? -1 : 1;
	return ra->seq < rb->seq ? -1 : ra->seq > rb->seq;
}

/* Sorts the ranges and sets their running maximum of the ends. */
static void cu_funcs__sort_ranges(struct cu_funcs *cf)
{
	Dwarf_Addr max_end = 0;

	if (cf->nr)
		qsort(cf->ranges, cf->nr, sizeof(*cf->ranges), cu_func_range__cmp);
	for (size_t i = 0; i < cf->nr; i++) {
		if (cf->ranges[i].end > max_end)
			max_end = cf->ranges[i].end;
		cf->ranges[i].max_end = max_end;
	}
}

static void cu_funcs__delete(struct cu_funcs *cf)
{
	if (cf) {
		for (size_t i = 0; i < cf->nr_names; i++)
			free(cf->names[i].name);
		free(cf->names);
		free(cf->ranges);
		free(cf);
	}
}

static bool lang__is_cplusplus(int lang)
{
	switch (lang) {
	case DW_LANG_C_plus_plus:
	case DW_LANG_C_plus_plus_03:
	case DW_LANG_C_plus_plus_11:
	case DW_LANG_C_plus_plus_14:
	case 0x002a:	/* DW_LANG_C_plus_plus_17, registered after DWARF 5 */
	case 0x002b:	/* DW_LANG_C_plus_plus_20 */
	case 0x003a:	/* DW_LANG_C_plus_plus_23 */
	case DW_LANG_ObjC_plus_plus:
		return true;
	default:
		return false;
	}
}

/* Appends the qualified name of the scopes around scope's innermost to sb. */
static int cu_scope__qualify(const struct cu_scope *scope, const char *name,
			     bool innermost, struct strbuf *sb)
{
	const char *scope_name;

	if (!scope)
		return 0;
	if (cu_scope__qualify(scope->parent, name, /*innermost=*/false, sb))
		return -ENOMEM;

	scope_name = dwarf_diename(scope->die);
	switch (dwarf_tag(scope->die)) {
	case DW_TAG_namespace:
		scope_name = scope_name ?: "(anonymous namespace)";
		break;
	case DW_TAG_class_type:
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
		/* GCC gives the closure type of a lambda no name. */
		if (!scope_name)
			scope_name = innermost && !strcmp(name, "operator()") ?
				     "{lambda}" : "(anonymous)";
		break;
	case DW_TAG_subprogram:
		break;
	default:	/* the CU, lexical blocks */
		return 0;
	}
	if (scope_name && (strbuf_addstr(sb, scope_name) || strbuf_addstr(sb, "::")))
		return -ENOMEM;
	return 0;
}

/*
 * Keeps the qualified name of a C++ subprogram of the CU that has no
 * linkage name and is the declaration others refer to (no
 * DW_AT_specification or DW_AT_abstract_origin of its own).
 */
static int cu_funcs__add_name(Dwarf_Die *fn_die, const struct cu_scope *scope,
			      struct cu_funcs *cf)
{
	const char *name;
	struct strbuf sb;

	/*
	 * Most subprograms have one of these: test them before the name,
	 * which dwarf_diename() would look for through them too.
	 */
	if (dwarf_hasattr(fn_die, DW_AT_linkage_name) ||
	    dwarf_hasattr(fn_die, DW_AT_specification) ||
	    dwarf_hasattr(fn_die, DW_AT_abstract_origin) ||
	    dwarf_hasattr(fn_die, DW_AT_MIPS_linkage_name))
		return DWARF_CB_OK;
	name = dwarf_diename(fn_die);
	if (!name)
		return DWARF_CB_OK;

	if (cf->nr_names == cf->alloc_names) {
		size_t alloc = cf->alloc_names ? cf->alloc_names * 2 : 16;
		struct cu_func_name *names = realloc(cf->names, alloc * sizeof(*names));

		if (!names)
			goto out_enomem;
		cf->names = names;
		cf->alloc_names = alloc;
	}

	strbuf_init(&sb, 64);
	if (cu_scope__qualify(scope, name, /*innermost=*/true, &sb) ||
	    strbuf_addstr(&sb, name)) {
		strbuf_release(&sb);
		goto out_enomem;
	}
	cf->names[cf->nr_names++] = (struct cu_func_name){
		.dwarf = dwarf_cu_getdwarf(fn_die->cu),
		.die_off = dwarf_dieoffset(fn_die),
		.name = strbuf_detach(&sb, NULL),
	};
	return DWARF_CB_OK;

out_enomem:
	cf->enomem = true;
	return DWARF_CB_ABORT;
}

static int cu_func_name__cmp(const void *a, const void *b)
{
	const struct cu_func_name *na = a, *nb = b;

	if (na->dwarf != nb->dwarf)
		return (uintptr_t)na->dwarf < (uintptr_t)nb->dwarf ? -1 : 1;
	return na->die_off < nb->die_off ? -1 : na->die_off > nb->die_off;
}

/*
 * The defining subprograms of a CU, in dwarf_getfuncs() order. They are
 * children of the CU, of namespaces, of classes (member functions) and,
 * in C++, of classes local to a function: a lambda's operator() is a child
 * of its closure class in the body of the function (or of a lexical block
 * in it) that defines the lambda. So descend into those and into
 * subprograms and lexical blocks, but not into the inlined subroutines,
 * variables and call sites that make most of an optimized CU, nor into
 * the parameters of declarations, which dwarf_getfuncs() walks through
 * too for a C++ CU: the same subprograms, at least 40% faster (checked on
 * every CU of 301 Debian debug files).
 *
 * Nor, in C++, into a named class, structure or union that is a child of
 * the CU or of a namespace: GCC and clang put the definitions of its
 * member functions next to it, outside (DW_AT_specification), and its
 * members are most of the DIEs of a C++ CU. (A function a producer would
 * define in there would get no inline frames, as an address in no
 * subprogram.) Its declarations without a linkage name (members of
 * classes in an anonymous namespace) get their qualified names when first
 * asked for (cu_funcs__find_name()).
 *
 * Nor into the bodies of functions, a third of the rest, where a
 * producer seldom defines a function: GCC defines a lambda's operator()
 * at CU scope too, only its declaration is in the body of the function,
 * and gets its qualified name as those in the classes above. A function
 * defined in another (a GNU C nested function) is added with the others
 * in the bodies by a second walk (CU_WALK_BODIES), on the first lookup of
 * an address that no function outside them holds; they come after all
 * those in the order of the index, so that its answers do not depend on
 * whether that walk was done.
 */
static int cu_funcs__walk(Dwarf_Die *parent, struct cu_funcs *cf, int depth,
			  const struct cu_scope *scope, enum cu_walk walk)
{
	Dwarf_Attribute attr;
	Dwarf_Die die, unit;
	struct cu_scope inner = { .parent = scope, .die = &die, };
	bool decl;

	/*
	 * Bound the recursion on corrupt DWARF and on imported units that
	 * import each other: no scope nests that deep.
	 */
	if (depth > 256 || dwarf_child(parent, &die) != 0)
		return DWARF_CB_OK;
	do {
		switch (dwarf_tag(&die)) {
		case DW_TAG_imported_unit:	/* dwz: a partial unit, in place */
			if (dwarf_attr(&die, DW_AT_import, &attr) &&
			    dwarf_formref_die(&attr, &unit) &&
			    cu_funcs__walk(&unit, cf, depth + 1, scope, walk) != DWARF_CB_OK)
				return DWARF_CB_ABORT;
			break;
		case DW_TAG_subprogram:
			decl = dwarf_hasattr(&die, DW_AT_declaration);
			if (walk == CU_WALK_SCOPES) {
				if (!decl && cu_funcs__add(&die, cf) != DWARF_CB_OK)
					return DWARF_CB_ABORT;
				if (cf->cplusplus &&
				    cu_funcs__add_name(&die, scope, cf) != DWARF_CB_OK)
					return DWARF_CB_ABORT;
			} else if (walk == CU_WALK_BODY && !decl &&
				   cu_funcs__add(&die, cf) != DWARF_CB_OK) {
				return DWARF_CB_ABORT;
			}
			/* A declaration has only its parameters. */
			if (decl || walk == CU_WALK_SCOPES)
				break;
			/* and the functions and classes local to the function */
			if (cu_funcs__walk(&die, cf, depth + 1, &inner,
					   CU_WALK_BODY) != DWARF_CB_OK)
				return DWARF_CB_ABORT;
			break;
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_lexical_block:
			if (cu_funcs__walk(&die, cf, depth + 1, &inner, walk) != DWARF_CB_OK)
				return DWARF_CB_ABORT;
			break;
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
		case DW_TAG_interface_type:
			/* A named class at namespace scope: see above. */
			if (cf->cplusplus &&
			    (!scope || dwarf_tag(scope->die) == DW_TAG_namespace) &&
			    dwarf_hasattr(&die, DW_AT_name))
				break;
			if (cu_funcs__walk(&die, cf, depth + 1, &inner, walk) != DWARF_CB_OK)
				return DWARF_CB_ABORT;
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&die, &die) == 0);
	return DWARF_CB_OK;
}

static struct cu_funcs *cu_funcs__new(Dwarf_Die *cu_die)
{
	struct cu_funcs *cf = zalloc(sizeof(*cf));

	if (!cf)
		return NULL;

	cf->cplusplus = lang__is_cplusplus(dwarf_srclang(cu_die));
	cu_funcs__walk(cu_die, cf, /*depth=*/0, /*scope=*/NULL, CU_WALK_SCOPES);
	if (cf->enomem) {
		cu_funcs__delete(cf);
		return NULL;
	}
	cu_funcs__sort_ranges(cf);
	if (cf->nr_names)
		qsort(cf->names, cf->nr_names, sizeof(*cf->names), cu_func_name__cmp);
	return cf;
}

/*
 * Adds the subprograms defined in the bodies of the CU's functions, once.
 * Without memory for all of them, what was added is kept and
 * bodies_enomem set.
 */
static void cu_funcs__walk_bodies(struct cu_funcs *cf, Dwarf_Die *cu_die)
{
	size_t nr = cf->nr;

	cf->bodies = true;
	cf->seq = CU_FUNC_SEQ_BODY;
	cu_funcs__walk(cu_die, cf, /*depth=*/0, /*scope=*/NULL, CU_WALK_BODIES);
	cf->bodies_enomem = cf->enomem;
	cf->enomem = false;
	if (cf->nr > nr)
		cu_funcs__sort_ranges(cf);
}

static const struct cu_func_range *cu_funcs__find(const struct cu_funcs *cf, Dwarf_Addr addr)
{
	const struct cu_func_range *found = NULL;
	size_t lo = 0, hi = cf->nr;

	/* The first range that starts after addr... */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cf->ranges[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* ... those before it that end after addr hold it. */
	for (size_t i = lo; i-- > 0 && cf->ranges[i].max_end > addr; ) {
		if (cf->ranges[i].end > addr && (!found || cf->ranges[i].seq < found->seq))
			found = &cf->ranges[i];
	}
	return found;
}

/*
 * The qualified name of the declaration at key, which the walk did not go
 * to (it is a member of a named class at namespace scope, or in the body
 * of a function), found by going down from the CU to it, through the DIEs
 * that hold it. It is kept with the names the walk made, in their order,
 * so it is looked for once; NULL, kept as well, when it needs no such
 * name.
 */
static const char *cu_funcs__find_name(struct cu_funcs *cf, Dwarf_Die *cu_die,
				       const struct cu_func_name *key)
{
	Dwarf_Die path[32], die, next;
	struct cu_scope scopes[ARRAY_SIZE(path)];
	const struct cu_scope *scope = NULL;
	size_t depth = 0, lo = 0, hi = cf->nr_names, n = cf->nr_names;
	bool found = dwarf_child(cu_die, &die) == 0;
	struct cu_func_name *names;

	while (found) {
		Dwarf_Off off = dwarf_dieoffset(&die);
		int ret;

		if (off == key->die_off)
			break;
		ret = off > key->die_off ? -1 : dwarf_siblingof(&die, &next);
		if (ret < 0) {
			found = false;
			break;
		}
		if (ret == 0 && dwarf_dieoffset(&next) <= key->die_off) {
			die = next;
			continue;
		}
		/* The declaration is in this DIE. */
		if (depth == ARRAY_SIZE(path)) {
			found = false;
			break;
		}
		path[depth] = die;
		scopes[depth] = (struct cu_scope){ .parent = scope, .die = &path[depth], };
		scope = &scopes[depth];
		found = dwarf_child(&path[depth++], &die) == 0;
	}

	/* Its name, made at the end of the array, if it needs one. */
	if (found && dwarf_tag(&die) == DW_TAG_subprogram &&
	    cu_funcs__add_name(&die, scope, cf) != DWARF_CB_OK) {
		cf->enomem = false;
		return NULL;
	}
	if (cf->nr_names == n) {
		/* None: keep the answer all the same. */
		if (cf->nr_names == cf->alloc_names) {
			size_t alloc = cf->alloc_names ? cf->alloc_names * 2 : 16;

			names = realloc(cf->names, alloc * sizeof(*names));
			if (!names)
				return NULL;
			cf->names = names;
			cf->alloc_names = alloc;
		}
		cf->names[cf->nr_names++] = (struct cu_func_name){
			.dwarf = key->dwarf, .die_off = key->die_off,
		};
	}
	/* Into its place among the others. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cu_func_name__cmp(&cf->names[mid], key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n) {
		struct cu_func_name name = cf->names[n];

		memmove(&cf->names[lo + 1], &cf->names[lo], (n - lo) * sizeof(name));
		cf->names[lo] = name;
	}
	return cf->names[lo].name;
}

/* A map keyed by Dwarf_CU *, made on first use; NULL without memory. */
static struct hashmap *cu_map(struct hashmap **map)
{
	if (!*map) {
		*map = hashmap__new(cu_funcs__hash, cu_funcs__equal, NULL);
		if (IS_ERR(*map))
			*map = NULL;
	}
	return *map;
}

/* The index of the CU, made on its first lookup; NULL without memory. */
static struct cu_funcs *dso_libdw__cu_funcs(struct dso_libdw *dl, Dwarf_Die *cu_die)
{
	struct cu_funcs *cf = NULL;

	if (!cu_map(&dl->cu_funcs))
		return NULL;

	if (!hashmap__find(dl->cu_funcs, cu_die->cu, &cf)) {
		cf = cu_funcs__new(cu_die);
		if (!cf || hashmap__add(dl->cu_funcs, cu_die->cu, cf)) {
			cu_funcs__delete(cf);
			return NULL;
		}
	}
	return cf;
}

/*
 * The qualified name of a C++ function without a linkage name (struct
 * cu_func_name) from its inlined or out-of-line instance, or NULL.
 */
static const char *dso_libdw__qualified_name(struct dso_libdw *dl, Dwarf_Die *die)
{
	struct cu_func_name key, *found;
	Dwarf_Die origin, decl = *die, cu_die;
	Dwarf_Attribute attr;
	struct cu_funcs *cf;

	/* From the inlined or out-of-line instance to the declaration. */
	for (int i = 0; i < 8; i++) {
		if (!dwarf_attr(&decl, DW_AT_abstract_origin, &attr) &&
		    !dwarf_attr(&decl, DW_AT_specification, &attr))
			break;
		if (!dwarf_formref_die(&attr, &origin))
			return NULL;
		decl = origin;
	}
	if (!dwarf_diecu(&decl, &cu_die, NULL, NULL))
		return NULL;
	cf = dso_libdw__cu_funcs(dl, &cu_die);
	if (!cf)
		return NULL;

	key.dwarf = dwarf_cu_getdwarf(decl.cu);
	key.die_off = dwarf_dieoffset(&decl);
	found = cf->nr_names ? bsearch(&key, cf->names, cf->nr_names, sizeof(key),
				       cu_func_name__cmp) : NULL;
	if (found)
		return found->name;
	return cf->cplusplus ? cu_funcs__find_name(cf, &cu_die, &key) : NULL;
}

/*
 * The line table of the CU, decoded by perf on its first lookup (struct
 * dwarf_lines), or NULL where perf leaves it to libdw or has no memory.
 */
static struct dwarf_lines *dso_libdw__cu_lines(struct dso_libdw *dl, Dwarf_Die *cu_die)
{
	struct dwarf_lines *lines = NULL;

	if (!cu_map(&dl->cu_lines))
		return NULL;

	if (!hashmap__find(dl->cu_lines, cu_die->cu, &lines)) {
		lines = dwarf_lines__new(cu_die);
		if (hashmap__add(dl->cu_lines, cu_die->cu, lines)) {
			dwarf_lines__delete(lines);
			return NULL;
		}
	}
	return lines;
}

/*
 * The source line of addr, a DWARF address, in the CU of cu_die: 1 and
 * *src (NULL: a row without a file) and *lineno, as dwarf_getsrc_die(),
 * dwarf_linesrc() and dwarf_lineno() give them, 0 when the CU has none.
 */
static int dso_libdw__cu_line(struct dso_libdw *dl, Dwarf_Die *cu_die, Dwarf_Addr addr,
			      const char **src, int *lineno)
{
	struct dwarf_lines *lines = dso_libdw__cu_lines(dl, cu_die);
	Dwarf_Line *line;

	if (lines)
		return dwarf_lines__find(lines, addr, src, lineno);

	line = dwarf_getsrc_die(cu_die, addr);
	if (!line)
		return 0;
	*src = dwarf_linesrc(line, /*mtime=*/NULL, /*length=*/NULL);
	dwarf_lineno(line, lineno);
	return 1;
}

/*
 * die_get_call_file() from the CU's line table: the file of the call of an
 * inlined subroutine, in the file table of the unit its DW_AT_decl_file
 * is in, as die_get_call_file() finds it.
 */
static const char *dso_libdw__call_file(struct dso_libdw *dl, Dwarf_Die *die)
{
	struct dwarf_lines *lines;
	Dwarf_Attribute attr;
	Dwarf_Die cu_die;
	Dwarf_Word idx;

	if (!dwarf_attr_integrate(die, DW_AT_call_file, &attr) || dwarf_formudata(&attr, &idx) ||
	    idx > INT_MAX || !dwarf_attr_integrate(die, DW_AT_decl_file, &attr) ||
	    !dwarf_cu_die(attr.cu, &cu_die, NULL, NULL, NULL, NULL, NULL, NULL))
		return NULL;
	lines = dso_libdw__cu_lines(dl, &cu_die);
	return lines ? dwarf_lines__file(lines, idx) : die_get_call_file(die);
}

/*
 * cu_walk_functions_at() with the CU's index: the subprogram at addr and
 * the inlined subroutines in it, from the outermost.
 */
static int libdw__walk_functions_at(struct dso_libdw *dl, Dwarf_Die *cu_die, Dwarf_Addr addr,
				    int (*callback)(Dwarf_Die *, void *), void *data)
{
	const struct cu_func_range *range;
	struct cu_funcs *cf = dso_libdw__cu_funcs(dl, cu_die);
	Dwarf_Die sp_die;

	if (!cf)
		return cu_walk_functions_at(cu_die, addr, callback, data);

	range = cu_funcs__find(cf, addr);
	if (!range && !cf->bodies) {
		cu_funcs__walk_bodies(cf, cu_die);
		range = cu_funcs__find(cf, addr);
	}
	/* Not all of them for want of memory: walk the CU as without the index. */
	if (!range && cf->bodies_enomem)
		return cu_walk_functions_at(cu_die, addr, callback, data);
	if (!range || !dwarf_offdie(range->dwarf, range->die_off, &sp_die))
		return -ENOENT;
	return die_walk_functions_at(&sp_die, addr, callback, data);
}

void dso__free_libdw(struct dso *dso)
{
	struct dso_libdw *dl = dso__libdw(dso);
	struct dso_libdw_elf *de = dso__libdw_elf_ptr(dso);

	if (dl) {
		if (dl->cu_funcs) {
			struct hashmap_entry *cur;
			size_t bkt;

			hashmap__for_each_entry(dl->cu_funcs, cur, bkt)
				cu_funcs__delete(cur->pvalue);
			hashmap__free(dl->cu_funcs);
		}
		if (dl->cu_lines) {
			struct hashmap_entry *cur;
			size_t bkt;

			hashmap__for_each_entry(dl->cu_lines, cur, bkt)
				dwarf_lines__delete(cur->pvalue);
			hashmap__free(dl->cu_lines);
		}
		cu_ranges__delete(dl->cu_ranges);
		dwfl_end(dl->dwfl);
		elf_end(dl->elf);
		free(dl->elf_path);
		if (dl->debug_fd >= 0)
			close(dl->debug_fd);
		free(dl->image);
		if (dl->eh_cfi)
			dwarf_cfi_end(dl->eh_cfi);
		elf_end(dl->eh_elf);
		free(dl);
		dso__set_libdw(dso, NULL);
	}
	if (de) {
		mutex_lock(libdw_elf_lock());
		libdw_elf__close(de);
		mutex_unlock(libdw_elf_lock());
		free(de->path);
		free(de);
		dso__set_libdw_elf_ptr(dso, NULL);
	}
}

/* Whether size bytes of zlib stream claim more than zlib can inflate to. */
static bool zlib__claims_too_much(u64 size, u64 inflated)
{
	return inflated / 1032 > size;
}

/*
 * Whether the ELF file has a zlib-compressed section that says it inflates
 * to more than zlib can inflate anything to (1032:1): a decompression bomb.
 * libelf refuses such a section, so libdw has no DWARF for the file; LLVM's
 * symbolizer and addr2line would allocate what it says (terabytes).
 */
static bool elf__has_compression_bomb(Elf *elf)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr shdr;
		GElf_Chdr chdr;

		if (gelf_getshdr(scn, &shdr) && (shdr.sh_flags & SHF_COMPRESSED) &&
		    gelf_getchdr(scn, &chdr) && chdr.ch_type == ELFCOMPRESS_ZLIB &&
		    zlib__claims_too_much(shdr.sh_size, chdr.ch_size))
			return true;
	}
	return false;
}

static bool elf__has_dwarf(Elf *elf)
{
	GElf_Ehdr ehdr;
	GElf_Shdr shdr;

	return elf && gelf_getehdr(elf, &ehdr) &&
	       (elf_section_by_name(elf, &ehdr, &shdr, ".debug_info", /*idx=*/NULL) ||
		elf_section_by_name(elf, &ehdr, &shdr, ".zdebug_info", /*idx=*/NULL));
}

/*
 * Why the module has no DWARF: none in its file or debug file, DWARF libdw
 * could not read, or a file libelf refused to inflate.
 */
static int libdw__no_dwarf(Dwfl_Module *mod)
{
	const char *debugfile = NULL;
	Dwarf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	bool bomb = elf && elf__has_compression_bomb(elf);
	bool dwarf = elf__has_dwarf(elf);

	dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, &debugfile);
	if (!bomb && debugfile) {
		int fd = open(debugfile, O_RDONLY | O_CLOEXEC);

		if (fd >= 0) {
			elf = elf_begin(fd, ELF_C_READ_MMAP, /*ref=*/NULL);
			bomb = elf && elf__has_compression_bomb(elf);
			dwarf = dwarf || elf__has_dwarf(elf);
			elf_end(elf);
			close(fd);
		}
	}
	if (bomb) {
		const char *name = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL);

		pr_warning("%s: compressed debug section inflating to more than zlib can, ignored\n",
			   debugfile ?: name);
		return DWARF_REFUSED;
	}
	return dwarf ? DWARF_UNREADABLE : DWARF_NONE;
}

/*
 * The debug info of a dso for srcline: where libdwfl looks for it (the
 * debuglink and build-id paths, debuginfod), else the file perf read the
 * dso's symbols from when that is another file (a debug file perf found,
 * e.g. in its build-id cache): the file LLVM, libbfd and addr2line are
 * given. So when libdw finds no DWARF, none of them has any to read.
 */
static int libdw__find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
				 Dwarf_Addr base, const char *file_name,
				 const char *debuglink_file, GElf_Word debuglink_crc,
				 char **debuginfo_file_name)
{
	const struct dso *dso = *userdata;
	const char *symsrc = dso ? dso__symsrc_filename(dso) : NULL;
	int fd = dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
					      debuglink_file, debuglink_crc,
					      debuginfo_file_name);

	if (fd >= 0 || !symsrc || (file_name && !strcmp(file_name, symsrc)))
		return fd;

	fd = open(symsrc, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		free(*debuginfo_file_name);
		*debuginfo_file_name = strdup(symsrc);
	}
	return fd;
}

/*
 * The module's ELF file for srcline, chosen by dso__libdw_get(): libdwfl
 * takes it when it first needs the module's file.
 */
static int libdw__find_srcline_elf(Dwfl_Module *mod __maybe_unused, void **userdata,
				   const char *modname __maybe_unused,
				   Dwarf_Addr base __maybe_unused, char **file_name, Elf **elfp)
{
	struct dso *dso = *userdata;
	struct dso_libdw *dl = dso ? dso__libdw(dso) : NULL;

	*elfp = NULL;
	if (dl && dl->elf) {
		*elfp = dl->elf;	/* libdwfl's now */
		dl->elf = NULL;
		if (!*file_name)
			*file_name = strdup(dl->elf_path);
	}
	return -1;
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = libdw__find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.find_elf = libdw__find_srcline_elf,
};

#ifdef HAVE_ZLIB_SUPPORT
/*
 * Inflate the zlib stream of csize bytes at off in fd into dst, which it
 * must fill exactly, reading the file 64 KiB at a time.
 */
static bool fd__inflate(int fd, off_t off, size_t csize, void *dst, size_t dsize)
{
	const size_t chunk = 64 * 1024;
	z_stream zs = { .next_out = dst };
	unsigned char *in;
	int ret = Z_OK;
	bool ok;

	if (dsize > UINT_MAX)
		return false;
	zs.avail_out = dsize;
	in = malloc(chunk);
	if (!in)
		return false;
	if (inflateInit(&zs) != Z_OK) {
		free(in);
		return false;
	}
	while (ret == Z_OK && csize) {
		ssize_t n = pread(fd, in, csize < chunk ? csize : chunk, off);

		if (n <= 0)
			break;
		off += n;
		csize -= n;
		zs.next_in = in;
		zs.avail_in = n;
		ret = inflate(&zs, Z_NO_FLUSH);
		/* Input left over with no room left: more than it says. */
		if (ret == Z_OK && zs.avail_in)
			break;
	}
	ok = ret == Z_STREAM_END && zs.total_out == dsize;
	inflateEnd(&zs);
	free(in);
	return ok;
}

/*
 * The sections srcline's libdw reads: DWARF srcline and inline frames look
 * at (units, lines, strings, ranges, type units, aranges for
 * dwfl_module_addrdie()), .debug_frame for powerpc's dso__libdw_frame(), and
 * the dwz link. Not location lists, macros, name indexes.
 */
static bool srcline__reads_section(const char *name)
{
	static const char * const read[] = {
		".debug_info", ".debug_abbrev", ".debug_line", ".debug_line_str",
		".debug_str", ".debug_str_offsets", ".debug_addr", ".debug_aranges",
		".debug_ranges", ".debug_rnglists", ".debug_types", ".debug_frame",
		".gnu_debugaltlink",
	};

	for (size_t i = 0; i < ARRAY_SIZE(read); i++) {
		if (!strcmp(name, read[i]))
			return true;
	}
	return false;
}

/*
 * A separate debug file with compressed DWARF as srcline's libdw reads it:
 * its headers, notes and the sections srcline reads (srcline__reads_section()),
 * inflated by perf in 64 KiB reads of the file into one buffer, which libelf
 * reads as an ELF image (elf_memory()). The other sections have no contents
 * there (SHT_NOBITS, as in a stripped file): no symbol table, location
 * lists or macros; the program headers keep their addresses, not their file
 * offsets. libelf reads a compressed section whole to inflate it, and libdw
 * inflates every DWARF section it knows when it opens a file: for HotSpot's
 * libjvm.so, 124 MB of compressed .debug_info read to inflate 257 MB, and 51
 * MB of location lists srcline never reads kept for the run. Which sections
 * srcline's libdw calls read is perf's judgement: one left out only costs
 * lookups. An image has no file, so libdw has no directory to resolve
 * relative split-DWARF (.dwo) names from, which perf does not read anyway.
 *
 * NULL when the file is not a native ELFCLASS64 ET_DYN or ET_EXEC file,
 * numbers its sections or program headers in an extension, has GNU .zdebug
 * sections, or a section it reads lies outside the file, is compressed
 * other than with zlib, claims more than zlib can inflate (a decompression
 * bomb) or does not inflate to what its header says: libelf and libdw read
 * the file then, as before. The image is returned in *imagep, to be freed
 * after the Elf is ended.
 */
static Elf *elf__srcline_image(Elf *elf, int fd, void **imagep)
{
#if __BYTE_ORDER == __LITTLE_ENDIAN
	const unsigned char host_data = ELFDATA2LSB;
#else
	const unsigned char host_data = ELFDATA2MSB;
#endif
	size_t shnum, phnum, shstrndx, size, total, i;
	unsigned char *image = NULL;
	GElf_Shdr *shdrs = NULL;
	GElf_Ehdr ehdr;
	struct stat st;
	Elf *img = NULL;

	if (!gelf_getehdr(elf, &ehdr) || gelf_getclass(elf) != ELFCLASS64 ||
	    (ehdr.e_type != ET_DYN && ehdr.e_type != ET_EXEC) ||
	    ehdr.e_ident[EI_DATA] != host_data ||
	    elf_getshdrnum(elf, &shnum) || elf_getphdrnum(elf, &phnum) ||
	    elf_getshdrstrndx(elf, &shstrndx) || ehdr.e_shnum != shnum ||
	    ehdr.e_phnum != phnum || shstrndx != ehdr.e_shstrndx || shnum == 0 ||
	    fstat(fd, &st) || st.st_size < 0)
		return NULL;

	shdrs = calloc(shnum, sizeof(*shdrs));
	if (!shdrs)
		return NULL;
	/* Headers, then each section's contents, then the section headers. */
	size = sizeof(Elf64_Ehdr) + phnum * sizeof(Elf64_Phdr);
	for (i = 1; i < shnum; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		GElf_Shdr *sh = &shdrs[i];
		u64 align = 16;
		const char *name;

		if (!scn || !gelf_getshdr(scn, sh))
			goto out_free;
		name = elf_strptr(elf, shstrndx, sh->sh_name);
		if (!name || strstarts(name, ".zdebug"))
			goto out_free;
		if (sh->sh_type == SHT_NOBITS ||
		    (i != shstrndx && sh->sh_type != SHT_NOTE && !srcline__reads_section(name))) {
			sh->sh_type = SHT_NOBITS;
			sh->sh_flags &= ~SHF_COMPRESSED;
			continue;
		}
		if (sh->sh_offset > (u64)st.st_size || sh->sh_size > st.st_size - sh->sh_offset)
			goto out_free;
		if (sh->sh_flags & SHF_COMPRESSED) {
			Elf64_Chdr ch;

			/* Not gelf_getchdr(): libelf would read the whole section. */
			if (pread(fd, &ch, sizeof(ch), sh->sh_offset) != sizeof(ch) ||
			    ch.ch_type != ELFCOMPRESS_ZLIB || ch.ch_size > UINT_MAX ||
			    zlib__claims_too_much(sh->sh_size, ch.ch_size))
				goto out_free;
			sh->sh_size = ch.ch_size;
			sh->sh_addralign = ch.ch_addralign;
		}
		if (sh->sh_addralign > align) {
			if (sh->sh_addralign > 4096 || (sh->sh_addralign & (sh->sh_addralign - 1)))
				goto out_free;
			align = sh->sh_addralign;
		}
		size = roundup(size, align);
		sh->sh_offset = size;
		if (sh->sh_size > SIZE_MAX / 2 ||
		    check_add_overflow(size, (size_t)sh->sh_size, &size) || size > SIZE_MAX / 2)
			goto out_free;
	}
	size = roundup(size, 8);
	if (check_add_overflow(size, shnum * sizeof(Elf64_Shdr), &total))
		goto out_free;

	image = calloc(1, total);
	if (!image)
		goto out_free;
	for (i = 1; i < shnum; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		GElf_Shdr orig, *sh = &shdrs[i];

		if (sh->sh_type == SHT_NOBITS)
			continue;
		if (!gelf_getshdr(scn, &orig))
			goto out_free;
		if (orig.sh_flags & SHF_COMPRESSED) {
			size_t chdr = sizeof(Elf64_Chdr);

			if (orig.sh_size < chdr ||
			    !fd__inflate(fd, orig.sh_offset + chdr, orig.sh_size - chdr,
					 image + sh->sh_offset, sh->sh_size))
				goto out_free;
			sh->sh_flags &= ~SHF_COMPRESSED;
		} else if (pread(fd, image + sh->sh_offset, sh->sh_size, orig.sh_offset) !=
			   (ssize_t)sh->sh_size) {
			goto out_free;
		}
	}
	for (i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph))
			goto out_free;
		/* The file's contents are not in the image: addresses only. */
		ph.p_offset = 0;
		ph.p_filesz = 0;
		memcpy(image + sizeof(Elf64_Ehdr) + i * sizeof(Elf64_Phdr), &ph, sizeof(ph));
	}
	memcpy(image + size, shdrs, shnum * sizeof(Elf64_Shdr));
	ehdr.e_phoff = phnum ? sizeof(Elf64_Ehdr) : 0;
	ehdr.e_phentsize = sizeof(Elf64_Phdr);
	ehdr.e_shoff = size;
	ehdr.e_shentsize = sizeof(Elf64_Shdr);
	memcpy(image, &ehdr, sizeof(Elf64_Ehdr));

	img = elf_memory((char *)image, total);
	if (img && elf_kind(img) == ELF_K_ELF) {
		*imagep = image;
		image = NULL;
	} else {
		elf_end(img);
		img = NULL;
	}
out_free:
	free(image);
	free(shdrs);
	return img;
}
#else
static Elf *elf__srcline_image(Elf *elf __maybe_unused, int fd __maybe_unused,
			       void **imagep __maybe_unused)
{
	return NULL;
}
#endif

/*
 * The file at path, when it is a separate debug file of the dso (its
 * build-id) with compressed DWARF, to be read rather than mapped; else
 * NULL. libdw inflates every .debug_* section of a file when it opens it;
 * libelf then frees each compressed section it read, while the pages of a
 * mapped file stay in memory. Perf inflates what srcline reads of it into
 * an image in *imagep (elf__srcline_image()); else libelf reads the file
 * through *fdp, which stays open with the Elf.
 */
static Elf *compressed_debug_elf__open(const char *path, const struct build_id *bid,
				       int *fdp, void **imagep)
{
	const void *id;
	GElf_Ehdr ehdr;
	GElf_Shdr shdr;
	Elf_Scn *scn;
	Elf *elf;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	elf = elf_begin(fd, ELF_C_READ, /*ref=*/NULL);
	if (elf && gelf_getehdr(elf, &ehdr) &&
	    dwelf_elf_gnu_build_id(elf, &id) == (ssize_t)bid->size &&
	    !memcmp(id, bid->data, bid->size)) {
		scn = elf_section_by_name(elf, &ehdr, &shdr, ".debug_info", /*idx=*/NULL);
		if (scn && (shdr.sh_flags & SHF_COMPRESSED)) {
			Elf *image = elf__srcline_image(elf, fd, imagep);

			pr_debug("libdw: srcline reads %s (compressed DWARF%s)\n", path,
				 image ? ", inflated by perf" : "");
			if (image) {
				elf_end(elf);
				close(fd);
				return image;
			}
			*fdp = fd;
			return elf;
		}
	}
	elf_end(elf);
	close(fd);
	return NULL;
}

/*
 * Whether the dso's own file has DWARF, which libdwfl would read rather
 * than look for a debug file. A file that is not there has none.
 */
static bool dso__own_file_has_dwarf(struct dso *dso)
{
	int fd = open(dso__long_name(dso), O_RDONLY | O_CLOEXEC);
	bool dwarf = true;
	Elf *elf;

	if (fd < 0)
		return false;
	elf = elf_begin(fd, ELF_C_READ_MMAP, /*ref=*/NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF)
		dwarf = elf__has_dwarf(elf);
	elf_end(elf);
	close(fd);
	return dwarf;
}

/*
 * The separate debug file of the dso with compressed DWARF, read as
 * compressed_debug_elf__open() says, its path in *pathp; or NULL. It is
 * the file perf read the dso's symbols from when that is one; else, when
 * the dso's own file has no DWARF, the one libdwfl would find (build-id
 * directory, then .gnu_debuglink) or the one in perf's build-id cache:
 * perf reads the symbols of a dso whose file keeps its .symtab, as
 * HotSpot's libjvm.so does, from that file or its copy in the build-id
 * cache, not from its debug file.
 */
static Elf *dso__compressed_debug_elf(struct dso *dso, int *fdp, void **imagep,
				      char **pathp)
{
	static const enum dso_binary_type types[] = {
		DSO_BINARY_TYPE__BUILDID_DEBUGINFO,
		DSO_BINARY_TYPE__DEBUGLINK,
		DSO_BINARY_TYPE__BUILD_ID_CACHE_DEBUGINFO,
	};
	const char *symsrc = dso__symsrc_filename(dso);
	const struct build_id *bid = dso__bid(dso);
	char *path;
	Elf *elf = NULL;

	if (!build_id__is_defined(bid))
		return NULL;
	if (symsrc && strcmp(symsrc, dso__long_name(dso))) {
		elf = compressed_debug_elf__open(symsrc, bid, fdp, imagep);
		if (elf) {
			*pathp = strdup(symsrc);
			return elf;
		}
	}
	if (dso__own_file_has_dwarf(dso))
		return NULL;

	path = malloc(PATH_MAX);
	for (size_t i = 0; path && !elf && i < ARRAY_SIZE(types); i++) {
		if (!dso__read_binary_type_filename(dso, types[i], /*root_dir=*/NULL,
						    path, PATH_MAX) &&
		    (!symsrc || strcmp(path, symsrc)))
			elf = compressed_debug_elf__open(path, bid, fdp, imagep);
	}
	if (elf)
		*pathp = path;
	else
		free(path);
	return elf;
}

/* The dso's own file, mapped; NULL when it is no ET_DYN or ET_EXEC file. */
static Elf *dso__elf(const char *path, GElf_Addr *vaddr, GElf_Addr *end)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool exec;
	Elf *elf;

	if (fd < 0)
		return NULL;
	elf = elf_begin(fd, ELF_C_READ_MMAP, /*ref=*/NULL);
	if (elf && (elf_kind(elf) != ELF_K_ELF || !elf__module_range(elf, vaddr, end, &exec) ||
		    elf_cntl(elf, ELF_C_FDREAD))) {
		elf_end(elf);
		elf = NULL;
	}
	close(fd);
	return elf;
}

/* The dso's srcline state, made on first use. Under srcline__lock(). */
static struct dso_libdw *dso__libdw_get(struct dso *dso)
{
	struct dso_libdw *dl = dso__libdw(dso);
	GElf_Addr vaddr = 0, end = 0;
	Dwfl_Module *mod = NULL;
	char *debug_path = NULL;
	const char *dso_name;
	void **userdatap;
	Dwarf_Addr bias;
	Dwfl *dwfl;
	int fd;

	if (dl)
		return dl;

	dl = zalloc(sizeof(*dl));
	if (!dl)
		return NULL;
	dl->debug_fd = -1;

	dwfl = dwfl_begin(&offline_callbacks);
	if (!dwfl)
		goto out_free;

	/*
	 * The dso, at the addresses it was linked at (those of objdump and
	 * addr2line), with its own ELF file or, when it is a separate debug
	 * file with compressed DWARF, that file (it has the dso's program
	 * headers, the same layout). libdwfl takes it from
	 * libdw__find_srcline_elf().
	 */
	dso_name = dso__long_name(dso);
	dl->elf = dso__compressed_debug_elf(dso, &dl->debug_fd, &dl->image, &debug_path);
	if (dl->elf) {
		bool exec;

		if (elf__module_range(dl->elf, &vaddr, &end, &exec))
			dl->elf_path = debug_path;
		else
			free(debug_path);
	} else {
		dl->elf = dso__elf(dso_name, &vaddr, &end);
		if (dl->elf)
			dl->elf_path = strdup(dso_name);
	}
	if (dl->elf_path) {
		mod = dwfl_report_module(dwfl, dso_name, vaddr, end);
	} else {
		/*
		 * ET_REL files (kernel modules) and files libelf can't read as
		 * ELF (compressed whole): libdwfl lays them out and inflates
		 * them. If the report is successful, the file descriptor fd is
		 * consumed and closed by the Dwfl. If not, it is not closed.
		 */
		elf_end(dl->elf);
		dl->elf = NULL;
		zfree(&dl->image);
		if (dl->debug_fd >= 0) {
			close(dl->debug_fd);
			dl->debug_fd = -1;
		}
		fd = open(dso_name, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			goto out_end;
		mod = dwfl_report_offline(dwfl, dso_name, dso_name, fd);
		if (!mod)
			close(fd);
	}
	if (!mod)
		goto out_end;

	if (dwfl_report_end(dwfl, /*removed=*/NULL, /*arg=*/NULL) != 0)
		goto out_end;
	/*
	 * For libdw__find_srcline_elf() and libdw__find_debuginfo(); the dso
	 * outlives its Dwfl.
	 */
	dwfl_module_info(mod, &userdatap, NULL, NULL, NULL, NULL, NULL, NULL);
	*userdatap = dso;
	dl->dwfl = dwfl;
	dl->mod = mod;
	dso__set_libdw(dso, dl);

	/*
	 * Why libdw found no DWARF is found out once per dso, here. A
	 * decompression bomb: the dso has no source lines, and
	 * libdw__addr2line() stops the other addr2line styles.
	 */
	if (!dwfl_module_getdwarf(mod, &bias))
		dl->dwarf = libdw__no_dwarf(mod);
	if (dl->dwarf == DWARF_REFUSED)
		dso__set_has_srcline(dso, false);

	return dl;

out_end:
	dwfl_end(dwfl);
out_free:
	elf_end(dl->elf);
	free(dl->elf_path);
	if (dl->debug_fd >= 0)
		close(dl->debug_fd);
	free(dl->image);
	free(dl);
	return NULL;
}



/*
 * The dso's module in its srcline Dwfl, and addr, an address in the dso (as
 * objdump shows it), as an address in the Dwfl: the module's bias added
 * (dwfl_report_offline() places a module at an address of its own, 64 KiB
 * up). NULL when addr is not in the module.
 */
static Dwfl_Module *dso__libdw_module(struct dso *dso, u64 addr, u64 *dwfl_addr)
{
	struct dso_libdw *dl = dso__libdw_get(dso);
	Dwarf_Addr bias;

	if (!dl || !dwfl_module_getelf(dl->mod, &bias))
		return NULL;
	*dwfl_addr = addr + bias;
	return dwfl_addrmodule(dl->dwfl, *dwfl_addr) == dl->mod ? dl->mod : NULL;
}

/* The frame at the module's address pc in cfi, whose bias is bias. */
static Dwarf_Frame *libdw__cfi_frame(Dwarf_CFI *cfi, Dwarf_Addr bias, Dwarf_Addr pc)
{
	Dwarf_Frame *frame;

	if (!cfi) {
		pr_debug("%s(): no CFI - %s\n", __func__, dwfl_errmsg(-1));
		return NULL;
	}
	if (dwarf_cfi_addrframe(cfi, pc - bias, &frame)) {
		pr_debug("%s(): %s\n", __func__, dwarf_errmsg(-1));
		return NULL;
	}
	return frame;
}

Dwarf_Frame *dso__libdw_frame(struct dso *dso, u64 addr)
{
	Dwarf_Frame *frame = NULL;
	struct dso_libdw *dl;
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	u64 pc;

	/* The state srcline uses, see srcline__lock(). */
	mutex_lock(srcline__lock());
	dl = dso__libdw_get(dso);
	if (!dl)
		goto out;
	/*
	 * .eh_frame of the dso's own file, at the addresses it was linked at:
	 * the module's file may be a separate debug file, whose .eh_frame has
	 * no contents.
	 */
	if (!dl->eh_tried) {
		GElf_Addr vaddr, end;

		dl->eh_tried = true;
		dl->eh_elf = dso__elf(dso__long_name(dso), &vaddr, &end);
		dl->eh_cfi = dl->eh_elf ? dwarf_getcfi_elf(dl->eh_elf) : NULL;
	}
	if (dl->eh_cfi)
		frame = libdw__cfi_frame(dl->eh_cfi, /*bias=*/0, addr);
	if (frame)
		goto out;
	/* Else .debug_frame, which may be in the debug file. */
	mod = dso__libdw_module(dso, addr, &pc);
	if (!mod) {
		pr_debug("%s(): no module for %#" PRIx64 " in %s\n", __func__, addr,
			 dso__long_name(dso));
		goto out;
	}
	frame = libdw__cfi_frame(dwfl_module_dwarf_cfi(mod, &bias), bias, pc);
out:
	mutex_unlock(srcline__lock());
	return frame;
}

struct libdw_a2l_cb_args {
	struct dso *dso;
	struct dso_libdw *dl;
	struct symbol *sym;
	struct inline_node *node;
	char *leaf_srcline;
	bool leaf_srcline_used;
	int err;
};

static int libdw_a2l_cb(Dwarf_Die *die, void *_args)
{
	struct libdw_a2l_cb_args *args  = _args;
	const char *call_fname = dso_libdw__call_file(args->dl, die);
	int call_lineno = die_get_call_lineno(die);
	char *call_srcline = srcline__unknown;
	struct symbol *inline_sym;

	if (dwarf_tag(die) == DW_TAG_subprogram && args->sym) {
		/*
		 * cu_walk_functions_at() opens the walk with the
		 * containing DW_TAG_subprogram DIE (the non-inlined outer
		 * function). That's just the base symbol -- use it
		 * directly. Avoids a fragile name-vs-name compare in
		 * new_inline_sym() that misfires when GCC IPA passes
		 * (.isra/.constprop/.part/.cold) rename the ELF symbol
		 * while DWARF keeps the pre-clone linkage name, which
		 * left the outer frame spuriously tagged "(inlined)".
		 */
		inline_sym = args->sym;
	} else {
		/*
		 * Prefer DW_AT_linkage_name so C++ inline frames keep
		 * their namespace/class qualification. new_inline_sym()
		 * runs the name through dso__demangle_sym(), so the
		 * mangled linkage name is turned back into
		 * "Namespace::Class::method". Without a linkage name, as
		 * for a lambda's operator(), a C++ name is qualified from
		 * its scopes (struct cu_func_name); C code and extern "C"
		 * functions keep DW_AT_name.
		 */
		const char *funcname = die_get_linkage_name(die);

		if (!funcname)
			funcname = dso_libdw__qualified_name(args->dl, die) ?: die_name(die);

		inline_sym = new_inline_sym(args->dso, args->sym, funcname);
		if (!inline_sym)
			goto abort_enomem;
	}

	/* Assign caller information to the parent. */
	if (call_fname)
		call_srcline = srcline_from_fileline(call_fname, call_lineno >= 0 ? call_lineno : 0);

	if (!list_empty(&args->node->val)) {
		struct inline_list *parent;

		if (callchain_param.order == ORDER_CALLEE)
			parent = list_first_entry(&args->node->val, struct inline_list, list);
		else
			parent = list_last_entry(&args->node->val, struct inline_list, list);

		if (args->leaf_srcline == parent->srcline)
			args->leaf_srcline_used = false;
		else if (parent->srcline != srcline__unknown)
			free(parent->srcline);
		parent->srcline = call_srcline;
		call_srcline = NULL;
	}
	if (call_srcline && call_srcline != srcline__unknown)
		free(call_srcline);

	/* Add this symbol to the chain as the leaf. */
	if (!args->leaf_srcline_used) {
		if (inline_list__append_tail(inline_sym, args->leaf_srcline, args->node) != 0)
			goto abort_delete_sym;
		args->leaf_srcline_used = true;
	} else {
		char *srcline = strdup(args->leaf_srcline);

		if (!srcline)
			goto abort_delete_sym;
		if (inline_list__append_tail(inline_sym, srcline, args->node) != 0) {
			free(srcline);
			goto abort_delete_sym;
		}
	}
	return 0;

abort_delete_sym:
	if (symbol__inlined(inline_sym))
		symbol__delete(inline_sym);
abort_enomem:
	args->err = -ENOMEM;
	return DWARF_CB_ABORT;
}

int libdw__addr2line(u64 addr, char **file, unsigned int *line_nr,
		     struct dso *dso, bool unwind_inlines,
		     struct inline_node *node, struct symbol *sym)
{
	Dwarf_Die cu_mem, *cudie;
	struct dso_libdw *dl;
	Dwfl_Module *mod;
	Dwarf_Addr bias, unused_bias;
	const char *src = NULL;
	u64 dwfl_addr;
	Dwarf *dwarf;
	int lineno = 0;

	mod = dso__libdw_module(dso, addr, &dwfl_addr);
	dl = dso__libdw(dso);
	/* A decompression bomb (dso__libdw_get()): no style may read it. */
	if (dl && dl->dwarf == DWARF_REFUSED)
		return LIBDW_A2L_REFUSED;
	if (!mod)
		return 0;

	/*
	 * Get/ignore the dwarf information. Determine the bias, difference
	 * between the regular ELF addr2line addresses and those to use with
	 * libdw.
	 *
	 * No DWARF: when there is none to read anywhere, that is the answer
	 * (LIBDW_A2L_NO_LINE), other styles may read DWARF that libdw could
	 * not.
	 */
	dwarf = dwfl_module_getdwarf(mod, &bias);
	if (!dwarf)
		return dl->dwarf == DWARF_NONE ? LIBDW_A2L_NO_LINE : 0;

	/*
	 * Find source line information for the address: the line table of
	 * the CU libdw finds for it, as dwfl_module_getsrc() reads it.
	 */
	cudie = dwfl_module_addrdie(mod, addr + bias, &unused_bias);
	if (!cudie || !dso_libdw__cu_line(dl, cudie, addr, &src, &lineno)) {
		int ret;

		/*
		 * Where a CU covers the address and has no line for it, libdw
		 * may have failed to read its lines (a form it doesn't know, a
		 * split unit without its .dwo), or another style may know more
		 * (LLVM names the file of assembly without lines): the next
		 * style is asked. libdwfl gives an address between two ranges
		 * of .debug_aranges (a PLT entry) the CU of the range below
		 * it: that CU covers it only if its own ranges do.
		 */
		if (cudie && dwarf_haspc(cudie, addr) > 0)
			return 0;
		/*
		 * No CU covers the address (a PLT entry, code built without
		 * -g): that is the answer. libdw may find no CU where one is
		 * (a file without .debug_aranges): look in the CUs it left out.
		 */
		ret = dso_libdw__cu_at(dl, dwarf, addr, &cu_mem);
		if (ret == 0)
			return LIBDW_A2L_NO_LINE;
		if (ret < 0 || !dso_libdw__cu_line(dl, &cu_mem, addr, &src, &lineno))
			return 0;
		cudie = &cu_mem;
	}

	if (file)
		*file = src ? strdup(src) : NULL;
	if (line_nr)
		*line_nr = lineno;

	/* Optionally unwind inline function call chain. */
	if (unwind_inlines && node) {
		struct libdw_a2l_cb_args args = {
			.dso = dso,
			.dl = dl,
			.sym = sym,
			.node = node,
			.leaf_srcline = srcline_from_fileline(src ?: "<unknown>", lineno),
		};

		if (!args.leaf_srcline) {
			if (file && *file) {
				free(*file);
				*file = NULL;
			}
			return 0;
		}

		/* Walk from the parent down to the leaf. */
		libdw__walk_functions_at(args.dl, cudie, addr, libdw_a2l_cb, &args);

		if (!args.leaf_srcline_used)
			free(args.leaf_srcline);

		if (args.err) {
			if (file && *file) {
				free(*file);
				*file = NULL;
			}
			inline_node__clear_frames(node);
			return 0;
		}
	}
	return 1;
}
