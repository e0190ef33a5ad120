// SPDX-License-Identifier: GPL-2.0
#include "build-id.h"
#include "debug.h"
#include "dso.h"
#include "libdw.h"
#include "srcline.h"
#include "symbol.h"
#include "dwarf-aux.h"
#include "callchain.h"
#include "mutex.h"
#include "path.h"
#include "hashmap.h"
#include "strbuf.h"
#include "header.h"
#include <internal/lib.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <linux/build_bug.h>
#include <linux/err.h>
#include <linux/hash.h>
#include <linux/string.h>
#include <linux/zalloc.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <elfutils/version.h>

/*
 * The debug info of a dso for srcline: where libdwfl looks for it (the
 * debuglink and build-id paths, debuginfod), else the file perf read the
 * dso's symbols from when that is another file with the dso's build-id (a
 * debug file perf found, e.g. in its build-id cache): the file LLVM, libbfd
 * and addr2line are given. So when libdw finds no DWARF, none of them has
 * any to read. Only for the module's own file: libdwfl asks this callback
 * for a dwz alternate file too (.gnu_debugaltlink, its name as the debuglink
 * and no CRC), which has other contents. The build-id cache's uncompressed
 * copy of the debug file comes first (dso_libdw__uncompressed()).
 */
static const char *dso__libdw_uncompressed_debug(struct dso *dso);
static int libdw__debuginfo_checked(struct dso *dso, int fd, char **debuginfo_file_name);

static int libdw__find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
				 Dwarf_Addr base, const char *file_name,
				 const char *debuglink_file, GElf_Word debuglink_crc,
				 char **debuginfo_file_name)
{
	struct dso *dso = *userdata;
	const char *uncompressed = dso ? dso__libdw_uncompressed_debug(dso) : NULL;
	const char *symsrc = dso ? dso__symsrc_filename(dso) : NULL;
	int fd;

	/* The module's debug file, uncompressed in the build-id cache. */
	if (uncompressed && !(debuglink_file && !debuglink_crc)) {
		fd = open(uncompressed, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			*debuginfo_file_name = strdup(uncompressed);
			return fd;
		}
	}
	fd = dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
					  debuglink_file, debuglink_crc, debuginfo_file_name);

	/* The dwz alternate file is asked for by its name, without a CRC. */
	if (fd >= 0 || !symsrc || !file_name || !strcmp(file_name, symsrc) ||
	    (debuglink_file && !debuglink_crc))
		return libdw__debuginfo_checked(dso, fd, debuginfo_file_name);
	if (!dso__is_recorded_build(dso, symsrc, /*no_build_id_ok=*/false)) {
		pr_debug("libdw: %s, where the symbols of %s came from, is another build: not read\n",
			 symsrc, dso__long_name(dso));
		return fd;
	}

	fd = open(symsrc, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		free(*debuginfo_file_name);
		*debuginfo_file_name = strdup(symsrc);
	}
	return libdw__debuginfo_checked(dso, fd, debuginfo_file_name);
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = libdw__find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.find_elf = dwfl_build_id_find_elf,
};

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
 * the Elf's contents, through libdwfl.
 */
struct dso_libdw_elf {
	Elf	*elf;		/* NULL: no usable ELF file */
	char	*path;
	/* The module's address range, at link addresses: [vaddr, end). */
	GElf_Addr vaddr, end;
	bool	exec;		/* ET_EXEC: at absolute addresses */
	/*
	 * The debug file libdwfl may have for the module (__find_debuginfo()),
	 * see dso_libdw_elf__debuginfo(); NULL: none.
	 */
	char	*debuginfo;
#if _ELFUTILS_PREREQ(0, 197)
	/*
	 * The file's .eh_frame CFI, made from elf once (dwarf_getcfi_elf()) and
	 * given to the module of every address space (dwfl_module_set_eh_cfi()),
	 * so that the CIEs and FDEs libdw reads, and the frames it remembers,
	 * are read once per run, not once per process. Owned here: ended in
	 * dso__free_libdw(), after every Dwfl using it (see above), before elf.
	 * NULL: not made yet or the file has no .eh_frame (eh_cfi_tried).
	 */
	struct Dwarf_CFI_s *eh_cfi;
	bool	eh_cfi_tried;
#endif
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
static bool libdw_elf__range(Elf *elf, struct dso_libdw_elf *de)
{
	bool first = true;
	GElf_Ehdr ehdr;
	size_t phnum;

	if (!gelf_getehdr(elf, &ehdr) || (ehdr.e_type != ET_DYN && ehdr.e_type != ET_EXEC) ||
	    elf_getphdrnum(elf, &phnum))
		return false;

	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr phdr;

		if (!gelf_getphdr(elf, i, &phdr))
			return false;
		if (phdr.p_type != PT_LOAD)
			continue;
		if (first)
			de->vaddr = phdr.p_vaddr & -phdr.p_align;
		first = false;
		if (phdr.p_vaddr + phdr.p_memsz > 0)
			de->end = phdr.p_vaddr + phdr.p_memsz;
	}
	de->exec = ehdr.e_type == ET_EXEC;
	return de->end > de->vaddr;
}

/*
 * The file perf reads a dso's ELF, CFI and DWARF from, its name in path: the
 * dso's file (under --symfs, else as named) when its build-id is the one
 * recorded for the dso or none was recorded, else the build-id cache's copy
 * of the recorded file; false when neither is there. The file at the dso's
 * path may be another build by now (rebuilt, or its package upgraded, after
 * the recording): its CFI and DWARF describe other code. Symbol loading
 * rejects such a file too.
 */
static bool dso__libdw_path(struct dso *dso, char *path, size_t size)
{
	const char *name = dso__long_name(dso);

	__symbol__join_symfs(path, size, name);
	if (dso__is_recorded_build(dso, path, /*no_build_id_ok=*/false))
		return true;
	/* A vmlinux given by its absolute path is not under --symfs. */
	if (strcmp(path, name) && dso__is_recorded_build(dso, name, /*no_build_id_ok=*/false)) {
		strlcpy(path, name, size);
		return true;
	}
	if (dso__build_id_filename(dso, path, size, /*is_debug=*/false) &&
	    dso__is_recorded_build(dso, path, /*no_build_id_ok=*/false)) {
		pr_debug("libdw: %s is not the recorded build, reading %s\n", name, path);
		return true;
	}
	pr_debug("libdw: no file with the recorded build-id of %s\n", name);
	return false;
}

/*
 * Whether elf, the file at path as it was opened, has the dso's build-id
 * (read as symbol loading reads it): dso__libdw_path() read the build-id
 * of the file at path before it was opened, and a file replaced in
 * between (a program rebuilt, or a package upgraded, while perf top runs)
 * would have its CFI and DWARF taken for the recorded code.
 */
static bool dso__libdw_elf_is_recorded(struct dso *dso, Elf *elf, const char *path)
{
	struct build_id bid = { .size = 0, };

	if (dso__is_recorded_build_id(dso, elf__read_build_id(elf, &bid) > 0 ? &bid : NULL,
				      /*no_build_id_ok=*/false))
		return true;
	pr_debug("libdw: %s was replaced by another build as it was opened: not read\n", path);
	return false;
}

static Elf *libdw_elf__open(struct dso *dso, const char *path, struct dso_libdw_elf *de)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf;

	if (fd < 0)
		return NULL;

	elf = elf_begin(fd, ELF_C_READ_MMAP, /*ref=*/NULL);
	if (elf && (elf_kind(elf) != ELF_K_ELF || !dso__libdw_elf_is_recorded(dso, elf, path) ||
		    !libdw_elf__range(elf, de) || elf_cntl(elf, ELF_C_FDREAD))) {
		elf_end(elf);
		elf = NULL;
	}
	close(fd);
	return elf;
}

/*
 * The debug file to give libdwfl for the module of the dso (__find_debuginfo()
 * in unwind-libdw.c): the file perf read the dso's symbols from, when it is
 * another file, has a .debug_frame and still has the dso's build-id (perf top
 * reads the symbols long before a rebuild may replace the file). libdwfl's
 * unwinder reads a debug file only for its .debug_frame, where .eh_frame has no
 * FDE for a pc (PLT stubs, the end of a chain), and then loads all of its DWARF
 * (decompressing what is compressed) in every address space: for nothing when
 * it has no .debug_frame, as compilers emit none next to .eh_frame (separate
 * debug files keep .eh_frame as NOBITS).
 */
static char *dso_libdw_elf__debuginfo(struct dso *dso, const char *path)
{
	const char *symsrc = dso__symsrc_filename(dso);

	if (!symsrc || !strcmp(symsrc, path) || !filename__has_section(symsrc, ".debug_frame") ||
	    !dso__is_recorded_build(dso, symsrc, /*no_build_id_ok=*/false))
		return NULL;
	return strdup(symsrc);
}

static struct dso_libdw_elf *dso_libdw_elf__new(struct dso *dso)
{
	struct dso_libdw_elf *de = zalloc(sizeof(*de));
	char path[PATH_MAX];

	if (!de)
		return NULL;

	/* The file with the dso's build-id, not a device file like /dev/dri/renderD128. */
	if (dso__libdw_path(dso, path, sizeof(path)) && is_regular_file(path))
		de->elf = libdw_elf__open(dso, path, de);
	if (de->elf) {
		de->path = strdup(path);
		if (!de->path) {
			elf_end(de->elf);
			de->elf = NULL;
		}
	}
	de->debuginfo = dso_libdw_elf__debuginfo(dso, de->path ?: dso__long_name(dso));
	if (de->elf)
		pr_debug("libdw: opened %s%s%s\n", de->path,
			 de->debuginfo ? ", .debug_frame in " : "", de->debuginfo ?: "");
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
#if _ELFUTILS_PREREQ(0, 197)
	struct Dwarf_CFI_s *eh_cfi;
#endif
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
#if _ELFUTILS_PREREQ(0, 197)
	if (!de->eh_cfi_tried) {
		de->eh_cfi = dwarf_getcfi_elf(de->elf);
		de->eh_cfi_tried = true;
	}
	eh_cfi = de->eh_cfi;
#endif
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
#if _ELFUTILS_PREREQ(0, 197)
	/*
	 * Before the module is used. This opens its file (libdw__find_elf()),
	 * which libdwfl would do for the first unwind through it anyway. On
	 * failure the module keeps making a CFI of its own, as it always did.
	 */
	if (eh_cfi && dwfl_module_set_eh_cfi(mod, eh_cfi))
		pr_debug("libdw: no shared .eh_frame CFI for %s: %s\n",
			 dso__long_name(dso), dwfl_errmsg(-1));
#endif
	return mod;
}

char *libdw__dso_debuginfo(struct dso *dso)
{
	struct dso_libdw_elf *de;
	char *ret = NULL;

	mutex_lock(libdw_elf_lock());
	de = dso__libdw_elf_ptr(dso);
	if (de && de->debuginfo)
		ret = strdup(de->debuginfo);
	mutex_unlock(libdw_elf_lock());
	return ret;
}

/* The dsos of a Dwfl's modules, taken from them to be put after dwfl_end(). */
struct module_dsos {
	struct dso	**dsos;
	size_t		nr, alloc;
};

static int count_module(Dwfl_Module *mod __maybe_unused, void **userdata,
			const char *name __maybe_unused, Dwarf_Addr start __maybe_unused,
			void *arg)
{
	if (*userdata)
		((struct module_dsos *)arg)->alloc++;
	return DWARF_CB_OK;
}

static int take_module_dso(Dwfl_Module *mod __maybe_unused, void **userdata,
			   const char *name __maybe_unused, Dwarf_Addr start __maybe_unused,
			   void *arg)
{
	struct module_dsos *md = arg;

	if (*userdata && md->nr < md->alloc) {
		md->dsos[md->nr++] = *userdata;
		*userdata = NULL;
	}
	return DWARF_CB_OK;
}

void libdw__end_dwfl(Dwfl *dwfl)
{
	struct module_dsos md = { .nr = 0, };

	/*
	 * The modules' references to their dsos go after dwfl_end(), with the
	 * modules' references to the Elfs: the dso's own reference is then an
	 * Elf's last, which dso__free_libdw() drops. Without memory for the
	 * list the references are leaked, never put before dwfl_end().
	 */
	dwfl_getmodules(dwfl, count_module, &md, 0);
	md.dsos = md.alloc ? calloc(md.alloc, sizeof(*md.dsos)) : NULL;
	if (md.dsos)
		dwfl_getmodules(dwfl, take_module_dso, &md, 0);
	mutex_lock(libdw_elf_lock());
	dwfl_end(dwfl);
	mutex_unlock(libdw_elf_lock());
	for (size_t i = 0; i < md.nr; i++)
		dso__put(md.dsos[i]);
	free(md.dsos);
}

/*
 * The answers of libdw__addr2line() for a dso (see the comment above
 * A2L_CACHE_MAGIC): those an earlier run kept in the build-id cache, the file
 * read whole and validated (hdr, with entries, frames and strings pointing
 * into it), and this run's (answers). Key: the address, in both; an answer of
 * this run replaces the file's. Bound: A2L_CACHE_MAX for both together, then
 * full. Invalidation: none, the file is for the dso's build-id and this perf.
 * Lifetime and locking: those of struct dso_libdw.
 */
struct a2l_cache {
	const struct a2l_cache_header	*hdr;	/* the file read, NULL: none */
	const struct a2l_cache_entry	*entries;
	const struct a2l_cache_frame	*frames;
	const char			*strings;
	struct hashmap			*answers;	/* address -> struct a2l_answer * */
	struct hashmap			*strings_run;	/* the answers' strings */
	bool				full;	/* no more kept: A2L_CACHE_MAX, no entry */
};

/*
 * The srcline state of a dso (dso->libdw): the Dwfl that has the dso as its
 * only module, what the lookups learnt about its DWARF, and the index of the
 * subprograms of each CU an address was looked up in. Made on first use and
 * used under the dso's srcline lock (dso__srcline_lock()); freed with the
 * dso.
 */
struct dso_libdw {
	Dwfl		*dwfl;
	struct hashmap	*cu_funcs;	/* Dwarf_CU * -> struct cu_funcs * */
	struct hashmap	*cxx_names;	/* declaration DIE -> qualified name */
	struct hashmap	*unit_walks;	/* unit DIE -> its walk, see unit_walk() */
	struct a2l_cache a2l;		/* answers kept in the build-id cache */
	bool		opened;		/* the Dwfl was made, or failed to be */
	bool		unit_refused;	/* a unit was not walked: said once */
	enum {
		DWARF_FOUND,
		DWARF_UNREADABLE,	/* DWARF libdw failed to read: others may */
		DWARF_NONE,		/* none in the dso or its debug files */
		DWARF_REFUSED,		/* a decompression bomb: don't let them try */
	} dwarf;			/* what dwfl_module_getdwarf() found */
	/*
	 * The build-id cache's uncompressed copy of the dso's debug file, for
	 * libdw__find_debuginfo() (NULL: none); uncompressed: a copy is read
	 * (this one or one of the dso's own file), none is written.
	 */
	char		*uncompressed_debug;
	bool		uncompressed;
	bool		kept;		/* dso__keep_libdw() was called */
	bool		debug_refused;	/* a debug file was a decompression bomb */
#if !_ELFUTILS_PREREQ(0, 191)
	struct cu_ranges *cu_ranges;	/* made on first use */
	bool		cu_ranges_failed; /* out of memory making it: not tried again */
#endif
};

#if !_ELFUTILS_PREREQ(0, 191)
/*
 * The address ranges of the CUs that libdw's address ranges (.debug_aranges)
 * leave out, from the CUs' own DW_AT_low_pc/DW_AT_high_pc and DW_AT_ranges:
 * which CU covers an address where libdw finds none, as libdwfl of elfutils
 * before 0.191 looks CUs up in .debug_aranges alone and finds none in a file
 * without it (clang emits none), where this holds every CU. From 0.191
 * libdwfl reads the CUs' own ranges where .debug_aranges has none
 * (__libdw_getdieranges()): its "no CU" is the answer. LLVM's DWARFDebugAranges completes
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

	if (!cr && !dl->cu_ranges_failed) {
		cr = cu_ranges__new(dwarf);
		dl->cu_ranges = cr;
		dl->cu_ranges_failed = !cr;
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
#else
/* libdwfl found no CU for addr where the CUs' own ranges have none either. */
static int dso_libdw__cu_at(struct dso_libdw *dl __maybe_unused, Dwarf *dwarf __maybe_unused,
			    Dwarf_Addr addr __maybe_unused, Dwarf_Die *cu_mem __maybe_unused)
{
	return 0;
}
#endif

static bool elf__has_dwarf(Elf *elf)
{
	GElf_Ehdr ehdr;
	GElf_Shdr shdr;

	return elf && gelf_getehdr(elf, &ehdr) &&
	       (elf_section_by_name(elf, &ehdr, &shdr, ".debug_info", /*idx=*/NULL) ||
		elf_section_by_name(elf, &ehdr, &shdr, ".zdebug_info", /*idx=*/NULL));
}

/* Why the module has no DWARF: none in its file or debug file, or DWARF libdw could not read. */
static int libdw__no_dwarf(Dwfl_Module *mod)
{
	const char *debugfile = NULL;
	Dwarf_Addr bias;
	bool dwarf = elf__has_dwarf(dwfl_module_getelf(mod, &bias));

	dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, &debugfile);
	if (!dwarf && debugfile) {
		int fd = open(debugfile, O_RDONLY | O_CLOEXEC);

		if (fd >= 0) {
			Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, /*ref=*/NULL);

			dwarf = elf__has_dwarf(elf);
			elf_end(elf);
			close(fd);
		}
	}
	return dwarf ? DWARF_UNREADABLE : DWARF_NONE;
}

static void libdw__warn_bomb(const char *path)
{
	pr_warning("%s: compressed debug sections inflating to more than perf allows, ignored\n",
		   path);
}

/*
 * The debug file fd libdwfl is to read, unless it is a decompression bomb
 * (elf__has_compression_bomb()): libdw inflates the compressed sections
 * of a file when it opens its DWARF, so a bomb is refused before. The dso
 * then has no source lines from libdw, and no other addr2line style is
 * given the file (dso__libdw_get()).
 */
static int libdw__debuginfo_checked(struct dso *dso, int fd, char **debuginfo_file_name)
{
	struct dso_libdw *dl = dso ? dso__libdw(dso) : NULL;
	Elf *elf;
	bool bomb;

	if (fd < 0)
		return fd;
	elf = elf_begin(fd, ELF_C_READ_MMAP, /*ref=*/NULL);
	bomb = elf && elf__has_compression_bomb(elf);
	elf_end(elf);
	if (!bomb)
		return fd;
	libdw__warn_bomb(*debuginfo_file_name ?: dso__long_name(dso));
	if (dl)
		dl->debug_refused = true;
	close(fd);
	zfree(debuginfo_file_name);
	return -1;
}

/*
 * Index of the subprograms of a CU that have code, by address: what
 * die_find_realfunc() finds by going through all the subprograms of the CU
 * (dwarf_getfuncs()) for every address, found by a binary search after one
 * dwarf_getfuncs() pass.
 *
 * Key: the CU (its Dwarf_CU, which lives as long as the Dwfl). Value: one
 * entry per address range of each subprogram of the CU, sorted by start,
 * with the running maximum of the ends, so that nested and overlapping
 * ranges are found too; the first subprogram in dwarf_getfuncs() order
 * wins, as in die_find_realfunc(). Bound: the subprogram ranges of the CUs
 * looked up, 48 bytes each, built on the first lookup in a CU. Lifetime:
 * the dso's Dwfl (dso__free_libdw()). Locking: the dso's srcline lock, as
 * the Dwfl.
 */
struct cu_func_range {
	Dwarf_Addr	start, end;	/* [start, end) */
	Dwarf_Addr	max_end;	/* the largest end of this and the ranges before */
	Dwarf		*dwarf;		/* the subprogram's DIE: in this Dwarf (dwz: the */
	Dwarf_Off	die_off;	/*   alternate file's), at this offset */
	unsigned int	seq;		/* the subprogram's dwarf_getfuncs() order */
};

struct cu_funcs {
	size_t			nr, alloc;
	unsigned int		seq;
	bool			enomem;
	bool			refused;	/* not walked: dso_libdw__unit_walkable() */
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

/* dwarf_getfuncs() callback: the ranges of a defining subprogram. */
static int cu_funcs__add(Dwarf_Die *fn_die, void *arg)
{
	struct cu_funcs *cf = arg;
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

static void cu_funcs__delete(struct cu_funcs *cf)
{
	if (cf) {
		free(cf->ranges);
		free(cf);
	}
}

static struct cu_funcs *cu_funcs__new(Dwarf_Die *cu_die, bool walkable)
{
	struct cu_funcs *cf = zalloc(sizeof(*cf));
	Dwarf_Addr max_end = 0;

	if (!cf)
		return NULL;

	cf->refused = !walkable;
	if (walkable)
		dwarf_getfuncs(cu_die, cu_funcs__add, cf, /*offset=*/0);
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
 * What a walk of a unit by libdw goes through, found by perf's own walk of
 * it before libdw's, to keep crafted DWARF from crashing or hanging perf.
 * libdw (dwarf_getfuncs(), dwarf_getscopes_die()) walks a unit's DIEs
 * recursively, a few C stack frames per level of nesting, and walks an
 * imported unit (DW_TAG_imported_unit) in place each time it is imported:
 * DIEs nested 100000 deep overflow perf's stack, and 40 partial units that
 * each import the next one twice make 2^40 walks. A unit is handed to them
 * only if its DIEs and the units it imports, and the units those import,
 * nest no deeper than UNIT_MAX_DEPTH levels and make no more than
 * UNIT_MAX_WALKS walks of units; a unit that imports itself, directly or
 * not, is refused too (libdw fails the whole walk). Compilers nest DIEs a
 * few dozen levels deep; dwz imports a partial unit once per unit.
 *
 * Key: the unit's DIE (its address in the section data, which lives as long
 * as the Dwfl), for the unit and every unit it imports. Value: the walks and
 * the levels below the unit's DIE, UNIT_WALK(walks, height), at most
 * UNIT_MAX_WALKS and UNIT_MAX_DEPTH: 17 and 11 bits, a long of 32 bits holds
 * them; UNIT_REFUSED over a bound; UNIT_BUSY while the unit is being walked.
 * Bound: one entry per unit looked up or imported. Lifetime and locking:
 * those of struct dso_libdw.
 */
#define UNIT_MAX_DEPTH	1024
#define UNIT_MAX_WALKS	65536L
#define UNIT_HEIGHT_BITS	11
#define UNIT_WALK(walks, height)	((walks) << UNIT_HEIGHT_BITS | (height))
#define UNIT_WALK_HEIGHT(walk)	((walk) & ((1L << UNIT_HEIGHT_BITS) - 1))
#define UNIT_WALK_WALKS(walk)	((walk) >> UNIT_HEIGHT_BITS)
#define UNIT_REFUSED	(-1L)
#define UNIT_BUSY	(-2L)

static long dso_libdw__unit_walk(struct dso_libdw *dl, Dwarf_Die *unit, int depth);
static int first_module(Dwfl_Module *mod, void **userdata, const char *name,
			Dwarf_Addr start, void *arg);

/*
 * The children of die, at level depth and below: add the units their walk
 * goes through to *walks, raise *deepest to the deepest level. False when
 * over a bound.
 */
static bool dso_libdw__walk_children(struct dso_libdw *dl, Dwarf_Die *die, int depth,
				     long *walks, int *deepest)
{
	Dwarf_Die child;

	if (dwarf_child(die, &child) != 0)
		return true;
	if (depth > UNIT_MAX_DEPTH)
		return false;
	if (depth > *deepest)
		*deepest = depth;
	do {
		if (dwarf_tag(&child) == DW_TAG_imported_unit) {
			Dwarf_Attribute attr;
			Dwarf_Die unit;
			long walk;

			if (!dwarf_attr(&child, DW_AT_import, &attr) ||
			    !dwarf_formref_die(&attr, &unit))
				continue;
			walk = dso_libdw__unit_walk(dl, &unit, depth);
			if (walk < 0 || depth + UNIT_WALK_HEIGHT(walk) > UNIT_MAX_DEPTH)
				return false;
			if (depth + UNIT_WALK_HEIGHT(walk) > *deepest)
				*deepest = depth + UNIT_WALK_HEIGHT(walk);
			*walks += UNIT_WALK_WALKS(walk);
		} else if (dwarf_haschildren(&child) &&
			   !dso_libdw__walk_children(dl, &child, depth + 1, walks, deepest)) {
			return false;
		}
		if (*walks > UNIT_MAX_WALKS)
			return false;
	} while (dwarf_siblingof(&child, &child) == 0);
	return true;
}

/* The walk of unit, whose DIE is at level depth: UNIT_WALK() or < 0. */
static long dso_libdw__unit_walk(struct dso_libdw *dl, Dwarf_Die *unit, int depth)
{
	int deepest = depth;
	long walk, walks = 1;

	BUILD_BUG_ON(UNIT_MAX_DEPTH >= 1L << UNIT_HEIGHT_BITS);
	BUILD_BUG_ON(LONG_MAX >> UNIT_HEIGHT_BITS < UNIT_MAX_WALKS);
	if (!dl->unit_walks) {
		dl->unit_walks = hashmap__new(cu_funcs__hash, cu_funcs__equal, NULL);
		if (IS_ERR(dl->unit_walks))
			dl->unit_walks = NULL;
	}
	if (!dl->unit_walks)
		return UNIT_REFUSED;
	if (hashmap__find(dl->unit_walks, unit->addr, &walk))
		return walk;
	if (hashmap__add(dl->unit_walks, unit->addr, UNIT_BUSY))
		return UNIT_REFUSED;
	if (dso_libdw__walk_children(dl, unit, depth + 1, &walks, &deepest))
		walk = UNIT_WALK(walks, deepest - depth);
	else
		walk = UNIT_REFUSED;
	hashmap__set(dl->unit_walks, unit->addr, walk, NULL, NULL);
	return walk;
}

/* Whether libdw may walk the unit of unit_die; said once per dso if not. */
static bool dso_libdw__unit_walkable(struct dso_libdw *dl, Dwarf_Die *unit_die)
{
	Dwfl_Module *mod = NULL;
	const char *name = NULL;

	if (dso_libdw__unit_walk(dl, unit_die, 0) >= 0)
		return true;
	if (!dl->unit_refused) {
		dl->unit_refused = true;
		dwfl_getmodules(dl->dwfl, first_module, &mod, /*offset=*/0);
		if (mod)
			name = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
		pr_warning("%s: DWARF unit at %#" PRIx64
			   " nests deeper than %d levels, imports units more than %ld times or imports itself: no inline frames from it\n",
			   name ?: "?", (u64)dwarf_dieoffset(unit_die),
			   UNIT_MAX_DEPTH, UNIT_MAX_WALKS);
	}
	return false;
}

/* The index of the CU, made on its first lookup; NULL without memory. */
static struct cu_funcs *dso_libdw__cu_funcs(struct dso_libdw *dl, Dwarf_Die *cu_die)
{
	struct cu_funcs *cf = NULL;

	if (!dl->cu_funcs) {
		dl->cu_funcs = hashmap__new(cu_funcs__hash, cu_funcs__equal, NULL);
		if (IS_ERR(dl->cu_funcs))
			dl->cu_funcs = NULL;
	}
	if (!dl->cu_funcs)
		return NULL;

	if (!hashmap__find(dl->cu_funcs, cu_die->cu, &cf)) {
		cf = cu_funcs__new(cu_die, dso_libdw__unit_walkable(dl, cu_die));
		if (!cf || hashmap__add(dl->cu_funcs, cu_die->cu, cf)) {
			cu_funcs__delete(cf);
			return NULL;
		}
	}
	return cf;
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

/*
 * The qualified name of a C++ function declared by decl, which has no linkage
 * name: its name after those of the scopes that hold it, as the demangler
 * qualifies a linkage name. GCC gives the closure type of a lambda no name:
 * it is "{lambda}" around an operator(), any other unnamed class is
 * "(anonymous)". NULL: no name, not found, no memory.
 */
static char *die__cxx_qualified_name(Dwarf_Die *decl)
{
	const char *name = dwarf_diename(decl);
	Dwarf_Die *scopes = NULL;
	struct strbuf sb;
	int nscopes;

	if (!name)
		return NULL;
	/* decl, the scopes that hold it, the CU: from the innermost out. */
	nscopes = dwarf_getscopes_die(decl, &scopes);
	if (nscopes < 2) {
		free(scopes);
		return NULL;
	}
	strbuf_init(&sb, 64);
	for (int i = nscopes - 2; i > 0; i--) {
		const char *scope_name = dwarf_diename(&scopes[i]);

		switch (dwarf_tag(&scopes[i])) {
		case DW_TAG_namespace:
			scope_name = scope_name ?: "(anonymous namespace)";
			break;
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			if (!scope_name)
				scope_name = i == 1 && !strcmp(name, "operator()") ?
					     "{lambda}" : "(anonymous)";
			break;
		case DW_TAG_subprogram:
			break;
		default:	/* lexical blocks */
			scope_name = NULL;
			break;
		}
		if (scope_name && (strbuf_addstr(&sb, scope_name) || strbuf_addstr(&sb, "::")))
			goto out_enomem;
	}
	free(scopes);
	if (strbuf_addstr(&sb, name))
		goto out_enomem;
	return strbuf_detach(&sb, NULL);

out_enomem:
	free(scopes);
	strbuf_release(&sb);
	return NULL;
}

/*
 * The qualified name of a C++ function without a linkage name, such as the
 * operator() of a lambda (GCC gives it none), from its inlined or out-of-line
 * instance die: "main::{lambda}::operator()" rather than "operator()". NULL
 * for C, a function with a linkage name or when there is none.
 *
 * dwarf_getscopes_die() walks the CU to the declaration: the names are kept,
 * per dso, in dl->cxx_names. Key: the declaration's DIE (its address in the
 * section data, which lives as long as the Dwfl). Value: the name, NULL for
 * none. Bound: one entry per such declaration looked up. Lifetime and
 * locking: those of struct dso_libdw.
 */
static const char *dso_libdw__qualified_name(struct dso_libdw *dl, Dwarf_Die *die)
{
	Dwarf_Die origin, decl = *die, cu_die;
	Dwarf_Attribute attr;
	char *name = NULL;

	/* From the inlined or out-of-line instance to the declaration. */
	for (int i = 0; i < 8; i++) {
		if (!dwarf_attr(&decl, DW_AT_abstract_origin, &attr) &&
		    !dwarf_attr(&decl, DW_AT_specification, &attr))
			break;
		if (!dwarf_formref_die(&attr, &origin))
			return NULL;
		decl = origin;
	}
	if (dwarf_hasattr(&decl, DW_AT_linkage_name) ||
	    dwarf_hasattr(&decl, DW_AT_MIPS_linkage_name) ||
	    !dwarf_diecu(&decl, &cu_die, NULL, NULL) ||
	    !lang__is_cplusplus(dwarf_srclang(&cu_die)) ||
	    !dso_libdw__unit_walkable(dl, &cu_die))
		return NULL;

	if (!dl->cxx_names) {
		dl->cxx_names = hashmap__new(cu_funcs__hash, cu_funcs__equal, NULL);
		if (IS_ERR(dl->cxx_names))
			dl->cxx_names = NULL;
	}
	if (dl->cxx_names && hashmap__find(dl->cxx_names, decl.addr, &name))
		return name;

	name = die__cxx_qualified_name(&decl);
	if (dl->cxx_names && hashmap__add(dl->cxx_names, decl.addr, name)) {
		free(name);
		return NULL;
	}
	return name;
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
	if (cf->refused)
		return -ENOENT;

	range = cu_funcs__find(cf, addr);
	if (!range || !dwarf_offdie(range->dwarf, range->die_off, &sp_die))
		return -ENOENT;
	return die_walk_functions_at(&sp_die, addr, callback, data);
}

/*
 * The uncompressed debug info of a dso in perf's build-id cache
 * (dso__build_id_uncompressed_filename()): a run that reads the dso's DWARF
 * from a file with compressed sections keeps a copy of that file with the
 * sections libdw inflated stored inflated; later runs read the copy instead,
 * mapped: nothing to inflate, and only the pages libdw touches are resident,
 * as file pages. With buildid.srclines, the first run keeps only its answers
 * (see a2l_cache__read()) and the copy is made by the next run that has to
 * read the DWARF, for other addresses: the second run on a recording reads
 * none, and the first doesn't pay for the copy. libdw inflates compressed sections when it opens
 * the DWARF (elfutils releases) or when it first reads them (elfutils with
 * lazy inflation): the copy keeps what was inflated, the rest stays compressed.
 *
 * Key: the dso's build-id; a copy is read only when its build-id is the dso's
 * and it is whole (its contents and section headers within the file), else it
 * is removed and made again. Bound: buildid.uncompressed-debug, the space all
 * the copies in the cache may take (default 2 GiB, 0: none written); a copy
 * that would go past it is not written. Written once per dso and run
 * (dso__keep_libdw()), when the session's dsos go or when the dso does, to a
 * temporary file renamed into place: two perf processes writing the same copy
 * each rename a whole file, a reader opens the one before or the one after. A
 * cache that can't be written (read only, full) leaves the copy out: -v says
 * so, the DWARF is inflated each run as it is without a copy. Made with the
 * dso's Dwfl, under dso__srcline_lock().
 *
 * Only ET_EXEC and ET_DYN files with ELF compressed sections (SHF_COMPRESSED):
 * libdwfl relocates the DWARF of ET_REL files in memory, and names don't
 * say whether a .zdebug section was inflated. Not for files whose dwz
 * alternate file is named relative to them (.gnu_debugaltlink): libdwfl
 * would look for it next to the copy.
 */

static int first_module(Dwfl_Module *mod, void **userdata __maybe_unused,
			const char *name __maybe_unused, Dwarf_Addr start __maybe_unused,
			void *arg)
{
	*(Dwfl_Module **)arg = mod;
	return DWARF_CB_ABORT;
}

/* Whether the file's section headers and contents are within its size. */
static bool elf__within(Elf *elf, u64 size)
{
	Elf_Scn *scn = NULL;
	GElf_Ehdr ehdr;
	GElf_Shdr shdr;
	size_t shnum;

	if (!gelf_getehdr(elf, &ehdr) || elf_getshdrnum(elf, &shnum) ||
	    ehdr.e_shoff > size || (u64)shnum * ehdr.e_shentsize > size - ehdr.e_shoff)
		return false;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &shdr))
			return false;
		if (shdr.sh_type != SHT_NOBITS &&
		    (shdr.sh_offset > size || shdr.sh_size > size - shdr.sh_offset))
			return false;
	}
	return true;
}

/*
 * Whether the uncompressed copy at path can be read for the dso (see above):
 * removed when not.
 */
static bool dso__libdw_uncompressed_valid(struct dso *dso, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	const void *bid_data;
	bool valid = false;
	struct stat st;
	ssize_t len;
	Elf *elf;

	if (fd < 0)
		return false;
	elf = fstat(fd, &st) ? NULL : elf_begin(fd, ELF_C_READ_MMAP, /*ref=*/NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF && elf__within(elf, st.st_size)) {
		len = dwelf_elf_gnu_build_id(elf, &bid_data);
		if (len > 0) {
			struct build_id bid;

			build_id__init(&bid, bid_data, len);
			valid = dso__build_id_equal(dso, &bid) && elf__has_dwarf(elf);
		}
	}
	elf_end(elf);
	close(fd);
	if (!valid) {
		pr_debug("libdw: %s is not a whole copy of the debug info of %s, removed\n",
			 path, dso__long_name(dso));
		unlink(path);
	}
	return valid;
}

/*
 * When the cache has the dso's debug info uncompressed: the file to report for
 * the dso's module instead of the one at path (fd), in path and with its
 * descriptor returned, when the dso's own file has the DWARF; else the copy
 * is the debug file, for libdw__find_debuginfo(), and fd is returned.
 */
static int dso_libdw__uncompressed(struct dso *dso, struct dso_libdw *dl, int fd,
				   char *path, size_t size)
{
	char copy[PATH_MAX];
	bool own_dwarf;
	int copy_fd;
	Elf *elf;

	if (!dso__build_id_uncompressed_filename(dso, copy, sizeof(copy)) ||
	    access(copy, F_OK) || !dso__libdw_uncompressed_valid(dso, copy))
		return fd;
	dl->uncompressed = true;
	pr_debug("libdw: reading the debug info of %s uncompressed from %s\n",
		 dso__long_name(dso), copy);

	elf = elf_begin(fd, ELF_C_READ_MMAP, /*ref=*/NULL);
	own_dwarf = elf__has_dwarf(elf);
	elf_end(elf);
	if (!own_dwarf) {
		dl->uncompressed_debug = strdup(copy);
		return fd;
	}
	copy_fd = open(copy, O_RDONLY | O_CLOEXEC);
	if (copy_fd < 0)
		return fd;
	close(fd);
	strlcpy(path, copy, size);
	return copy_fd;
}

static const char *dso__libdw_uncompressed_debug(struct dso *dso)
{
	struct dso_libdw *dl = dso__libdw(dso);

	return dl ? dl->uncompressed_debug : NULL;
}

/*
 * How many sections of elf, the file at path as libdw has it in memory, are
 * inflated where the file has them compressed; -1 when the file can't be
 * copied (see above) or is not elf's.
 */
static int elf__inflated_sections(Elf *elf, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf_Scn *scn = NULL, *fscn = NULL;
	GElf_Shdr shdr, fshdr;
	size_t shstrndx;
	GElf_Ehdr ehdr;
	int nr = 0;
	Elf *felf;

	if (fd < 0)
		return -1;
	felf = elf_begin(fd, ELF_C_READ_MMAP, /*ref=*/NULL);
	if (!felf || !gelf_getehdr(felf, &ehdr) || elf_getshdrstrndx(felf, &shstrndx) ||
	    (ehdr.e_type != ET_EXEC && ehdr.e_type != ET_DYN))
		nr = -1;
	while (nr >= 0 && (fscn = elf_nextscn(felf, fscn)) != NULL) {
		const char *name;

		scn = elf_nextscn(elf, scn);
		if (!scn || !gelf_getshdr(scn, &shdr) || !gelf_getshdr(fscn, &fshdr) ||
		    shdr.sh_type != fshdr.sh_type || shdr.sh_name != fshdr.sh_name) {
			nr = -1;
			break;
		}
		name = elf_strptr(felf, shstrndx, fshdr.sh_name);
		if (name && strstarts(name, ".zdebug"))
			nr = -1;
		else if ((fshdr.sh_flags & SHF_COMPRESSED) && !(shdr.sh_flags & SHF_COMPRESSED))
			nr++;
	}
	if (nr >= 0 && elf_nextscn(elf, scn))
		nr = -1;
	elf_end(felf);
	close(fd);
	return nr;
}

/*
 * Write elf as libdw has it in memory, with the sections it inflated, to fd:
 * the sections that occupy memory keep their offsets, so that the program
 * headers stay true, the others follow them, in order, then the section
 * headers. Only libelf's public interface: the data is written from where
 * libelf has it.
 */
static int elf__write_copy(Elf *elf, int fd, u64 *size)
{
	Elf *out = elf_begin(fd, ELF_C_WRITE, /*ref=*/NULL);
	size_t phnum, shnum, i;
	Elf_Scn *scn = NULL;
	GElf_Ehdr ehdr;
	GElf_Shdr shdr;
	GElf_Phdr phdr;
	GElf_Off off;
	int ret = -1;

	if (!out || !gelf_getehdr(elf, &ehdr) || elf_getphdrnum(elf, &phnum) ||
	    elf_getshdrnum(elf, &shnum) || shnum >= SHN_LORESERVE ||
	    !gelf_newehdr(out, gelf_getclass(elf)))
		goto out;
	elf_flagelf(out, ELF_C_SET, ELF_F_LAYOUT);
	off = ehdr.e_ehsize;
	if (phnum) {
		if (!gelf_newphdr(out, phnum))
			goto out;
		for (i = 0; i < phnum; i++) {
			if (!gelf_getphdr(elf, i, &phdr) || !gelf_update_phdr(out, i, &phdr))
				goto out;
		}
		off = max(off, ehdr.e_phoff + phnum * ehdr.e_phentsize);
	}
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &shdr))
			goto out;
		if ((shdr.sh_flags & SHF_ALLOC) && shdr.sh_type != SHT_NOBITS)
			off = max(off, shdr.sh_offset + shdr.sh_size);
	}
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		Elf_Scn *out_scn = elf_newscn(out);
		GElf_Xword align = 1;
		Elf_Data *data = NULL;

		if (!out_scn || !gelf_getshdr(scn, &shdr))
			goto out;
		while ((data = elf_getdata(scn, data)) != NULL) {
			Elf_Data *out_data = elf_newdata(out_scn);

			if (!out_data)
				goto out;
			*out_data = *data;
			align = max(align, (GElf_Xword)data->d_align);
		}
		if (!(shdr.sh_flags & SHF_ALLOC)) {
			align = max(align, shdr.sh_addralign);
			shdr.sh_offset = roundup(off, align);
			if (shdr.sh_type != SHT_NOBITS)
				off = shdr.sh_offset + shdr.sh_size;
		}
		if (!gelf_update_shdr(out_scn, &shdr))
			goto out;
	}
	ehdr.e_shoff = roundup(off, 8);
	if (!gelf_update_ehdr(out, &ehdr) || elf_update(out, ELF_C_WRITE) < 0)
		goto out;
	*size = ehdr.e_shoff + shnum * ehdr.e_shentsize;
	ret = 0;
out:
	elf_end(out);
	return ret;
}

/* Keep the dso's inflated debug info in the build-id cache, see above. */
static void dso_libdw__keep_uncompressed(struct dso *dso, struct dso_libdw *dl)
{
	const char *name, *mainfile, *debugfile, *src, *altname;
	char path[PATH_MAX], tmp[PATH_MAX];
	const void *alt_bid;
	Dwfl_Module *mod = NULL;
	Dwarf_Addr bias;
	u64 used, size = 0;
	Dwarf *dwarf;
	Elf *elf;
	int fd, nr;

	if (!dl->dwfl || dl->dwarf != DWARF_FOUND || dl->uncompressed ||
	    !buildid_uncompressed_debug ||
	    !dso__build_id_uncompressed_filename(dso, path, sizeof(path)))
		return;
	/*
	 * The answers the first run keeps (buildid.srclines) spare the next
	 * runs on the same addresses the DWARF: the copy is made by a run that
	 * read the DWARF again, for addresses they lacked.
	 */
	if (buildid_srclines && !dl->a2l.hdr)
		return;
	dwfl_getmodules(dl->dwfl, first_module, &mod, /*offset=*/0);
	dwarf = mod ? dwfl_module_getdwarf(mod, &bias) : NULL;
	elf = dwarf ? dwarf_getelf(dwarf) : NULL;
	if (!elf)
		return;
	/* libdwfl looks for a dwz file named relatively next to the file. */
	if (dwelf_dwarf_gnu_debugaltlink(dwarf, &altname, &alt_bid) > 0 && altname[0] != '/')
		return;
	name = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, &mainfile, &debugfile);
	src = elf == dwfl_module_getelf(mod, &bias) ? mainfile : debugfile;
	nr = src ? elf__inflated_sections(elf, src) : -1;
	if (nr <= 0)
		return;

	used = build_id_cache__uncompressed_size();
	if (used >= buildid_uncompressed_debug) {
		pr_debug("libdw: %s not kept: buildid.uncompressed-debug, %" PRIu64 " MiB, used\n",
			 src, buildid_uncompressed_debug >> 20);
		return;
	}
	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return;
	fd = mkstemp(tmp);
	if (fd < 0) {
		pr_debug("libdw: can't keep the uncompressed debug info of %s in %s: %m\n",
			 name, path);
		return;
	}
	if (elf__write_copy(elf, fd, &size) || fchmod(fd, 0644) ||
	    used + size > buildid_uncompressed_debug || rename(tmp, path)) {
		pr_debug("libdw: can't keep the uncompressed debug info of %s in %s%s\n",
			 name, path, used + size > buildid_uncompressed_debug ?
			 ": past buildid.uncompressed-debug" : "");
		unlink(tmp);
	} else {
		pr_debug("libdw: kept %s with %d sections inflated (%" PRIu64 " MiB) in %s\n",
			 src, nr, size >> 20, path);
	}
	close(fd);
}

/*
 * The answers libdw__addr2line() gave for a dso's addresses, kept in the
 * dso's build-id cache entry (dso__build_id_srclines_filename()): a later
 * run asking for the same addresses, as the second perf report or perf
 * script of a recording does, takes them from there and opens none of the
 * dso's DWARF: nothing is inflated, no line program or unit is read.
 *
 * Kept is what libdw__addr2line() found before it made perf's objects of it:
 * the address's file and line and, when its inline frames were asked for,
 * the functions of the walk down to it, as a2l_add_frame() takes them (the
 * name, or none where the caller's symbol is the function, the call file and
 * line). A hit replays them through a2l_add_frame(), so that what shapes the
 * output (callchain order, demangling, the caller's symbol) applies as on a
 * miss. Only answers found with the dso's DWARF: a line (1), the inline
 * frames without the lines (A2L_FRAMES_ONLY, found for a run that shows
 * none, symbol_conf.inline_srclines_unused, and given to such runs only), no
 * unit covering the address (LIBDW_A2L_NO_LINE), or a unit without a line
 * for it or an address outside the file (0: the other styles are asked,
 * libdw doesn't read its DWARF again); where another style found a line, its
 * file and line (libdw__addr2line_other()), and where none did,
 * LIBDW_A2L_NO_LINE (libdw__addr2line_none()): the next run asks none of
 * them.
 *
 * The file: a header (the dso's build-id, the counts), the entries sorted by
 * address, their frames, and the strings, the versions of perf and libdw
 * first; in the host's byte order. It is read when its build-id is the
 * dso's, its versions this perf's and libdw's, and its counts, offsets and
 * strings lie within it; else it is ignored and replaced. Key: the build-id
 * and the address. Bound: A2L_CACHE_MAX entries per dso, kept or read, and
 * A2L_CACHE_MAX_SIZE bytes per file. Invalidation: none for a build-id,
 * whose DWARF doesn't change; another version of perf or of libdw (which
 * may answer otherwise) starts over. Written once per dso and run
 * (dso__keep_libdw()) if the run found answers the file lacks: the file's
 * and the run's, to a temporary file renamed into place, so that two
 * writers each rename a whole file. buildid.srclines = false turns it off.
 * Locking: the dso's srcline lock, as for struct dso_libdw.
 */
#define A2L_CACHE_MAGIC		"PERFA2L"
#define A2L_CACHE_FORMAT	2
#define A2L_CACHE_MAX		(4U << 20)
#define A2L_CACHE_MAX_SIZE	(256U << 20)
#define A2L_NONE		UINT32_MAX
#define A2L_FRAMES_ONLY		2	/* ret: the inline frames, no line looked up */

enum {
	A2L_FRAME_SUBPROGRAM	= 1 << 0,	/* a DW_TAG_subprogram */
	A2L_FRAME_CALLER	= 1 << 1,	/* the caller's symbol, no name */
};

struct a2l_cache_header {
	char	magic[8];
	u32	format;
	u32	build_id_size;
	u8	build_id[24];
	u64	nr_entries;
	u64	nr_frames;
	u64	strings_size;
};

struct a2l_cache_entry {
	u64	addr;
	u32	file;		/* offset in the strings, A2L_NONE: no file */
	u32	line;
	s32	ret;		/* 1, A2L_FRAMES_ONLY, 0 or LIBDW_A2L_NO_LINE */
	u32	nr_frames;	/* A2L_NONE: its inline frames were not asked for */
	u64	frame;		/* its first frame */
};

struct a2l_cache_frame {
	u32	funcname;	/* offset in the strings, A2L_NONE: no name */
	u32	call_file;	/* offset in the strings, A2L_NONE: none */
	s32	call_line;
	u32	flags;		/* A2L_FRAME_ */
};

/* A frame as a2l_add_frame() takes it; strings interned in struct a2l_cache. */
struct a2l_frame {
	const char	*funcname;
	const char	*call_file;
	int		call_line;
	u32		flags;
};

/* An answer of this run, not in the file. */
struct a2l_answer {
	u64		addr;
	const char	*file;
	unsigned int	line;
	int		ret;
	u32		nr_frames;	/* A2L_NONE: not asked for */
	struct a2l_frame frames[];
};

static size_t a2l_str_hash(long key, void *ctx __maybe_unused)
{
	return str_hash((const char *)key);
}

static bool a2l_str_equal(long key1, long key2, void *ctx __maybe_unused)
{
	return !strcmp((const char *)key1, (const char *)key2);
}

/* Keys: a pointer to the address, a u64 wider than long on 32-bit hosts. */
static size_t a2l_addr_hash(long key, void *ctx __maybe_unused)
{
	return hash_64(*(const u64 *)key, 32);
}

static bool a2l_addr_equal(long key1, long key2, void *ctx __maybe_unused)
{
	return *(const u64 *)key1 == *(const u64 *)key2;
}

/* What made the answers, the file's first string: this perf and its libdw. */
static const char *a2l_cache__version(char *buf, size_t size)
{
	snprintf(buf, size, "%s libdw %s", perf_version_string, dwfl_version(NULL) ?: "?");
	return buf;
}

/* Whether buf, size bytes read for the dso, is a whole file of its answers. */
static bool a2l_cache__valid(struct dso *dso, const void *buf, size_t size)
{
	const struct a2l_cache_header *hdr = buf;
	char version[128];
	const struct a2l_cache_entry *ent;
	const struct a2l_cache_frame *frm;
	const char *strings;
	struct build_id bid;
	u64 i, nr_frames;

	if (size < sizeof(*hdr) || memcmp(hdr->magic, A2L_CACHE_MAGIC, sizeof(hdr->magic)) ||
	    hdr->format != A2L_CACHE_FORMAT || hdr->build_id_size > BUILD_ID_SIZE ||
	    hdr->nr_entries > A2L_CACHE_MAX ||
	    hdr->nr_frames > size / sizeof(*frm) || hdr->strings_size > size ||
	    !hdr->strings_size ||
	    size != sizeof(*hdr) + hdr->nr_entries * sizeof(*ent) +
		    hdr->nr_frames * sizeof(*frm) + hdr->strings_size)
		return false;
	build_id__init(&bid, hdr->build_id, hdr->build_id_size);
	if (!dso__build_id_equal(dso, &bid))
		return false;

	ent = buf + sizeof(*hdr);
	frm = (const void *)(ent + hdr->nr_entries);
	strings = (const void *)(frm + hdr->nr_frames);
	if (strings[hdr->strings_size - 1] ||
	    strcmp(strings, a2l_cache__version(version, sizeof(version))))
		return false;
	nr_frames = hdr->nr_frames;
	for (i = 0; i < hdr->nr_entries; i++, ent++) {
		if ((i && ent->addr <= ent[-1].addr) ||
		    (ent->file != A2L_NONE && ent->file >= hdr->strings_size) ||
		    (ent->ret != 1 && ent->ret != 0 && ent->ret != LIBDW_A2L_NO_LINE &&
		     (ent->ret != A2L_FRAMES_ONLY || ent->nr_frames == A2L_NONE)) ||
		    (ent->nr_frames != A2L_NONE &&
		     (ent->frame > nr_frames || ent->nr_frames > nr_frames - ent->frame)))
			return false;
	}
	for (i = 0; i < nr_frames; i++, frm++) {
		if ((frm->funcname != A2L_NONE && frm->funcname >= hdr->strings_size) ||
		    (frm->call_file != A2L_NONE && frm->call_file >= hdr->strings_size) ||
		    (frm->flags & ~(A2L_FRAME_SUBPROGRAM | A2L_FRAME_CALLER)))
			return false;
	}
	return true;
}

/* Read the dso's answers kept by an earlier run, see above. */
static void a2l_cache__read(struct a2l_cache *c, struct dso *dso)
{
	char path[PATH_MAX];
	struct stat st;
	void *buf;
	int fd;

	/* Nowhere to keep them: none are kept in memory either. */
	if (!buildid_srclines || !dso__build_id_srclines_filename(dso, path, sizeof(path))) {
		c->full = true;
		return;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	buf = fstat(fd, &st) || st.st_size > A2L_CACHE_MAX_SIZE ? NULL : malloc(st.st_size ?: 1);
	if (buf && readn(fd, buf, st.st_size) == st.st_size &&
	    a2l_cache__valid(dso, buf, st.st_size)) {
		c->hdr = buf;
		c->entries = buf + sizeof(*c->hdr);
		c->frames = (const void *)(c->entries + c->hdr->nr_entries);
		c->strings = (const void *)(c->frames + c->hdr->nr_frames);
		pr_debug("libdw: %" PRIu64 " source lines of %s read from %s\n",
			 c->hdr->nr_entries, dso__long_name(dso), path);
	} else {
		pr_debug("libdw: %s is not a whole file of source lines of %s, ignored\n",
			 path, dso__long_name(dso));
		free(buf);
	}
	close(fd);
}

static int a2l_cache_entry__cmp(const void *key, const void *entry)
{
	u64 addr = *(const u64 *)key;
	const struct a2l_cache_entry *ent = entry;

	return addr < ent->addr ? -1 : addr > ent->addr;
}

static const struct a2l_cache_entry *a2l_cache__entry(const struct a2l_cache *c, u64 addr)
{
	if (!c->hdr)
		return NULL;
	return bsearch(&addr, c->entries, c->hdr->nr_entries, sizeof(*c->entries),
		       a2l_cache_entry__cmp);
}

/* How many answers this run found. */
static size_t a2l_cache__nr_answers(const struct a2l_cache *c)
{
	return c->answers ? hashmap__size(c->answers) : 0;
}

static const char *a2l_cache__str(const struct a2l_cache *c, u32 off)
{
	return off == A2L_NONE ? NULL : c->strings + off;
}

/* The interned copy of s (NULL: none), NULL when out of memory. */
static const char *a2l_cache__intern(struct a2l_cache *c, const char *s)
{
	char *copy;

	if (!c->strings_run) {
		c->strings_run = hashmap__new(a2l_str_hash, a2l_str_equal, /*ctx=*/NULL);
		if (IS_ERR(c->strings_run)) {
			c->strings_run = NULL;
			return NULL;
		}
	}
	if (hashmap__find(c->strings_run, s, &copy))
		return copy;
	copy = strdup(s);
	if (copy && hashmap__add(c->strings_run, copy, copy)) {
		free(copy);
		copy = NULL;
	}
	return copy;
}

/*
 * Keep an answer of this run (see above): the address's file and line, ret,
 * and its frames (nr_frames, A2L_NONE when not asked for).
 */
static void a2l_cache__add(struct a2l_cache *c, u64 addr, const char *file,
			   unsigned int line, int ret, const struct a2l_frame *frames,
			   u32 nr_frames)
{
	u32 n = nr_frames == A2L_NONE ? 0 : nr_frames;
	struct a2l_answer *a, *old = NULL;
	const struct a2l_cache_entry *ent;

	/* Another style's line (libdw__addr2line_other()) stays. */
	if (!ret && c->answers && hashmap__find(c->answers, &addr, &old) && old->ret == 1)
		return;
	ent = ret ? NULL : a2l_cache__entry(c, addr);
	if (ent && ent->ret == 1)
		return;
	old = NULL;
	if (c->full ||
	    (c->hdr ? c->hdr->nr_entries : 0) + a2l_cache__nr_answers(c) >= A2L_CACHE_MAX) {
		c->full = true;
		return;
	}
	if (!c->answers) {
		c->answers = hashmap__new(a2l_addr_hash, a2l_addr_equal, /*ctx=*/NULL);
		if (IS_ERR(c->answers)) {
			c->answers = NULL;
			c->full = true;
			return;
		}
	}
	a = malloc(sizeof(*a) + n * sizeof(*frames));
	if (!a)
		return;
	a->addr = addr;
	a->file = file ? a2l_cache__intern(c, file) : NULL;
	a->line = line;
	a->ret = ret;
	a->nr_frames = nr_frames;
	for (u32 i = 0; i < n; i++) {
		a->frames[i] = frames[i];
		a->frames[i].funcname = frames[i].funcname ?
					a2l_cache__intern(c, frames[i].funcname) : NULL;
		a->frames[i].call_file = frames[i].call_file ?
					 a2l_cache__intern(c, frames[i].call_file) : NULL;
		if ((frames[i].funcname && !a->frames[i].funcname) ||
		    (frames[i].call_file && !a->frames[i].call_file))
			goto out_free;
	}
	if ((file && !a->file) || hashmap__set(c->answers, &a->addr, a, /*old_key=*/NULL, &old))
		goto out_free;
	free(old);
	return;
out_free:
	free(a);
}

static void a2l_cache__exit(struct a2l_cache *c)
{
	struct hashmap_entry *cur;
	size_t bkt;

	if (c->answers) {
		hashmap__for_each_entry(c->answers, cur, bkt)
			free(cur->pvalue);
		hashmap__free(c->answers);
	}
	if (c->strings_run) {
		hashmap__for_each_entry(c->strings_run, cur, bkt)
			free(cur->pvalue);
		hashmap__free(c->strings_run);
	}
	free((void *)c->hdr);
}

static int a2l_answer__cmp(const void *a, const void *b)
{
	const struct a2l_answer *x = *(const struct a2l_answer **)a;
	const struct a2l_answer *y = *(const struct a2l_answer **)b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The offset of s (NULL: A2L_NONE) in the strings being written. */
static u32 a2l_cache__offset(struct strbuf *sb, struct hashmap *offsets, const char *s,
			     bool *err)
{
	long off;

	if (!s)
		return A2L_NONE;
	if (hashmap__find(offsets, s, &off))
		return off;
	off = sb->len;
	if (off + strlen(s) + 1 > A2L_CACHE_MAX_SIZE || strbuf_add(sb, s, strlen(s) + 1) ||
	    hashmap__add(offsets, s, off))
		*err = true;
	return off;
}

/* The frames of the answer to write: a2l_frame from the run or the file. */
static void a2l_cache__frame(const struct a2l_cache *c, const struct a2l_answer *a,
			     const struct a2l_cache_entry *ent, u32 i, struct a2l_frame *f)
{
	if (a) {
		*f = a->frames[i];
	} else {
		const struct a2l_cache_frame *cf = &c->frames[ent->frame + i];

		f->funcname = a2l_cache__str(c, cf->funcname);
		f->call_file = a2l_cache__str(c, cf->call_file);
		f->call_line = cf->call_line;
		f->flags = cf->flags;
	}
}

/* Append the answer of the run (a) or of the file (ent) to the file to write. */
static int a2l_cache__put(const struct a2l_cache *c, const struct a2l_answer *a,
			  const struct a2l_cache_entry *ent, struct strbuf *entries,
			  struct strbuf *frames, struct strbuf *strings, struct hashmap *offsets)
{
	struct a2l_cache_entry out = {
		.addr = a ? a->addr : ent->addr,
		.line = a ? a->line : ent->line,
		.ret = a ? a->ret : ent->ret,
		.nr_frames = a ? a->nr_frames : ent->nr_frames,
		.frame = frames->len / sizeof(struct a2l_cache_frame),
	};
	bool err = false;

	out.file = a2l_cache__offset(strings, offsets, a ? a->file : a2l_cache__str(c, ent->file),
				     &err);
	for (u32 i = 0; out.nr_frames != A2L_NONE && i < out.nr_frames; i++) {
		struct a2l_cache_frame cf;
		struct a2l_frame f;

		a2l_cache__frame(c, a, ent, i, &f);
		cf.funcname = a2l_cache__offset(strings, offsets, f.funcname, &err);
		cf.call_file = a2l_cache__offset(strings, offsets, f.call_file, &err);
		cf.call_line = f.call_line;
		cf.flags = f.flags;
		if (err || strbuf_add(frames, &cf, sizeof(cf)))
			return -1;
	}
	if (out.nr_frames == A2L_NONE)
		out.frame = 0;
	return err || strbuf_add(entries, &out, sizeof(out)) ? -1 : 0;
}

/* Write the file's answers and the run's to fd, see above. */
static int a2l_cache__write(const struct a2l_cache *c, struct dso *dso, int fd)
{
	struct a2l_cache_header hdr = { .format = A2L_CACHE_FORMAT };
	struct strbuf entries, frames, strings;
	size_t nr = 0, i = 0, j = 0, nr_file = c->hdr ? c->hdr->nr_entries : 0;
	struct a2l_answer **run = calloc(a2l_cache__nr_answers(c) ?: 1, sizeof(*run));
	struct hashmap *offsets = hashmap__new(a2l_str_hash, a2l_str_equal, /*ctx=*/NULL);
	struct hashmap_entry *cur;
	char version[128];
	bool err = false;
	size_t bkt;
	int ret = -1;

	strbuf_init(&entries, 0);
	strbuf_init(&frames, 0);
	strbuf_init(&strings, 0);
	if (!run || IS_ERR(offsets))
		goto out;
	hashmap__for_each_entry(c->answers, cur, bkt)
		run[nr++] = cur->pvalue;
	qsort(run, nr, sizeof(*run), a2l_answer__cmp);

	a2l_cache__offset(&strings, offsets, a2l_cache__version(version, sizeof(version)), &err);
	while (!err && (i < nr || j < nr_file)) {
		const struct a2l_cache_entry *ent = j < nr_file ? &c->entries[j] : NULL;

		/* The run's answer for an address replaces the file's. */
		if (i < nr && (!ent || run[i]->addr <= ent->addr)) {
			if (ent && run[i]->addr == ent->addr)
				j++;
			err = a2l_cache__put(c, run[i++], NULL, &entries, &frames, &strings,
					     offsets);
		} else {
			err = a2l_cache__put(c, NULL, ent, &entries, &frames, &strings, offsets);
			j++;
		}
	}
	if (err || sizeof(hdr) + entries.len + frames.len + strings.len > A2L_CACHE_MAX_SIZE)
		goto out;
	memcpy(hdr.magic, A2L_CACHE_MAGIC, sizeof(hdr.magic));
	hdr.build_id_size = dso__bid(dso)->size;
	memcpy(hdr.build_id, dso__bid(dso)->data, hdr.build_id_size);
	hdr.nr_entries = entries.len / sizeof(struct a2l_cache_entry);
	hdr.nr_frames = frames.len / sizeof(struct a2l_cache_frame);
	hdr.strings_size = strings.len;
	if (writen(fd, &hdr, sizeof(hdr)) == sizeof(hdr) &&
	    writen(fd, entries.buf, entries.len) == (ssize_t)entries.len &&
	    writen(fd, frames.buf, frames.len) == (ssize_t)frames.len &&
	    writen(fd, strings.buf, strings.len) == (ssize_t)strings.len)
		ret = 0;
out:
	strbuf_release(&entries);
	strbuf_release(&frames);
	strbuf_release(&strings);
	if (!IS_ERR(offsets))
		hashmap__free(offsets);
	free(run);
	return ret;
}

/* Keep the dso's answers of this run in the build-id cache, see above. */
static void dso_libdw__keep_srclines(struct dso *dso, struct dso_libdw *dl)
{
	const struct a2l_cache *c = &dl->a2l;
	char path[PATH_MAX], tmp[PATH_MAX];
	int fd;

	if (!a2l_cache__nr_answers(c) || !buildid_srclines ||
	    !dso__build_id_srclines_filename(dso, path, sizeof(path)) ||
	    snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return;
	fd = mkstemp(tmp);
	if (fd < 0) {
		pr_debug("libdw: can't keep the source lines of %s in %s: %m\n",
			 dso__long_name(dso), path);
		return;
	}
	if (a2l_cache__write(c, dso, fd) || fchmod(fd, 0644) || rename(tmp, path)) {
		pr_debug("libdw: can't keep the source lines of %s in %s\n",
			 dso__long_name(dso), path);
		unlink(tmp);
	} else {
		pr_debug("libdw: kept %zu new source lines of %s in %s\n",
			 a2l_cache__nr_answers(c), dso__long_name(dso), path);
	}
	close(fd);
}

/* Once per dso, see dso__keep_libdw(). */
static void dso_libdw__keep(struct dso *dso, struct dso_libdw *dl)
{
	if (dl && !dl->kept) {
		dl->kept = true;
		dso_libdw__keep_uncompressed(dso, dl);
		dso_libdw__keep_srclines(dso, dl);
	}
}

void dso__keep_libdw(struct dso *dso)
{
	mutex_lock(dso__srcline_lock(dso));
	dso_libdw__keep(dso, dso__libdw(dso));
	mutex_unlock(dso__srcline_lock(dso));
}

void dso__free_libdw(struct dso *dso)
{
	struct dso_libdw *dl = dso__libdw(dso);
	struct dso_libdw_elf *de = dso__libdw_elf_ptr(dso);

	if (dl) {
		struct hashmap_entry *cur;
		size_t bkt;

		/* No other user: no lock. */
		dso_libdw__keep(dso, dl);
		a2l_cache__exit(&dl->a2l);
		free(dl->uncompressed_debug);
		if (dl->cu_funcs) {
			hashmap__for_each_entry(dl->cu_funcs, cur, bkt)
				cu_funcs__delete(cur->pvalue);
			hashmap__free(dl->cu_funcs);
		}
		if (dl->cxx_names) {
			hashmap__for_each_entry(dl->cxx_names, cur, bkt)
				free(cur->pvalue);
			hashmap__free(dl->cxx_names);
		}
		hashmap__free(dl->unit_walks);
#if !_ELFUTILS_PREREQ(0, 191)
		cu_ranges__delete(dl->cu_ranges);
#endif
		dwfl_end(dl->dwfl);
		free(dl);
		dso__set_libdw(dso, NULL);
	}
	if (de) {
#if _ELFUTILS_PREREQ(0, 197)
		dwarf_cfi_end(de->eh_cfi);
#endif
		mutex_lock(libdw_elf_lock());
		elf_end(de->elf);
		mutex_unlock(libdw_elf_lock());
		free(de->path);
		free(de->debuginfo);
		free(de);
		dso__set_libdw_elf_ptr(dso, NULL);
	}
}

/*
 * Says with -v, once per dso, where its source lines come from: the file
 * reported (the dso's own, or the build-id cache's copy, see
 * dso__libdw_path()) and the debug file libdwfl took for it; or why there
 * are none. err: libdwfl's error when it found no DWARF.
 */
static void dso_libdw__say_files(struct dso *dso, Dwfl_Module *mod,
				 const struct dso_libdw *dl, int err)
{
	const char *mainfile = NULL, *debugfile = NULL;
	const char *name = dso__long_name(dso);

	dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, &mainfile, &debugfile);
	switch (dl->dwarf) {
	case DWARF_FOUND:
		pr_debug("libdw: source lines of %s from %s%s%s\n", name, mainfile ?: name,
			 debugfile ? " and its debug file " : "", debugfile ?: "");
		break;
	case DWARF_NONE:
		pr_debug("libdw: no source lines for %s: no debug info in %s or in a debug file with its build-id\n",
			 name, mainfile ?: name);
		break;
	case DWARF_UNREADABLE:
		pr_debug("libdw: no source lines for %s from libdw: %s: %s\n", name,
			 debugfile ?: mainfile ?: name, dwfl_errmsg(err));
		break;
	case DWARF_REFUSED:	/* said by libdw__warn_bomb() */
	default:
		break;
	}
}

/*
 * The dso's srcline state, made on first use with the answers an earlier run
 * kept (a2l_cache__read()), without a Dwfl: dso__libdw_get() makes it.
 */
static struct dso_libdw *dso__libdw_state(struct dso *dso)
{
	struct dso_libdw *dl = dso__libdw(dso);

	if (dl)
		return dl;
	dl = zalloc(sizeof(*dl));
	if (dl) {
		a2l_cache__read(&dl->a2l, dso);
		dso__set_libdw(dso, dl);
	}
	return dl;
}

static struct dso_libdw *dso__libdw_get(struct dso *dso)
{
	struct dso_libdw *dl = dso__libdw_state(dso);
	const char *dso_name;
	char path[PATH_MAX];
	Dwfl_Module *mod;
	void **userdatap;
	Dwarf_Addr bias;
	Dwfl *dwfl;
	Elf *elf;
	int err = 0;
	int fd;

	if (!dl || dl->opened)
		return dl;
	/* Made once: a Dwfl that failed to be made is not tried again. */
	dl->opened = true;

	dso_name = dso__long_name(dso);
	/*
	 * Initialize Dwfl session.
	 * We need to open the DSO file to report it to libdw.
	 */
	fd = dso__libdw_path(dso, path, sizeof(path)) ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	if (fd >= 0)
		fd = dso_libdw__uncompressed(dso, dl, fd, path, sizeof(path));
	if (fd < 0) {
		/* No file to read: remembered, a state without a Dwfl. */
		return dl;
	}

	dwfl = dwfl_begin(&offline_callbacks);
	if (!dwfl) {
		close(fd);
		return dl;
	}

	/*
	 * If the report is successful, the file descriptor fd is consumed
	 * and closed by the Dwfl. If not, it is not closed.
	 */
	mod = dwfl_report_offline(dwfl, dso_name, path, fd);
	if (!mod) {
		close(fd);
		goto out_end;
	}

	if (dwfl_report_end(dwfl, /*removed=*/NULL, /*arg=*/NULL) != 0)
		goto out_end;
	elf = dwfl_module_getelf(mod, &bias);
	if (elf && !dso__libdw_elf_is_recorded(dso, elf, path)) {
		/* The other addr2line styles would open the new file by name too. */
		dso__set_a2l_file_checked(dso, true);
		dso__set_a2l_other_build(dso, true);
		goto out_end;
	}
	/* For libdw__find_debuginfo(); the dso outlives its Dwfl. */
	dwfl_module_info(mod, &userdatap, NULL, NULL, NULL, NULL, NULL, NULL);
	*userdatap = dso;
	dl->dwfl = dwfl;

	/*
	 * Why libdw found no DWARF is found out once per dso, here. A
	 * decompression bomb, in the module's file (checked here) or in its
	 * debug file (libdw__debuginfo_checked()), is not given to libdw,
	 * which would inflate it on opening its DWARF: the dso has no source
	 * lines, and libdw__addr2line() stops the other addr2line styles.
	 */
	if (elf && elf__has_compression_bomb(elf)) {
		libdw__warn_bomb(path);
		dl->dwarf = DWARF_REFUSED;
	} else if (!dwfl_module_getdwarf(mod, &bias)) {
		err = dwfl_errno();
		dl->dwarf = dl->debug_refused ? DWARF_REFUSED : libdw__no_dwarf(mod);
	}
	dso_libdw__say_files(dso, mod, dl, err);
	if (dl->dwarf == DWARF_REFUSED)
		dso__set_has_srcline(dso, false);
	return dl;

out_end:
	dwfl_end(dwfl);
	return dl;
}

/* The dso's Dwfl, made on first use. Under dso__srcline_lock(). */
static Dwfl *dso__libdw_dwfl(struct dso *dso)
{
	struct dso_libdw *dl = dso__libdw_get(dso);

	return dl ? dl->dwfl : NULL;
}

/*
 * The dso's module in dso__libdw_dwfl(), and addr, an address in the dso (as
 * objdump shows it), as an address in the Dwfl: the module is the Dwfl's
 * only one, and dwfl_report_offline() placed it at an address of its own,
 * 64 KiB up. NULL when addr is not in the module.
 */
static Dwfl_Module *dso__libdw_module(struct dso *dso, u64 addr, u64 *dwfl_addr)
{
	Dwfl *dwfl = dso__libdw_dwfl(dso);
	Dwfl_Module *mod = NULL;
	Dwarf_Addr bias;

	if (!dwfl)
		return NULL;
	dwfl_getmodules(dwfl, first_module, &mod, /*offset=*/0);
	if (!mod || !dwfl_module_getelf(mod, &bias))
		return NULL;
	*dwfl_addr = addr + bias;
	return dwfl_addrmodule(dwfl, *dwfl_addr) == mod ? mod : NULL;
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
	Dwarf_CFI *cfi;
	u64 pc;

	/* The Dwfl srcline uses, under the dso's srcline lock. */
	mutex_lock(dso__srcline_lock(dso));
	mod = dso__libdw_module(dso, addr, &pc);
	if (!mod) {
		pr_debug("%s(): no module for %#" PRIx64 " in %s\n", __func__, addr,
			 dso__long_name(dso));
		goto out;
	}
	/* .eh_frame, else .debug_frame, which may be in the debug file. */
	cfi = dwfl_module_eh_cfi(mod, &bias);
	frame = libdw__cfi_frame(cfi, bias, pc);
	/* Not from DWARF refused as a bomb: dwfl_module_dwarf_cfi() opens it. */
	dl = dso__libdw(dso);
	if (!frame && dl->dwarf != DWARF_REFUSED) {
		cfi = dwfl_module_dwarf_cfi(mod, &bias);
		frame = libdw__cfi_frame(cfi, bias, pc);
	}
out:
	mutex_unlock(dso__srcline_lock(dso));
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
	/* The frames added, for the build-id cache (a2l_cache__add()). */
	struct a2l_frame *frames;
	/* No call file and line wanted (symbol_conf.inline_srclines_unused). */
	bool no_lines;
	u32 nr_frames, frames_alloc;
	bool frames_failed;
};

/*
 * Add a function of the walk down to the address to the inline node: the
 * caller's symbol where the function is the subprogram (A2L_FRAME_SUBPROGRAM)
 * and there is one, else an inline symbol named funcname; the call file and
 * line are the caller's, the node's last entry's.
 */
static int a2l_add_frame(struct libdw_a2l_cb_args *args, const struct a2l_frame *f)
{
	char *call_srcline = srcline__unknown;
	struct symbol *inline_sym;

	if ((f->flags & A2L_FRAME_SUBPROGRAM) && args->sym) {
		/*
		 * libdw__walk_functions_at() opens the walk with the
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
		inline_sym = new_inline_sym(args->dso, args->sym, f->funcname);
		if (!inline_sym)
			goto abort_enomem;
	}

	/* Assign caller information to the parent. */
	if (f->call_file)
		call_srcline = srcline_from_fileline(f->call_file,
						     f->call_line >= 0 ? f->call_line : 0);

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

static int libdw_a2l_cb(Dwarf_Die *die, void *_args)
{
	struct libdw_a2l_cb_args *args  = _args;
	struct a2l_frame f = {
		/* Naming the call file decodes the unit's lines (< 0.191). */
		.call_file = args->no_lines ? NULL : die_get_call_file(die),
		.call_line = args->no_lines ? 0 : die_get_call_lineno(die),
	};

	if (dwarf_tag(die) == DW_TAG_subprogram)
		f.flags |= A2L_FRAME_SUBPROGRAM;
	if ((f.flags & A2L_FRAME_SUBPROGRAM) && args->sym) {
		f.flags |= A2L_FRAME_CALLER;
	} else {
		/*
		 * Prefer DW_AT_linkage_name so C++ inline frames keep
		 * their namespace/class qualification. new_inline_sym()
		 * runs the name through dso__demangle_sym(), so the
		 * mangled linkage name is turned back into
		 * "Namespace::Class::method". Without a linkage name, as
		 * for a lambda's operator(), a C++ name is qualified from
		 * its scopes (dso_libdw__qualified_name()); C code and
		 * extern "C" functions keep DW_AT_name.
		 */
		f.funcname = die_get_linkage_name(die);
		if (!f.funcname)
			f.funcname = dso_libdw__qualified_name(args->dl, die) ?: die_name(die);
	}

	if (!args->frames_failed && args->nr_frames == args->frames_alloc) {
		u32 alloc = args->frames_alloc ? args->frames_alloc * 2 : 8;
		struct a2l_frame *frames = realloc(args->frames, alloc * sizeof(*frames));

		if (frames) {
			args->frames = frames;
			args->frames_alloc = alloc;
		} else {
			args->frames_failed = true;
		}
	}
	if (!args->frames_failed)
		args->frames[args->nr_frames++] = f;
	return a2l_add_frame(args, &f);
}

/*
 * Whether an answer is kept for addr (a2l_cache__read()): then *retp is what
 * libdw__addr2line() returns, with the inline frames when asked for.
 */
static bool dso_libdw__kept_a2l(struct dso *dso, struct dso_libdw *dl, u64 addr,
				char **file, unsigned int *line_nr, bool unwind_inlines,
				struct inline_node *node, struct symbol *sym, bool no_lines,
				int *retp)
{
	const struct a2l_cache *c = &dl->a2l;
	const struct a2l_cache_entry *ent = NULL;
	struct a2l_answer *a = NULL;
	bool frames = unwind_inlines && node;
	struct libdw_a2l_cb_args args = {
		.dso = dso,
		.dl = dl,
		.sym = sym,
		.node = node,
	};
	const char *src;
	unsigned int line;
	u32 nr, i;
	int ret;

	if (!c->answers || !hashmap__find(c->answers, &addr, &a))
		ent = a2l_cache__entry(c, addr);
	if (!a && !ent)
		return false;
	nr = a ? a->nr_frames : ent->nr_frames;
	ret = a ? a->ret : ent->ret;
	if (frames && nr == A2L_NONE && ret > 0)
		return false;
	/* Frames without their lines serve only a run that shows none. */
	if (ret == A2L_FRAMES_ONLY && !no_lines)
		return false;
	/* A function taken as the caller's symbol when there is none now. */
	for (i = 0; frames && ret > 0 && i < nr; i++) {
		struct a2l_frame f;

		a2l_cache__frame(c, a, ent, i, &f);
		if ((f.flags & A2L_FRAME_CALLER) && !sym)
			return false;
	}
	*retp = ret == A2L_FRAMES_ONLY ? 1 : ret;
	if (ret <= 0)
		return true;

	src = a ? a->file : a2l_cache__str(c, ent->file);
	line = a ? a->line : ent->line;
	if (file)
		*file = src ? strdup(src) : NULL;
	if (line_nr)
		*line_nr = line;
	if (!frames)
		return true;

	args.leaf_srcline = ret == A2L_FRAMES_ONLY ? strdup(SRCLINE_UNKNOWN) :
			    srcline_from_fileline(src ?: "<unknown>", line);
	for (i = 0; args.leaf_srcline && !args.err && i < nr; i++) {
		struct a2l_frame f;

		a2l_cache__frame(c, a, ent, i, &f);
		a2l_add_frame(&args, &f);
	}
	if (!args.leaf_srcline_used)
		free(args.leaf_srcline);
	if (!args.leaf_srcline || args.err) {
		if (file && *file) {
			free(*file);
			*file = NULL;
		}
		inline_node__clear_frames(node);
		*retp = 0;
	}
	return true;
}

/* Whether a line is kept for addr, with or without its inline frames. */
static bool a2l_cache__has_line(const struct a2l_cache *c, u64 addr)
{
	const struct a2l_cache_entry *ent;
	struct a2l_answer *a = NULL;

	if (c->answers && hashmap__find(c->answers, &addr, &a))
		return a->ret == 1;
	ent = a2l_cache__entry(c, addr);
	return ent && ent->ret == 1;
}

void libdw__addr2line_other(struct dso *dso, u64 addr, const char *file,
			    unsigned int line_nr)
{
	struct dso_libdw *dl = dso__libdw(dso);
	struct a2l_answer *a = NULL;
	const struct a2l_cache_entry *ent = NULL;

	if (!dl)
		return;
	if (!dl->a2l.answers || !hashmap__find(dl->a2l.answers, &addr, &a))
		ent = a2l_cache__entry(&dl->a2l, addr);
	if ((a && !a->ret) || (ent && !ent->ret))
		a2l_cache__add(&dl->a2l, addr, file, line_nr, 1, NULL, A2L_NONE);
}

void libdw__addr2line_none(struct dso *dso, u64 addr)
{
	struct dso_libdw *dl = dso__libdw(dso);
	struct a2l_answer *a = NULL;
	const struct a2l_cache_entry *ent;

	if (!dl)
		return;
	if (dl->a2l.answers && hashmap__find(dl->a2l.answers, &addr, &a)) {
		if (!a->ret)
			a->ret = LIBDW_A2L_NO_LINE;
		return;
	}
	ent = a2l_cache__entry(&dl->a2l, addr);
	if (ent && !ent->ret)
		a2l_cache__add(&dl->a2l, addr, NULL, 0, LIBDW_A2L_NO_LINE, NULL, 0);
}

int libdw__addr2line(u64 addr, char **file, unsigned int *line_nr,
		     struct dso *dso, bool unwind_inlines,
		     struct inline_node *node, struct symbol *sym)
{
	Dwarf_Die cu_mem, *cudie = NULL;
	struct dso_libdw *dl;
	Dwfl_Module *mod;
	Dwfl_Line *dwline;
	Dwarf_Addr bias;
	const char *src;
	u64 dwfl_addr;
	Dwarf *dwarf;
	int lineno = 0;
	int ret;
	/*
	 * The inline frames only, for a run that shows no source line of
	 * theirs (perf report and perf top by function, perf script without
	 * -F srcline): the unit's line table is not read, neither for the
	 * address nor for the call files.
	 */
	bool no_lines = unwind_inlines && node && !file && !line_nr &&
			symbol_conf.inline_srclines_unused;

	/* An answer an earlier run kept: no DWARF opened. */
	dl = dso__libdw_state(dso);
	if (!dl)
		return 0;
	if (dso_libdw__kept_a2l(dso, dl, addr, file, line_nr, unwind_inlines, node, sym,
				no_lines, &ret))
		return ret;
	/*
	 * A line kept for the address without its inline frames: look both
	 * up, so that the answer kept serves either kind of lookup.
	 */
	if (no_lines && a2l_cache__has_line(&dl->a2l, addr))
		no_lines = false;

	mod = dso__libdw_module(dso, addr, &dwfl_addr);
	/* A decompression bomb (dso__libdw_get()): no style may read it. */
	if (dl->dwarf == DWARF_REFUSED)
		return LIBDW_A2L_REFUSED;
	if (!mod) {
		/* Outside the dso's file: kept as a unit without a line is. */
		if (dl->dwfl && dl->dwarf == DWARF_FOUND)
			a2l_cache__add(&dl->a2l, addr, NULL, 0, 0, NULL, 0);
		return 0;
	}

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

	/* Find source line information for the address, unless only frames are wanted. */
	dwline = no_lines ? NULL : dwfl_module_getsrc(mod, addr + bias);
	if (no_lines) {
		Dwarf_Addr unused_bias;
		Dwarf_Die *cu;

		/* The unit covering the address, as below without a line. */
		src = NULL;
		cu = dwfl_module_addrdie(mod, addr + bias, &unused_bias);
		if (cu && dwarf_haspc(cu, addr) > 0) {
			cu_mem = *cu;
		} else {
			ret = dso_libdw__cu_at(dl, dwarf, addr, &cu_mem);
			if (ret == 0) {
				a2l_cache__add(&dl->a2l, addr, NULL, 0, LIBDW_A2L_NO_LINE,
					       NULL, 0);
				return LIBDW_A2L_NO_LINE;
			}
			if (ret < 0)
				return 0;
		}
		cudie = &cu_mem;
	} else if (dwline) {
		src = dwfl_lineinfo(dwline, /*addr=*/NULL, &lineno, /*col=*/NULL,
				    /*mtime=*/NULL, /*length=*/NULL);
	} else {
		Dwarf_Addr unused_bias;
		Dwarf_Die *cu;
		Dwarf_Line *line;

		/*
		 * Where a CU covers the address and has no line for it, libdw
		 * may have failed to read its lines (a form it doesn't know, a
		 * split unit without its .dwo), or another style may know more
		 * (LLVM names the file of assembly without lines): the next
		 * style is asked. libdwfl gives an address between two ranges
		 * of .debug_aranges (a PLT entry) the CU of the range below
		 * it: that CU covers it only if its own ranges do.
		 */
		cu = dwfl_module_addrdie(mod, addr + bias, &unused_bias);
		if (cu && dwarf_haspc(cu, addr) > 0) {
			a2l_cache__add(&dl->a2l, addr, NULL, 0, 0, NULL, 0);
			return 0;
		}
		/*
		 * No CU covers the address (a PLT entry, code built without
		 * -g): that is the answer. libdwfl before elfutils 0.191 finds
		 * no CU where one is in a file without .debug_aranges: look in
		 * the CUs it left out.
		 */
		ret = dso_libdw__cu_at(dl, dwarf, addr, &cu_mem);
		if (ret == 0) {
			a2l_cache__add(&dl->a2l, addr, NULL, 0, LIBDW_A2L_NO_LINE, NULL, 0);
			return LIBDW_A2L_NO_LINE;
		}
		if (ret < 0)
			return 0;
		line = dwarf_getsrc_die(&cu_mem, addr);
		if (!line) {
			a2l_cache__add(&dl->a2l, addr, NULL, 0, 0, NULL, 0);
			return 0;
		}
		src = dwarf_linesrc(line, /*mtime=*/NULL, /*length=*/NULL);
		dwarf_lineno(line, &lineno);
		cudie = &cu_mem;
	}

	if (file)
		*file = src ? strdup(src) : NULL;
	if (line_nr)
		*line_nr = lineno;

	if (!unwind_inlines || !node)
		a2l_cache__add(&dl->a2l, addr, src, lineno, 1, NULL, A2L_NONE);

	/* Optionally unwind inline function call chain. */
	if (unwind_inlines && node) {
		Dwarf_Addr unused_bias;
		struct libdw_a2l_cb_args args = {
			.dso = dso,
			.dl = dl,
			.sym = sym,
			.node = node,
			.leaf_srcline = no_lines ? strdup(SRCLINE_UNKNOWN) :
					srcline_from_fileline(src ?: "<unknown>", lineno),
			.no_lines = no_lines,
		};

		if (!args.leaf_srcline) {
			if (file && *file) {
				free(*file);
				*file = NULL;
			}
			return 0;
		}

		/* Walk from the parent down to the leaf. */
		if (!cudie)
			cudie = dwfl_module_addrdie(mod, addr + bias, &unused_bias);
		if (cudie)
			libdw__walk_functions_at(dl, cudie, addr, libdw_a2l_cb, &args);

		if (!args.leaf_srcline_used)
			free(args.leaf_srcline);

		if (args.err) {
			free(args.frames);
			if (file && *file) {
				free(*file);
				*file = NULL;
			}
			inline_node__clear_frames(node);
			return 0;
		}
		if (!args.frames_failed)
			a2l_cache__add(&dl->a2l, addr, src, lineno,
				       no_lines ? A2L_FRAMES_ONLY : 1, args.frames,
				       args.nr_frames);
		free(args.frames);
	}
	return 1;
}
