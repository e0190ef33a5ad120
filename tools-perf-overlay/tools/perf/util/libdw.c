// SPDX-License-Identifier: GPL-2.0
#include "dso.h"
#include "libdw.h"
#include "srcline.h"
#include "symbol.h"
#include "dwarf-aux.h"
#include "callchain.h"
#include "strbuf.h"
#include "build-id.h"
#include "debug.h"
#include "path.h"
#include "hashmap.h"
#include <fcntl.h>
#include <unistd.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/zalloc.h>
#include <stdlib.h>
#include <elfutils/libdwfl.h>
#include <elfutils/libdwelf.h>
#include <elfutils/version.h>


/*
 * The ELF file of a dso, opened once per run and shared by the libdw users
 * of the dso: the Dwfl of every address space that maps it (the unwinder
 * gives it to libdwfl from its find_elf callback). libelf counts the
 * references: elf_begin() with a reference Elf returns it with one more,
 * elf_end() drops one.
 *
 * Key: the dso. Bound: one per dso asked for, and for the unwinder a second
 * one, opened with it, of a file whose .eh_frame_hdr old libdw would not use
 * (eh_frame_hdr_is_unseen()). Lifetime: the dso's, each Dwfl holds its own
 * reference. A file that can't be opened is remembered
 * (elf == NULL) and not tried again. The file is mmapped and detached from
 * its descriptor (ELF_C_FDREAD), no descriptor stays open per dso.
 * Thread safety: the dso's lock guards the opening; libelf's reference
 * count is that of libelf, perf unwinds in one thread.
 */
struct dso_libdw_elf {
	Elf	*elf;		/* NULL: no usable ELF file */
	Elf	*cfi_elf;	/* the unwinder's, see libdw__make_unwind_cfi(), or NULL */
	char	*path;
};

static Elf *libdw_elf__open(const char *path, Elf_Cmd cmd)
{
	int fd = open(path, O_RDONLY);
	Elf *elf;

	if (fd < 0)
		return NULL;

	elf = elf_begin(fd, cmd, /*ref=*/NULL);
	if (elf && (elf_kind(elf) != ELF_K_ELF || elf_cntl(elf, ELF_C_FDREAD))) {
		elf_end(elf);
		elf = NULL;
	}
	close(fd);
	return elf;
}

/*
 * libdw before elfutils 0.196 (0.188 and 0.192 at least) takes the binary
 * search table of .eh_frame_hdr only when that section comes before
 * .eh_frame in the section headers. gold (Debian's LLVM libraries) and BOLT
 * put it after: for each address it has no FDE for, libdw then reads
 * .eh_frame from the start and keeps every FDE it passes, 7 MB for
 * libLLVM-14 after one lookup, in every address space. Without section names
 * libdw takes .eh_frame and the table from the PT_GNU_EH_FRAME program
 * header instead.
 */
static bool eh_frame_hdr_is_unseen(Elf *elf __maybe_unused)
{
#if _ELFUTILS_PREREQ(0, 196)
	return false;
#else
	size_t frame, hdr, phnum;
	GElf_Ehdr ehdr;
	GElf_Shdr shdr;

	if (!gelf_getehdr(elf, &ehdr) ||
	    !elf_section_by_name(elf, &ehdr, &shdr, ".eh_frame", &frame) ||
	    !elf_section_by_name(elf, &ehdr, &shdr, ".eh_frame_hdr", &hdr) ||
	    hdr < frame || elf_getphdrnum(elf, &phnum))
		return false;

	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr phdr;

		if (gelf_getphdr(elf, i, &phdr) && phdr.p_type == PT_GNU_EH_FRAME)
			return true;
	}
	return false;
#endif
}

static struct dso_libdw_elf *dso_libdw_elf__new(struct dso *dso)
{
	struct dso_libdw_elf *de = zalloc(sizeof(*de));
	char path[PATH_MAX];

	if (!de)
		return NULL;

	/* As the unwinder always did: the file under --symfs, or the build-id cache's. */
	__symbol__join_symfs(path, sizeof(path), dso__long_name(dso));
	if (is_regular_file(path))
		de->elf = libdw_elf__open(path, ELF_C_READ_MMAP);
	if (!de->elf && dso__build_id_filename(dso, path, sizeof(path), false))
		de->elf = libdw_elf__open(path, ELF_C_READ_MMAP);
	if (de->elf) {
		de->path = strdup(path);
		if (!de->path) {
			elf_end(de->elf);
			de->elf = NULL;
		}
	}
	if (de->elf)
		pr_debug("libdw: opened %s\n", de->path);
	else
		pr_debug("libdw: no ELF file for %s\n", dso__long_name(dso));
	if (de->elf && eh_frame_hdr_is_unseen(de->elf)) {
		/* Writable copy-on-write pages: its ELF header changes. */
		de->cfi_elf = libdw_elf__open(de->path, ELF_C_READ_MMAP_PRIVATE);
		pr_debug("libdw: %s: .eh_frame_hdr after .eh_frame, the unwinder takes it from the program header\n",
			 de->path);
	}
	return de;
}

static Elf *__dso__libdw_elf(struct dso *dso, const char **path, bool unwind)
{
	struct dso_libdw_elf *de;
	Elf *elf = NULL;

	mutex_lock(dso__lock(dso));
	de = dso__libdw_elf_ptr(dso);
	if (!de) {
		de = dso_libdw_elf__new(dso);
		dso__set_libdw_elf_ptr(dso, de);
	}
	if (de && de->elf) {
		elf = elf_begin(-1, ELF_C_READ_MMAP,
				unwind && de->cfi_elf ? de->cfi_elf : de->elf);
		if (path)
			*path = de->path;
	}
	mutex_unlock(dso__lock(dso));
	return elf;
}

Elf *dso__libdw_elf(struct dso *dso, const char **path)
{
	return __dso__libdw_elf(dso, path, /*unwind=*/false);
}

static int __libdw__find_elf(void **userdata, char **file_name, Elf **elfp, bool unwind)
{
	struct dso *dso = *userdata;
	const char *path;

	*elfp = dso ? __dso__libdw_elf(dso, &path, unwind) : NULL;
	if (*elfp && !*file_name)
		*file_name = strdup(path);
	return -1;
}

int libdw__find_elf(struct Dwfl_Module *mod __maybe_unused, void **userdata,
		    const char *modname __maybe_unused, Dwarf_Addr base __maybe_unused,
		    char **file_name, Elf **elfp)
{
	return __libdw__find_elf(userdata, file_name, elfp, /*unwind=*/false);
}

int libdw__find_unwind_elf(struct Dwfl_Module *mod __maybe_unused, void **userdata,
			   const char *modname __maybe_unused, Dwarf_Addr base __maybe_unused,
			   char **file_name, Elf **elfp)
{
	return __libdw__find_elf(userdata, file_name, elfp, /*unwind=*/true);
}

/*
 * Make the CFI of a module whose dso has a cfi_elf (eh_frame_hdr_is_unseen())
 * while that ELF shows no section names, so that libdw searches .eh_frame
 * with its table. The names come back at once: when .eh_frame has no FDE for
 * an address, libdwfl looks for .debug_frame by name. The unwinder alone uses
 * the cfi_elf, in one thread.
 */
void libdw__make_unwind_cfi(struct Dwfl_Module *mod, struct dso *dso)
{
	struct dso_libdw_elf *de = dso__libdw_elf_ptr(dso);
	Elf64_Half shstrndx;
	Dwarf_Addr bias;
	GElf_Ehdr ehdr;
	Elf *elf;

	if (!de || !de->cfi_elf)
		return;
	/* libdwfl asks libdw__find_unwind_elf() for the module's ELF: the cfi_elf. */
	elf = dwfl_module_getelf(mod, &bias);
	if (elf != de->cfi_elf || !gelf_getehdr(elf, &ehdr))
		return;

	shstrndx = ehdr.e_shstrndx;
	ehdr.e_shstrndx = SHN_UNDEF;
	if (!gelf_update_ehdr(elf, &ehdr))
		return;
	dwfl_module_eh_cfi(mod, &bias);
	ehdr.e_shstrndx = shstrndx;
	gelf_update_ehdr(elf, &ehdr);
}

static bool debuginfod__configured(void)
{
	const char *urls = getenv("DEBUGINFOD_URLS");

	return urls && *urls;
}

/*
 * The debug info of a dso for srcline: where libdwfl looks for it (the
 * debuglink and build-id paths, debuginfod), else the file perf read the
 * dso's symbols from when that is another file (a debug file perf found,
 * e.g. in its build-id cache): the file LLVM, libbfd and addr2line are
 * given. So when libdw finds no DWARF, none of them has any to read.
 *
 * libdwfl's standard search ends with the debuginfod client: the first
 * time a debug file is not on disk it dlopens libdebuginfod, and with it
 * libcurl, gnutls and krb5, also when no server is configured, where the
 * client then returns ENOSYS having asked nobody: 3 ms, 343 syscalls and
 * 8 MiB for nothing. Without DEBUGINFOD_URLS, once perf has searched for
 * the dso's symbols, look by build-id only, then take the file with a
 * symbol table perf found (through .gnu_debuglink, its build-id cache,
 * the distributions' paths) if any. A dwz alternate file (asked for with
 * a zero CRC) is still searched for the standard way.
 */
static int libdw__find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
				 Dwarf_Addr base, const char *file_name,
				 const char *debuglink_file, GElf_Word debuglink_crc,
				 char **debuginfo_file_name)
{
	const struct dso *dso = *userdata;
	const char *symsrc = dso ? dso__symsrc_filename(dso) : NULL;
	int fd;

	if (debuginfod__configured() || !dso || !dso__loaded(dso) ||
	    (debuglink_file && !debuglink_crc))
		fd = dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
						  debuglink_file, debuglink_crc,
						  debuginfo_file_name);
	else
		fd = dwfl_build_id_find_debuginfo(mod, userdata, modname, base, file_name,
						  debuglink_file, debuglink_crc,
						  debuginfo_file_name);

	if (fd >= 0 || !symsrc || (file_name && !strcmp(file_name, symsrc)))
		return fd;

	fd = open(symsrc, O_RDONLY);
	if (fd >= 0) {
		free(*debuginfo_file_name);
		*debuginfo_file_name = strdup(symsrc);
	}
	return fd;
}

Dwfl_Module *libdw__report_dso(Dwfl *dwfl, struct dso *dso, Dwarf_Addr base,
			       bool link_addresses)
{
	Elf *elf = dso__libdw_elf(dso, /*path=*/NULL);
	GElf_Addr vaddr = 0, end = 0, start, bias;
	Dwfl_Module *mod = NULL;
	bool first = true;
	GElf_Ehdr ehdr;
	size_t phnum;

	if (!elf)
		return NULL;

	if (!gelf_getehdr(elf, &ehdr) || ehdr.e_type == ET_REL ||
	    elf_getphdrnum(elf, &phnum))
		goto out;

	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr phdr;

		if (!gelf_getphdr(elf, i, &phdr))
			goto out;
		if (phdr.p_type != PT_LOAD)
			continue;
		if (first)
			vaddr = phdr.p_vaddr & -phdr.p_align;
		first = false;
		if (phdr.p_vaddr + phdr.p_memsz > 0)
			end = phdr.p_vaddr + phdr.p_memsz;
	}
	if (!end)
		goto out;

	/* The addresses of ET_EXEC and ET_CORE files are absolute. */
	if (link_addresses || ehdr.e_type == ET_EXEC || ehdr.e_type == ET_CORE) {
		start = vaddr;
		bias = 0;
	} else {
		start = base;
		bias = base - vaddr;
	}
	mod = dwfl_report_module(dwfl, dso__short_name(dso), start, bias + end);
	if (mod) {
		void **userdatap;

		dwfl_module_info(mod, &userdatap, NULL, NULL, NULL, NULL, NULL, NULL);
		*userdatap = dso;
	}
out:
	elf_end(elf);
	return mod;
}

/*
 * The srcline state of a dso (dso->libdw): the Dwfl that has the dso as its
 * only module, and the index of the subprograms of each CU an address was
 * looked up in.
 */
struct dso_libdw {
	Dwfl		*dwfl;
	struct hashmap	*cu_funcs;	/* Dwarf_CU * -> struct cu_funcs * */
	enum {
		DWARF_UNCHECKED,
		DWARF_UNREADABLE,	/* DWARF libdw failed to read: others may */
		DWARF_NONE,		/* none in the dso or its debug files */
		DWARF_REFUSED,		/* a decompression bomb: don't let them try */
	} no_dwarf;			/* why dwfl_module_getdwarf() failed */
	int		debug_fd;	/* libdw__find_srcline_elf()'s file, or -1 */
};

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
 * wins, as in die_find_realfunc(). Bound: the subprogram ranges of the CUs
 * looked up, 40 bytes each, built on the first lookup in a CU. Lifetime:
 * the dso's Dwfl (dso__free_libdw()). Thread safety: that of the dso's
 * Dwfl, used by one srcline lookup at a time.
 */
struct cu_func_range {
	Dwarf_Addr	start, end;	/* [start, end) */
	Dwarf_Addr	max_end;	/* the largest end of this and the ranges before */
	Dwarf_Off	die_off;	/* the subprogram's DIE */
	unsigned int	seq;		/* the subprogram's dwarf_getfuncs() order */
};

struct cu_funcs {
	size_t			nr, alloc;
	unsigned int		seq;
	bool			enomem;
	struct cu_func_range	*ranges;
};

static size_t cu_funcs__hash(long key, void *ctx __maybe_unused)
{
	return key >> 4;
}

static bool cu_funcs__equal(long key1, long key2, void *ctx __maybe_unused)
{
	return key1 == key2;
}

static int cu_funcs__add(Dwarf_Die *fn_die, void *arg)
{
	struct cu_funcs *cf = arg;
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;

	if (dwarf_tag(fn_die) != DW_TAG_subprogram)
		return DWARF_CB_OK;

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

static void cu_funcs__delete(struct cu_funcs *cf)
{
	if (cf) {
		free(cf->ranges);
		free(cf);
	}
}

/*
 * The defining subprograms of a CU, in dwarf_getfuncs() order. They are
 * children of the CU, of namespaces, of classes (member functions) and,
 * in C++, of classes local to a function: a lambda's operator() is a child
 * of its closure class in the body of the function (or of a lexical block
 * in it) that defines the lambda. So descend into those and into
 * subprograms and lexical blocks, but not into the inlined subroutines,
 * variables and call sites that make most of an optimized CU, which
 * dwarf_getfuncs() walks through too for a C++ CU: the same subprograms,
 * 40% faster (checked on every CU of 301 Debian debug files).
 */
static int cu_funcs__walk(Dwarf_Die *parent, struct cu_funcs *cf, int depth)
{
	Dwarf_Attribute attr;
	Dwarf_Die die, unit;

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
			    cu_funcs__walk(&unit, cf, depth + 1) != DWARF_CB_OK)
				return DWARF_CB_ABORT;
			break;
		case DW_TAG_subprogram:
			if (!dwarf_hasattr(&die, DW_AT_declaration) &&
			    cu_funcs__add(&die, cf) != DWARF_CB_OK)
				return DWARF_CB_ABORT;
			/* and the classes local to the function */
			fallthrough;
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
		case DW_TAG_interface_type:
		case DW_TAG_lexical_block:
			if (cu_funcs__walk(&die, cf, depth + 1) != DWARF_CB_OK)
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
	Dwarf_Addr max_end = 0;

	if (!cf)
		return NULL;

	cu_funcs__walk(cu_die, cf, /*depth=*/0);
	if (cf->enomem) {
		cu_funcs__delete(cf);
		return NULL;
	}
	if (cf->nr)
		qsort(cf->ranges, cf->nr, sizeof(*cf->ranges), cu_func_range__cmp);
	for (size_t i = 0; i < cf->nr; i++) {
		if (cf->ranges[i].end > max_end)
			max_end = cf->ranges[i].end;
		cf->ranges[i].max_end = max_end;
	}
	return cf;
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
 * cu_walk_functions_at() with the CU's index: the subprogram at addr and
 * the inlined subroutines in it, from the outermost.
 */
static int libdw__walk_functions_at(struct dso_libdw *dl, Dwarf_Die *cu_die, Dwarf_Addr addr,
				    int (*callback)(Dwarf_Die *, void *), void *data)
{
	const struct cu_func_range *range;
	struct cu_funcs *cf = NULL;
	Dwarf_Die sp_die;

	if (!dl->cu_funcs) {
		dl->cu_funcs = hashmap__new(cu_funcs__hash, cu_funcs__equal, NULL);
		if (IS_ERR(dl->cu_funcs))
			dl->cu_funcs = NULL;
	}
	if (!dl->cu_funcs)
		return cu_walk_functions_at(cu_die, addr, callback, data);

	if (!hashmap__find(dl->cu_funcs, cu_die->cu, &cf)) {
		cf = cu_funcs__new(cu_die);
		if (!cf || hashmap__add(dl->cu_funcs, cu_die->cu, cf)) {
			cu_funcs__delete(cf);
			return cu_walk_functions_at(cu_die, addr, callback, data);
		}
	}

	range = cu_funcs__find(cf, addr);
	if (!range || !dwarf_offdie(dwarf_cu_getdwarf(cu_die->cu), range->die_off, &sp_die))
		return -ENOENT;
	return die_walk_functions_at(&sp_die, addr, callback, data);
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
		    chdr.ch_size / 1032 > shdr.sh_size)
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
 * Why the module has no DWARF: none anywhere, DWARF libdw could not read,
 * or a file libelf refused to inflate.
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
		int fd = open(debugfile, O_RDONLY);

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
	}
	if (bomb)
		return DWARF_REFUSED;
	return dwarf ? DWARF_UNREADABLE : DWARF_NONE;
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
		dwfl_end(dl->dwfl);
		if (dl->debug_fd >= 0)
			close(dl->debug_fd);
		free(dl);
		dso__set_libdw(dso, NULL);
	}
	if (de) {
		elf_end(de->elf);
		elf_end(de->cfi_elf);
		free(de->path);
		free(de);
		dso__set_libdw_elf_ptr(dso, NULL);
	}
}

/*
 * srcline's Dwfl never evaluates a location: libdw need not inflate the
 * location lists of a debug file perf reads (a fifth of the inflated DWARF
 * of libceph-common). libdw skips SHT_NOBITS sections; the section header
 * changes in libelf's copy only, the file is read-only.
 */
static void elf__hide_loclists(Elf *elf, GElf_Ehdr *ehdr)
{
	static const char * const names[] = { ".debug_loc", ".debug_loclists" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		GElf_Shdr shdr;
		Elf_Scn *scn = elf_section_by_name(elf, ehdr, &shdr, names[i], /*idx=*/NULL);

		if (scn) {
			shdr.sh_type = SHT_NOBITS;
			gelf_update_shdr(scn, &shdr);
		}
	}
}

/*
 * The separate debug file perf read the dso's symbols from, when its DWARF
 * is compressed, opened to be read rather than mapped. libdw inflates every
 * .debug_* section of a file when it opens it; libelf then frees each
 * compressed section it read, while the pages of a mapped file stay in
 * memory (88 of the 353 MiB libdw takes for libceph-common's debug file).
 * The file must have the dso's build-id and be another file than the dso.
 */
static Elf *dso__compressed_debug_elf(struct dso *dso, int *fdp)
{
	const char *path = dso__symsrc_filename(dso);
	const struct build_id *bid = dso__bid(dso);
	const void *id;
	GElf_Ehdr ehdr;
	GElf_Shdr shdr;
	Elf_Scn *scn;
	Elf *elf;
	int fd;

	if (!path || !build_id__is_defined(bid) || !strcmp(path, dso__long_name(dso)))
		return NULL;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	elf = elf_begin(fd, ELF_C_READ, /*ref=*/NULL);
	if (elf && gelf_getehdr(elf, &ehdr) &&
	    dwelf_elf_gnu_build_id(elf, &id) == (ssize_t)bid->size &&
	    !memcmp(id, bid->data, bid->size)) {
		scn = elf_section_by_name(elf, &ehdr, &shdr, ".debug_info", /*idx=*/NULL);
		if (scn && (shdr.sh_flags & SHF_COMPRESSED)) {
			pr_debug("libdw: srcline reads %s (compressed DWARF)\n", path);
			elf__hide_loclists(elf, &ehdr);
			*fdp = fd;
			return elf;
		}
	}
	elf_end(elf);
	close(fd);
	return NULL;
}

/*
 * The module's ELF file for srcline: the debug file of
 * dso__compressed_debug_elf() (it has the dso's program headers, so the
 * same layout), else the dso's ELF file shared with the unwinder. libdwfl
 * owns the Elf it is given, the dso's srcline state keeps the descriptor.
 */
static int libdw__find_srcline_elf(Dwfl_Module *mod, void **userdata, const char *modname,
				   Dwarf_Addr base, char **file_name, Elf **elfp)
{
	struct dso *dso = *userdata;
	struct dso_libdw *dl = dso ? dso__libdw(dso) : NULL;
	Elf *elf = dl && dl->debug_fd < 0 ? dso__compressed_debug_elf(dso, &dl->debug_fd) : NULL;

	if (elf) {
		*elfp = elf;
		if (!*file_name)
			*file_name = strdup(dso__symsrc_filename(dso));
		return -1;
	}
	return libdw__find_elf(mod, userdata, modname, base, file_name, elfp);
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = libdw__find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.find_elf = libdw__find_srcline_elf,
};

static struct dso_libdw *dso__libdw_get(struct dso *dso)
{
	struct dso_libdw *dl = dso__libdw(dso);
	const char *dso_name;
	Dwfl_Module *mod;
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
	if (!dwfl) {
		free(dl);
		return NULL;
	}

	/*
	 * The dso's ELF file, shared with the unwinder (or its compressed
	 * debug file), at the addresses it was linked at: those of objdump
	 * and addr2line.
	 */
	mod = libdw__report_dso(dwfl, dso, /*base=*/0, /*link_addresses=*/true);
	if (!mod) {
		/*
		 * ET_REL files (kernel modules) and compressed ones: libdwfl
		 * lays them out and decompresses them. If the report is
		 * successful, the file descriptor fd is consumed and closed
		 * by the Dwfl. If not, it is not closed.
		 */
		dso_name = dso__long_name(dso);
		fd = open(dso_name, O_RDONLY);
		if (fd < 0)
			goto out_err;
		mod = dwfl_report_offline(dwfl, dso_name, dso_name, fd);
		if (!mod) {
			close(fd);
			goto out_err;
		}
	}

	if (dwfl_report_end(dwfl, /*removed=*/NULL, /*arg=*/NULL) != 0)
		goto out_err;

	dl->dwfl = dwfl;
	dso__set_libdw(dso, dl);

	/*
	 * libdw reads the DWARF now (the first lookup would). From a debug
	 * file libelf reads (libdw__find_srcline_elf()), it then reads no
	 * more: its descriptor is closed.
	 */
	if (dwfl_module_getdwarf(mod, &bias) && dl->debug_fd >= 0 &&
	    !elf_cntl(dwfl_module_getelf(mod, &bias), ELF_C_FDDONE)) {
		close(dl->debug_fd);
		dl->debug_fd = -1;
	}
	return dl;

out_err:
	dwfl_end(dwfl);
	free(dl);
	return NULL;
}

struct Dwfl *dso__libdw_dwfl(struct dso *dso)
{
	struct dso_libdw *dl = dso__libdw_get(dso);

	return dl ? dl->dwfl : NULL;
}

/*
 * The qualified name of a C++ function without a linkage name, such as the
 * operator() of a lambda: "main::{lambda}::operator()" rather than
 * "operator()". It is made of the names of the scopes (namespaces, classes,
 * functions) of the function's declaration.
 */
static char *die_get_qualified_name(Dwarf_Die *die)
{
	Dwarf_Die origin, cu, *decl = die, *scopes = NULL;
	Dwarf_Attribute attr;
	struct strbuf sb;
	int lang, nscopes;
	char *name = NULL;

	if (!dwarf_diecu(die, &cu, NULL, NULL))
		return NULL;
	lang = dwarf_srclang(&cu);
	if (lang != DW_LANG_C_plus_plus && lang != DW_LANG_C_plus_plus_03 &&
	    lang != DW_LANG_C_plus_plus_11 && lang != DW_LANG_C_plus_plus_14)
		return NULL;

	/* From the inlined or out-of-line instance to the declaration. */
	for (int i = 0; i < 8; i++) {
		if (!dwarf_attr(decl, DW_AT_abstract_origin, &attr) &&
		    !dwarf_attr(decl, DW_AT_specification, &attr))
			break;
		if (!dwarf_formref_die(&attr, &origin))
			return NULL;
		decl = &origin;
	}

	nscopes = dwarf_getscopes_die(decl, &scopes);
	if (nscopes <= 0 || !dwarf_diename(decl))
		goto out;

	strbuf_init(&sb, 64);
	/* scopes[0] is the declaration, the last one the CU. */
	for (int i = nscopes - 2; i > 0; i--) {
		const char *scope = dwarf_diename(&scopes[i]);

		switch (dwarf_tag(&scopes[i])) {
		case DW_TAG_namespace:
			scope = scope ?: "(anonymous namespace)";
			break;
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			/* GCC gives the closure type of a lambda no name. */
			if (!scope)
				scope = i == 1 && !strcmp(dwarf_diename(decl), "operator()") ?
					"{lambda}" : "(anonymous)";
			break;
		case DW_TAG_subprogram:
			break;
		default:
			continue;
		}
		if (scope && (strbuf_addstr(&sb, scope) || strbuf_addstr(&sb, "::")))
			goto out_release;
	}
	if (!strbuf_addstr(&sb, dwarf_diename(decl)))
		name = strbuf_detach(&sb, NULL);
out_release:
	strbuf_release(&sb);
out:
	free(scopes);
	return name;
}

struct libdw_a2l_cb_args {
	struct dso *dso;
	struct symbol *sym;
	struct inline_node *node;
	char *leaf_srcline;
	bool leaf_srcline_used;
	int err;
};

static int libdw_a2l_cb(Dwarf_Die *die, void *_args)
{
	struct libdw_a2l_cb_args *args  = _args;
	const char *call_fname = die_get_call_file(die);
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
		 * for a lambda's operator(), qualify the C++ name from its
		 * scopes, and fall back to DW_AT_name for C code.
		 */
		const char *funcname = die_get_linkage_name(die);
		char *qualified = NULL;

		if (!funcname) {
			qualified = die_get_qualified_name(die);
			funcname = qualified ?: die_name(die);
		}
		inline_sym = new_inline_sym(args->dso, args->sym, funcname);
		free(qualified);
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

static int first_module(Dwfl_Module *mod, void **userdata __maybe_unused,
			const char *name __maybe_unused, Dwarf_Addr start __maybe_unused,
			void *arg)
{
	*(Dwfl_Module **)arg = mod;
	return DWARF_CB_ABORT;
}

int libdw__addr2line(u64 addr, char **file, unsigned int *line_nr,
		     struct dso *dso, bool unwind_inlines,
		     struct inline_node *node, struct symbol *sym)
{
	struct dso_libdw *dl = dso__libdw_get(dso);
	Dwfl *dwfl = dl ? dl->dwfl : NULL;
	Dwfl_Module *mod;
	Dwfl_Line *dwline;
	Dwarf_Addr bias;
	const char *src;
	int lineno = 0;

	if (!dwfl)
		return 0;

	/*
	 * The DSO is the only module of its Dwfl. libdwfl placed it at an
	 * address of its own (64 KiB up), so addr, an address in the DSO, is
	 * only found in the module once the module's bias is added.
	 */
	mod = NULL;
	dwfl_getmodules(dwfl, first_module, &mod, /*offset=*/0);
	if (!mod)
		return 0;

	/*
	 * Get/ignore the dwarf information. Determine the bias, difference
	 * between the regular ELF addr2line addresses and those to use with
	 * libdw.
	 */
	if (!dwfl_module_getdwarf(mod, &bias)) {
		/*
		 * No DWARF: when there is none to read anywhere, or only a
		 * decompression bomb, that is the answer (the dso's a2l_fails
		 * count ends the lookups); other styles may read DWARF that
		 * libdw could not.
		 */
		if (dl->no_dwarf == DWARF_UNCHECKED)
			dl->no_dwarf = libdw__no_dwarf(mod);
		return dl->no_dwarf == DWARF_UNREADABLE ? 0 : -1;
	}
	if (dwfl_addrmodule(dwfl, addr + bias) != mod)
		return -1;

	/* Find source line information for the address. */
	dwline = dwfl_module_getsrc(mod, addr + bias);
	if (!dwline)
		return -1;

	/* Get line information. */
	src = dwfl_lineinfo(dwline, /*addr=*/NULL, &lineno, /*col=*/NULL, /*mtime=*/NULL,
			    /*length=*/NULL);

	if (file)
		*file = src ? strdup(src) : NULL;
	if (line_nr)
		*line_nr = lineno;

	/* Optionally unwind inline function call chain. */
	if (unwind_inlines && node) {
		Dwarf_Addr unused_bias;
		Dwarf_Die *cudie = dwfl_module_addrdie(mod, addr + bias, &unused_bias);
		struct libdw_a2l_cb_args args = {
			.dso = dso,
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
		if (cudie)
			libdw__walk_functions_at(dl, cudie, addr, libdw_a2l_cb, &args);

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
