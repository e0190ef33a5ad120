/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERF_LIBDW_H
#define PERF_LIBDW_H

#include <linux/types.h>
#include <stdint.h>

struct dso;
struct inline_node;
struct symbol;
struct Dwarf_Frame_s;
struct Dwfl;
struct Dwfl_Module;
struct Elf;

/* Why libdw__addr2line() found no line where no other addr2line style would. */
enum {
	/*
	 * No CU of the dso's DWARF covers the address (a PLT entry, code built
	 * without -g): the other styles read the same DWARF.
	 */
	LIBDW_A2L_NO_LINE	= -1,
	/* libelf refused the debug info as a decompression bomb: no style may read it. */
	LIBDW_A2L_REFUSED	= -2,
};

#ifdef HAVE_LIBDW_SUPPORT
/*
 * libdw__addr2line - Convert address to source location using libdw
 * @addr: Address to resolve
 * @file: Pointer to return filename (caller must free)
 * @line_nr: Pointer to return line number
 * @dso: The dso struct
 * @unwind_inlines: Whether to unwind inline function calls
 * @node: Inline node list to append to
 * @sym: The symbol associated with the address
 *
 * This function initializes a Dwfl context for the DSO if not already present,
 * finds the source line information for the given address, and optionally
 * resolves inline function call chains. Called with dso__srcline_lock() held.
 *
 * Returns 1 on success (found), 0 on failure (not found: another style may
 * find it), and a negative LIBDW_A2L_ reason when no other style would.
 */
int libdw__addr2line(u64 addr, char **file,
		     unsigned int *line_nr, struct dso *dso,
		     bool unwind_inlines, struct inline_node *node,
		     struct symbol *sym);

/*
 * libdw__addr2line_other - Another addr2line style found a line for an address
 * @dso: The dso
 * @addr: The address libdw__addr2line() returned 0 for
 * @file: The file the style found
 * @line_nr: The line
 *
 * Where libdw read the DWARF and found a unit without a line for @addr, the
 * line another style found (without inline frames) is kept for the next run
 * on the dso's build-id (buildid.srclines), which asks no style for it.
 * Called with dso__srcline_lock() held.
 */
void libdw__addr2line_other(struct dso *dso, u64 addr, const char *file,
			    unsigned int line_nr);

/*
 * libdw__addr2line_none - No addr2line style found a line for an address
 * @dso: The dso
 * @addr: The address libdw__addr2line() returned 0 for
 *
 * Where libdw read the DWARF and found a unit without a line for @addr, that
 * the default styles found none either is kept for the next run on the dso's
 * build-id (buildid.srclines), which asks none of them. Called with
 * dso__srcline_lock() held.
 */
void libdw__addr2line_none(struct dso *dso, u64 addr);

/*
 * dso__keep_libdw - Keep what was read of the DSO's DWARF in the build-id cache
 * @dso: The dso
 *
 * Writes, once, what a later run on the DSO's build-id can use instead of
 * doing again (the debug info libdw inflated): when the session's dsos go,
 * as a dso still referenced then is not freed, else when the dso goes.
 */
void dso__keep_libdw(struct dso *dso);

/*
 * dso__free_libdw - Free libdw resources associated with the DSO
 * @dso: The dso to free resources for
 *
 * This function cleans up the Dwfl context used for addr2line lookups.
 */
void dso__free_libdw(struct dso *dso);

/*
 * dso__libdw_frame - The call frame information of the dso at an address
 * @dso: The dso
 * @addr: An address in the dso, as objdump shows it
 *
 * Returns the frame at @addr from the dso's .eh_frame, else from its
 * .debug_frame (in the dso or its debug file), or NULL. Free it with free().
 */
struct Dwarf_Frame_s *dso__libdw_frame(struct dso *dso, u64 addr);

/*
 * libdw__report_dso - Report a dso to an unwinder's Dwfl, with its shared ELF file
 * @dwfl: The Dwfl of an address space
 * @dso: The dso
 * @base: Where the dso is mapped, minus the map's file offset
 *
 * The module's address range is computed as dwfl_report_elf() does. libdwfl
 * gets its ELF file from libdw__find_elf(), which the Dwfl's callbacks must
 * have as find_elf: one libelf handle per dso for all address spaces. The
 * module holds a reference to the dso; end the Dwfl with libdw__end_dwfl().
 * Returns NULL when the dso has no ET_DYN or ET_EXEC file of its own.
 */
struct Dwfl_Module *libdw__report_dso(struct Dwfl *dwfl, struct dso *dso, u64 base);

/* libdwfl's find_elf callback for the modules of libdw__report_dso(). */
int libdw__find_elf(struct Dwfl_Module *mod, void **userdata, const char *modname,
		    uint64_t base, char **file_name, struct Elf **elfp);

/*
 * The debug file the unwinder may give libdwfl for the dso's module, for its
 * .debug_frame: a copy to free, or NULL for none.
 */
char *libdw__dso_debuginfo(struct dso *dso);

/* Ends an unwinder's Dwfl, and drops its modules' references to their dsos. */
void libdw__end_dwfl(struct Dwfl *dwfl);

#else /* HAVE_LIBDW_SUPPORT */

static inline int libdw__addr2line(u64 addr __maybe_unused, char **file __maybe_unused,
				   unsigned int *line_nr __maybe_unused,
				   struct dso *dso __maybe_unused,
				   bool unwind_inlines __maybe_unused,
				   struct inline_node *node __maybe_unused,
				   struct symbol *sym __maybe_unused)
{
	return 0;
}

static inline void libdw__addr2line_other(struct dso *dso __maybe_unused,
					  u64 addr __maybe_unused,
					  const char *file __maybe_unused,
					  unsigned int line_nr __maybe_unused)
{
}

static inline void libdw__addr2line_none(struct dso *dso __maybe_unused,
					 u64 addr __maybe_unused)
{
}

static inline void dso__keep_libdw(struct dso *dso __maybe_unused)
{
}

static inline void dso__free_libdw(struct dso *dso __maybe_unused)
{
}
#endif /* HAVE_LIBDW_SUPPORT */

#endif /* PERF_LIBDW_H */
